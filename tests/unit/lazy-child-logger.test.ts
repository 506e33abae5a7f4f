import { Writable } from 'node:stream';
import Fastify from 'fastify';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { lazyChildLogger, loggerOptions } from '../../server/http/logging.ts';

/** A request's logger made on its first line: the same lines, bindings and redaction as pino's own child. */

function logger(level: string) {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({ write: (chunk, _encoding, done) => done(void lines.push(JSON.parse(String(chunk)))) });
  const { level: _level, ...options } = loggerOptions(level);
  const parent = pino({ level, ...options }, stream);
  let made = 0;
  const child = parent.child.bind(parent);
  parent.child = ((bindings, childOptions) => (made++, child(bindings, childOptions))) as typeof parent.child;
  return { parent, lines, made: () => made };
}

describe('a request logger made when first needed', () => {
  it('makes no child for a request that logs nothing at the levels that are on', () => {
    const { parent, lines, made } = logger('warn');
    const log = lazyChildLogger(parent, { reqId: 'r1' }, {});
    log.info({ route: '/x' }, 'incoming request');
    log.debug('detail');
    expect(typeof log.error).toBe('function');
    expect(made()).toBe(0);
    expect(lines).toEqual([]);
  });

  it("passes Fastify's check of each request's logger (its `child` among the methods) without making a child", async () => {
    const { parent, made } = logger('warn');
    const app = Fastify({ loggerInstance: parent, childLoggerFactory: (base, bindings, options) => lazyChildLogger(base, bindings, options as Record<string, unknown>) });
    app.get('/quiet', async (request) => (request.log.info('handled'), { ok: true }));
    app.get('/loud', async (request) => (request.log.error('failed'), { ok: true }));
    await app.ready();
    // Fastify makes one child of its own at start, to add its serializers.
    const atStart = made();
    expect((await app.inject({ url: '/quiet' })).statusCode).toBe(200);
    expect(made()).toBe(atStart);
    expect((await app.inject({ url: '/loud' })).statusCode).toBe(200);
    expect(made()).toBe(atStart + 1);
    await app.close();
  });

  it("writes a line at a level that is on with the request's bindings, its fields redacted, through one child", () => {
    const { parent, lines, made } = logger('warn');
    const log = lazyChildLogger(parent, { reqId: 'r2' }, {});
    log.error({ email: 'pat@example.com', route: '/api/App/GetApp' }, 'request failed');
    log.warn('slow');
    expect(made()).toBe(1);
    expect(lines.map(({ reqId, email, route, msg }) => ({ reqId, email, route, msg }))).toEqual([
      { reqId: 'r2', email: '[redacted]', route: '/api/App/GetApp', msg: 'request failed' },
      { reqId: 'r2', email: undefined, route: undefined, msg: 'slow' },
    ]);
  });

  it("logs at the route's own level, louder or quieter than the parent's", () => {
    const quiet = logger('info');
    lazyChildLogger(quiet.parent, { reqId: 'r4' }, { level: 'warn' }).info('a reset token in the address');
    expect(quiet.lines).toEqual([]);
    const loud = logger('warn');
    lazyChildLogger(loud.parent, { reqId: 'r5' }, { level: 'debug' }).debug('detail');
    expect(loud.lines.map(({ reqId, msg }) => ({ reqId, msg }))).toEqual([{ reqId: 'r5', msg: 'detail' }]);
  });

  it("changes the request's logger, not its parent's, when it is set on", () => {
    const { parent } = logger('warn');
    const log = lazyChildLogger(parent, { reqId: 'r3' }, {});
    log.level = 'debug';
    expect(log.level).toBe('debug');
    expect(parent.level).toBe('warn');
  });
});
