import { request as httpsRequest } from 'node:https';
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../server/app.ts';
import { loadCertificate } from '../../server/identity/certificate.ts';
import { harness, type Harness } from '../support/harness.ts';
import { serverWith } from './journey-fixtures.ts';

const HSTS = 'max-age=31536000';

/** Transport headers (decision 0175): HSTS on every https answer, and the API reference never inside another site's frame. */
describe('transport and framing headers', () => {
  let h: Harness;
  let secure: FastifyInstance;
  let port: number;
  beforeAll(async () => {
    h = await harness();
    const tls = loadCertificate({ ...h.settings, tls: { mode: 'self-signed' } })!;
    secure = await buildServer({ settings: h.settings, database: h.database, verifiers: h.verifiers, https: { key: tls.key, cert: tls.cert } });
    await secure.listen({ host: '127.0.0.1', port: 0 });
    port = (secure.server.address() as { port: number }).port;
  });
  afterAll(() => secure.close());

  const get = (protocol: 'https' | 'http', path: string) =>
    new Promise<{ status: number; headers: Record<string, string | string[] | undefined> }>((resolve, reject) => {
      const send = protocol === 'https' ? httpsRequest : httpRequest;
      const request = send({ host: '127.0.0.1', port, path, rejectUnauthorized: false }, (response) => {
        response.resume();
        response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers }));
      });
      request.on('error', reject);
      request.end();
    });

  it('sends Strict-Transport-Security on every https answer: API, errors, the reference, unknown paths', async () => {
    for (const path of ['/api/health', '/api/Config/GetConfigItems/States', '/api/App/GetApp/1/false', '/api/docs', '/no/such/page']) {
      const response = await get('https', path);
      expect(response.headers['strict-transport-security'], `${path} (${response.status})`).toBe(HSTS);
    }
    // Plain http on the same port only redirects (and answers the health check), without HSTS: browsers ignore it there.
    const plain = await get('http', '/api/health');
    expect(plain.status).toBe(200);
    expect(plain.headers['strict-transport-security']).toBeUndefined();
  });

  it('sends it behind a TLS-terminating proxy when the proxy says the request came over https', async () => {
    const proxied = await serverWith(h, { tls: { mode: 'proxy' } });
    try {
      const over = (proto: string) => proxied.inject({ method: 'GET', url: '/api/health', headers: { 'x-forwarded-proto': proto } });
      expect((await over('https')).headers['strict-transport-security']).toBe(HSTS);
      expect((await over('http')).headers['strict-transport-security']).toBeUndefined();
    } finally {
      await proxied.close();
    }
  });

  it('keeps the API reference out of other sites\' frames', async () => {
    const docs = await h.call({ method: 'GET', url: '/api/docs', key: false });
    expect(docs.statusCode).toBe(200);
    expect(docs.headers['x-frame-options']).toBe('DENY');
    expect(String(docs.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
  });

  it('lets a browser revalidate the public reads the contract marks x-cache: revalidate, and keeps every other answer out of caches (decision 0200)', async () => {
    const url = '/api/Config/GetAllConfigItems';
    const first = await h.call({ method: 'GET', url, headers: { 'accept-encoding': 'br' } });
    expect([first.statusCode, first.headers['cache-control'], first.headers['content-encoding']]).toEqual([200, 'no-cache', 'br']);
    const again = await h.call({ method: 'GET', url, headers: { 'if-none-match': String(first.headers.etag) } });
    expect(again.statusCode).toBe(304);
    // Signed in, the same read is not kept; nor is a private read.
    const signedIn = await h.call({ method: 'GET', url, as: 'office.admin@demo.test', headers: { 'if-none-match': String(first.headers.etag) } });
    expect([signedIn.statusCode, signedIn.headers['cache-control']]).toEqual([200, 'no-store']);
    const health = await h.call({ method: 'GET', url: '/api/health' });
    expect([health.headers['cache-control'], health.headers.etag]).toEqual(['no-store', undefined]);
  });
});
