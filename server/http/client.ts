import type { FastifyRequest } from 'fastify';
import { networkOf, type ClientNetwork } from './addresses.ts';

/** Where a request came from, for the e-sign audit trail. */
export function clientOf(request: FastifyRequest): { ip: string | null; userAgent: string | null } {
  const agent = request.headers['user-agent'];
  return { ip: request.ip ?? null, userAgent: typeof agent === 'string' ? agent.slice(0, 300) : null };
}

/** The request's address as limits count it (`networkOf`, decision 0308). */
export const clientNetwork = (request: FastifyRequest): ClientNetwork => networkOf(request.ip);
