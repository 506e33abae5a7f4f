import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerFactory } from 'fastify';
import type { DestinationStream } from 'pino';
import fastifyMultipart from '@fastify/multipart';
import type { Settings } from './config.ts';
import type { Database } from './db/index.ts';
import { loadMessageCatalogue, ROOT, type JsonObject } from '../core/contract/documents.ts';
import { servedContract } from './contract.ts';
import { readOperations } from '../core/contract/operations.ts';
import { compileValidators } from '../core/contract/validators.ts';
import type { MessageCatalogue } from '../core/messages.ts';
import { bindOperations } from './http/bind.ts';
import { createAccess, type TokenVerifiers } from './http/access.ts';
import { HttpProblem, problemBody } from './http/problem.ts';
import { wordsFor } from './descriptors/languages.ts';
import { lazyChildLogger, loggerOptions } from './http/logging.ts';
import { registerReference } from './http/reference.ts';
import { registerWebApp } from './http/web-app.ts';
import { liveSet } from './descriptors/live.ts';
import { registerApiAnswers } from './http/api-answers.ts';
import { createHandlers } from './domain/handlers.ts';
import { CALLBACK_PATH } from './lenders/portal-addresses.ts';
import { lenderCatalogue, syncLenderRows } from './lenders/registry.ts';
import { sandboxSiteUrl } from './lenders/sandbox.ts';
import { registerSandboxLenderSite } from './lenders/site.ts';
import { registerDevOutboxPage } from './notify/dev-outbox.ts';
import { dualProtocolServer } from './identity/listener.ts';
import { runNow, type Services } from './services.ts';
import { processJobRunner } from './domain/jobs.ts';
import { endEventStreams } from './events/stream.ts';
import { DESCRIPTOR_SET_HEADER } from '../core/descriptor-set-header.ts';

export interface ServerOptions {
  settings: Settings;
  database: Database;
  verifiers: TokenVerifiers;
  /** The sign-in routes: the built-in OpenID provider and its pages, /auth-config.json (server/identity). */
  identity?: { register(app: FastifyInstance): Promise<void> };
  /** Serve https with this certificate, plain http on the same port only redirecting (server/identity/listener.ts). */
  https?: { key: Buffer; cert: Buffer };
  /** Where the built web app is; the API still runs when it is missing. */
  webRoot?: string;
  /** Where log lines go: standard output by default (the logging test reads them). */
  logStream?: DestinationStream;
}

// randomUUID takes its bytes from a pool Node refills 128 ids at a time; randomBytes(16) went to OpenSSL and made a
// Buffer for every request.
const traceId = () => randomUUID().replaceAll('-', '');

/** Framework errors that are the caller's fault keep their status; anything else is a 500. */
function asProblem(error: FastifyError | HttpProblem, catalogue: MessageCatalogue): HttpProblem {
  if (error instanceof HttpProblem) return error;
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || error instanceof SyntaxError) {
      return HttpProblem.validation({ $: [catalogue.messages.invalidJson] });
    }
    return new HttpProblem(status, error.message);
  }
  return new HttpProblem(500, catalogue.messages.serverError);
}

function sendProblem(request: FastifyRequest, reply: FastifyReply, problem: HttpProblem): void {
  const words = wordsFor(request.headers['accept-language']);
  const retryAfter = problem.extensions?.retryAfterSeconds;
  if (typeof retryAfter === 'number') reply.header('retry-after', String(retryAfter));
  reply
    .code(problem.status)
    .header('x-trace-id', String(request.id))
    .type('application/problem+json')
    .send(JSON.stringify(problemBody(problem, String(request.id), request.url.split('?')[0] ?? '/', words)));
}

