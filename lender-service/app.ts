import Fastify, { type FastifyInstance } from 'fastify';
import { loadLenderFiles } from '../core/lenders/descriptor.ts';
import { registerAdmin } from './admin.ts';
import { callbackSender } from './callbacks.ts';
import { after, sleep, type Wait } from './clock.ts';
import { styleOf, type LenderServiceConfig } from './config.ts';
import { problem, type ServiceContext } from './context.ts';
import { registerLenderApi } from './lender-api.ts';
import { registerTokenEndpoint, tokenIssuer } from './oauth.ts';
import { registerSigningSite } from './signing-site.ts';
import { ApplicationStore } from './store.ts';

/** The lender service (decision 0259): built, listening on 127.0.0.1, and closed with its timers. */
export interface LenderService {
  app: FastifyInstance;
  /** The address it listens on, http://127.0.0.1:<port>. */
  origin: string;
  close(): Promise<void>;
}

/** The lender a request is for: the :code of its route, for the lenders' API and signing pages. */
function lenderOf(request: { routeOptions: { url?: string }; params: unknown }): string | undefined {
  const route = request.routeOptions.url ?? '';
  return route.startsWith('/lenders/:code') || route.startsWith('/signing/:code') ? (request.params as { code: string }).code : undefined;
}

/** The faults of each lender, applied before its routes run and to what they answer. */
function applyFaults(app: FastifyInstance, service: ServiceContext): void {
  app.addHook('onRequest', async (request, reply) => {
    const code = lenderOf(request);
    const faults = code ? service.faults.get(code) : undefined;
    if (!faults) return;
    if (faults.delayMs) await sleep(faults.delayMs);
    if (faults.down === 'reset') {
      reply.hijack();
      request.raw.socket.destroy();
      return;
    }
    if (faults.down === '503') return problem(reply.header('retry-after', '5'), 503, `${code} is down (a fault set on the lender service).`);
  });
  app.addHook('onSend', async (request, reply, payload) => {
    const code = lenderOf(request);
    if (!code || !service.faults.get(code)?.malformed || typeof payload !== 'string') return payload;
    // Half a JSON document, still labelled JSON and 200: what a lender's broken proxy or serializer sends.
    reply.code(200).type('application/json');
    return payload.slice(0, Math.ceil(payload.length / 2));
  });
}

export async function startLenderService(config: LenderServiceConfig): Promise<LenderService> {
  const descriptors = loadLenderFiles(config.lendersDir);
  const app = Fastify({ logger: false, forceCloseConnections: true, ajv: { customOptions: { removeAdditional: false, coerceTypes: false, allErrors: true } } });
  const waits = new Set<Wait>();
  const faults = new Map(config.faults);
  let origin = '';
  const service: ServiceContext = {
    config,
    lenders: new Map(descriptors.map((descriptor) => [descriptor.code, { descriptor, style: styleOf(config, descriptor) }])),
    store: new ApplicationStore(),
    callbacks: callbackSender(config, (code) => faults.get(code) ?? {}),
    tokens: tokenIssuer(config.tokenTtlSeconds),
    faults,
    origin: () => origin,
    later(ms, work) {
      const wait = after(ms, () => {
        waits.delete(wait);
        void work();
      });
      waits.add(wait);
    },
  };

  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 4096 }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });
  app.setErrorHandler((error: { statusCode?: number; message: string }, _request, reply) => {
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    return problem(reply, status, status === 500 ? 'The lender service failed.' : error.message);
  });
  applyFaults(app, service);
  registerTokenEndpoint(app, service.tokens, config.clientSecret, (id) => service.lenders.has(id) && service.lenders.get(id)!.style !== 'async-callback');
  registerLenderApi(app, service);
  registerSigningSite(app, service);
  registerAdmin(app, service);
  app.get('/health', async () => ({ status: 'ok', lenders: Object.fromEntries([...service.lenders].map(([code, { style }]) => [code, style])) }));

  await app.listen({ host: config.host, port: config.port });
  const address = app.server.address();
  origin = `http://${config.host}:${typeof address === 'object' && address ? address.port : config.port}`;
  return {
    app,
    origin,
    async close() {
      for (const wait of waits) wait.cancel();
      service.callbacks.close();
      await app.close();
    },
  };
}
