import type { FastifyReply } from 'fastify';
import type { LenderDescriptor } from '../core/lenders/descriptor.ts';
import type { CallbackSender } from './callbacks.ts';
import type { ApiStyle, LenderServiceConfig } from './config.ts';
import type { Faults } from './faults.ts';
import type { ApplicationStore } from './store.ts';
import type { TokenIssuer } from './oauth.ts';

/** What the service's routes share. */
export interface ServiceContext {
  config: LenderServiceConfig;
  lenders: Map<string, { descriptor: LenderDescriptor; style: ApiStyle }>;
  store: ApplicationStore;
  callbacks: CallbackSender;
  tokens: TokenIssuer;
  faults: Map<string, Faults>;
  /** The service's own address once it listens: its signing pages are there. */
  origin(): string;
  /** Runs `work` after `ms`, unless the service closes first. */
  later(ms: number, work: () => Promise<void>): void;
}

/** An error answer (RFC 9457 problem details). */
export function problem(reply: FastifyReply, status: number, detail: string) {
  const titles: Record<number, string> = { 400: 'Bad Request', 401: 'Unauthorized', 404: 'Not Found', 409: 'Conflict', 422: 'Unprocessable Content', 503: 'Service Unavailable' };
  return reply.code(status).type('application/problem+json').send({ type: 'about:blank', title: titles[status] ?? 'Error', status, detail });
}