export async function buildServer(options: ServerOptions): Promise<FastifyInstance> {
  const { settings, database } = options;
  const app = Fastify({
    logger: { ...loggerOptions(settings.logLevel), ...(options.logStream ? { stream: options.logStream } : {}) },
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && /^[0-9a-f]{32}$/.test(given) ? given : traceId();
    },
    requestIdHeader: false,
    childLoggerFactory: (logger, bindings, options) => lazyChildLogger(logger, bindings, options as Record<string, unknown>),
    // Longer path values reach the contract's validators (a 400 naming the field); far longer ones get a 414.
    routerOptions: { maxParamLength: 500 },
    frameworkErrors: (error, request, reply) => {
      const status = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 414 : 400;
      sendProblem(request, reply, new HttpProblem(status, status === 414 ? 'A path parameter is too long.' : 'The URL is not valid.'));
    },
    bodyLimit: settings.bodyLimit,
    // Behind a TLS-terminating proxy the client address (sign-in rate limits) is in X-Forwarded-For.
    trustProxy: settings.tls.mode === 'proxy',
    ...(options.https
      ? {
          // HTTP/2 with HTTP/1.1 beside it (decision 0243): Fastify answers both through Node's compatibility API, so
          // it is given the server as its default kind.
          serverFactory: ((handler: Parameters<typeof dualProtocolServer>[0]) => dualProtocolServer(handler, { ...options.https!, publicUrl: settings.publicUrl })) as unknown as FastifyServerFactory,
        }
      : {}),
    return503OnClosing: true,
    forceCloseConnections: 'idle',
  });

  const catalogue = loadMessageCatalogue();
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const problem = asProblem(error, catalogue);
    if (problem.status >= 500) request.log.error({ err: error }, 'request failed');
    sendProblem(request, reply, problem);
  });

  app.setNotFoundHandler((request, reply) => {
    sendProblem(request, reply, new HttpProblem(404, 'This page could not be found'));
  });

  // HSTS on every https answer, set on the raw response so that routes answering it themselves (the OpenID provider's)
  // carry it too; a year, as browsers' preload rules ask (decision 0175). Over plain http it would be ignored.
  app.addHook('onRequest', async (request, reply) => {
    if (request.protocol === 'https') reply.raw.setHeader('strict-transport-security', 'max-age=31536000');
  });

  app.addHook('onSend', async (request, reply) => {
    // HTTP/2 has no Connection header: Fastify's 'close' after an unreadable body would be dropped with a warning. A
    // stream of its own carries each request there, so an unread body holds up no other.
    if (request.raw.httpVersionMajor === 2) reply.removeHeader('connection');
    // An answer that goes out before its request has all arrived (a refusal before or midway through the body) closes
    // the connection, as Fastify's own 413 does: the rest of that body would otherwise be read to its end however long,
    // or be left unread and hold the next request on the connection up (decision 0249). An injected request, which has
    // no connection, does not say.
    else if (request.raw.complete === false) reply.header('connection', 'close');
    reply.header('x-trace-id', String(request.id));
    // Which descriptor set is live: an open tab that runs on another takes it on its next navigation (decision 0228).
    if (request.url.startsWith('/api/')) reply.header(DESCRIPTOR_SET_HEADER, (await liveSet(database.db)).hash);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
  });
  registerApiAnswers(app);

  // The API speaks JSON and multipart only; anything else is 415, not a string body.
  app.removeContentTypeParser('text/plain');
  await app.register(fastifyMultipart, {
    limits: { fileSize: settings.uploadLimit, files: 20, fields: 5, fieldSize: 100_000, parts: 25 },
    throwFileSizeLimit: true,
  });

  // The lender callback's signature covers the exact bytes of its body: keep them for that route only.
  app.addHook('onRoute', (route) => {
    if (route.url !== CALLBACK_PATH) return;
    const own = route.preParsing === undefined ? [] : Array.isArray(route.preParsing) ? route.preParsing : [route.preParsing];
    route.preParsing = [...own, async (request, _reply, payload) => {
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of payload) {
        const part = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
        size += part.length;
        if (size > settings.bodyLimit) throw new HttpProblem(413, 'The request body is too large.');
        chunks.push(part);
      }
      request.rawBody = Buffer.concat(chunks);
      return Readable.from([request.rawBody]);
    }];
  });

  const services: Services = { settings, db: database.db, database, log: app.log, afterCommit: runNow };
  // Jobs run in this process when its requests enqueue them; server/main.ts adds the timer for the rest.
  const jobs = processJobRunner(services);
  app.addHook('onClose', () => jobs.stop());
  // Before the server waits for its connections: open event streams would hold it for their `wait`.
  app.addHook('preClose', (done) => {
    endEventStreams();
    done();
  });
  // Every lender file is a lender: its row exists from the first start (docs/decisions/0101).
  await syncLenderRows(database.db, lenderCatalogue(settings));
  const contract = servedContract();
  const operations = readOperations(contract);
  bindOperations(app, {
    operations,
    validators: compileValidators(contract, operations),
    handlers: createHandlers(),
    catalogue,
    services,
    jobs,
    access: createAccess(services, options.verifiers),
  });
  await registerReference(app, contract);
  await options.identity?.register(app);
  // The outbox page exists in demo mode only (its JSON, dev_outbox, answers 404 in production).
  if (settings.mode === 'demo') await registerDevOutboxPage(app, database.db);
  // The sandbox lenders' own pages, where their links lead (demo mode only, as their links: docs/decisions/0191).
  if (sandboxSiteUrl(settings)) await registerSandboxLenderSite(app, services);

  const webRoot = options.webRoot ?? join(ROOT, 'dist');
  if (existsSync(join(webRoot, 'index.html'))) await registerWebApp(app, settings, webRoot, async () => (await liveSet(database.db)).hash, (contract.components as JsonObject).schemas as JsonObject);
  return app;
}
