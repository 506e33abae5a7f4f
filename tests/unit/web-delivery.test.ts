import { afterAll, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { parseWebConfig } from '../../src/app/config.ts';
import { webConfigMeta } from '../../server/http/security-headers.ts';
import { DAILY, registerWebApp } from '../../server/http/web-app.ts';
import { IMMUTABLE } from '../../server/http/api-answers.ts';
import { preferredEncoding } from '../../server/http/encoding.ts';
import { precompress } from '../../scripts/precompress.ts';
import { registerApiAnswers } from '../../server/http/api-answers.ts';
import type { Settings } from '../../server/config.ts';

const roots: string[] = [];
afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

const SCRIPT = `export const words = ${JSON.stringify('a patient financing portal '.repeat(200))};\n`;

/** A built web app in a temporary folder, compressed the way the build does it, served as the server does. */
async function webApp(liveHash = async () => ''): Promise<FastifyInstance> {
  const root = mkdtempSync(join(tmpdir(), 'pos-web-'));
  roots.push(root);
  mkdirSync(join(root, 'assets'));
  writeFileSync(join(root, 'index.html'), '<head><meta name="pos-config" content="" /></head><body>' + 'x'.repeat(2000) + '</body>');
  writeFileSync(join(root, 'assets', 'index-CAoUHPvE.js'), SCRIPT);
  writeFileSync(join(root, 'assets', 'tiny-B8ewwq1b.js'), 'export {};\n');
  writeFileSync(join(root, 'favicon.svg'), `<svg xmlns="http://www.w3.org/2000/svg">${'<g/>'.repeat(400)}</svg>`);
  await precompress(root);
  const app = Fastify();
  await registerWebApp(app, { webApiKey: "k'1<", identity: { kind: 'builtin' }, publicUrl: 'https://localhost:3000' } as unknown as Settings, root, liveHash, {});
  app.get('/api/x', async () => ({ ok: true }));
  return app;
}

describe('delivering the web app (issue 17, decision 0200)', () => {
  it('picks brotli, then gzip, by Accept-Encoding, honouring q=0', () => {
    expect(preferredEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(preferredEncoding('gzip')).toBe('gzip');
    expect(preferredEncoding('br;q=0, gzip;q=0.5')).toBe('gzip');
    expect(preferredEncoding('*')).toBe('br');
    expect(preferredEncoding('*;q=0, identity')).toBeUndefined();
    expect(preferredEncoding(undefined)).toBeUndefined();
  });

  it('sends the compressed copy the client accepts, with Vary, and hashed files immutable for a year', async () => {
    const app = await webApp();
    const url = '/assets/index-CAoUHPvE.js';
    const br = await app.inject({ url, headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(SCRIPT);
    expect(br.rawPayload.length).toBeLessThan(SCRIPT.length / 10);
    const gz = await app.inject({ url, headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(SCRIPT);
    const plain = await app.inject({ url });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
    for (const response of [br, gz, plain]) {
      expect(response.headers.vary).toMatch(/accept-encoding/i);
      expect(response.headers['cache-control']).toBe(IMMUTABLE);
    }
    // A file too small to gain from compression has no copies and is sent as it is.
    const tiny = await app.inject({ url: '/assets/tiny-B8ewwq1b.js', headers: { 'accept-encoding': 'br' } });
    expect([tiny.statusCode, tiny.headers['content-encoding'], tiny.body]).toEqual([200, undefined, 'export {};\n']);
    // A file whose name does not change with its content is kept a day.
    const icon = await app.inject({ url: '/favicon.svg', headers: { 'accept-encoding': 'br' } });
    expect([icon.headers['content-encoding'], icon.headers['cache-control']]).toEqual(['br', DAILY]);
    expect([br.headers.etag, br.headers['last-modified'], br.headers['accept-ranges']]).toEqual([undefined, undefined, undefined]);
    await app.close();
  });

  it('fills the page in once, compresses it, and answers a revalidation with 304', async () => {
    const app = await webApp();
    const page = await app.inject({ url: '/', headers: { 'accept-encoding': 'br' } });
    expect(page.headers['content-encoding']).toBe('br');
    const html = brotliDecompressSync(page.rawPayload).toString();
    expect(html).toContain(webConfigMeta({ webApiKey: "k'1<" }));
    const meta = /content='([^']*)'/.exec(html)![1]!.replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&quot;/g, '"').replace(/&amp;/g, '&');
    expect(parseWebConfig(meta)).toEqual({ apiKey: "k'1<" });
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    // The studio's preview frames the app on its own origin (decision 0228); no other site may.
    expect(page.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'self'");
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.headers.vary).toMatch(/accept-encoding/i);
    const etag = String(page.headers.etag);
    const again = await app.inject({ url: '/index.html', headers: { 'if-none-match': etag } });
    expect([again.statusCode, again.body]).toEqual([304, '']);
    const plain = await app.inject({ url: '/index.html' });
    expect([plain.statusCode, plain.headers['content-encoding'], plain.body]).toEqual([200, undefined, html]);
    // The API is not the page: no page policy on it.
    expect((await app.inject({ url: '/api/x' })).headers['content-security-policy']).toBeUndefined();
    expect(parseWebConfig('')).toEqual({ apiKey: null });
    await app.close();
  });

  it('names a published descriptor set in the page and has the browser fetch it beside the scripts (decision 0228)', async () => {
    let live = '';
    const app = await webApp(async () => live);
    expect((await app.inject({ url: '/' })).body).not.toContain('rel="preload"');
    live = '0123456789abcdef';
    const html = (await app.inject({ url: '/' })).body;
    expect(html).toContain('<link rel="preload" href="/api/Descriptors/GetSet/0123456789abcdef" as="fetch" crossorigin="anonymous" />');
    const meta = /content='([^']*)'/.exec(html)![1]!.replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&quot;/g, '"').replace(/&amp;/g, '&');
    expect(parseWebConfig(meta)).toEqual({ apiKey: "k'1<", descriptors: '0123456789abcdef' });
    await app.close();
  });

  it('has the build write the copies beside every text file but the page and the source maps', async () => {
    const root = mkdtempSync(join(tmpdir(), 'pos-web-'));
    roots.push(root);
    for (const name of ['a.js', 'a.js.map', 'index.html', 'b.css']) writeFileSync(join(root, name), 'body { color: red }\n'.repeat(100));
    const result = await precompress(root);
    expect(result.files).toBe(2);
    expect(brotliDecompressSync(readFileSync(join(root, 'b.css.br'))).toString()).toBe('body { color: red }\n'.repeat(100));
    expect(() => readFileSync(join(root, 'a.js.map.br'))).toThrow();
    expect(() => readFileSync(join(root, 'index.html.gz'))).toThrow();
  });

  it('compresses JSON answers, lets public reads revalidate, and keeps private ones out of every cache', async () => {
    const app = Fastify();
    registerApiAnswers(app);
    const items = Array.from({ length: 60 }, (_, i) => ({ type: 'States', name: `State ${i}`, value: `S${i}` }));
    app.get('/api/list', { config: { cache: 'revalidate' } }, async () => ({ items }));
    app.get('/api/private', async () => ({ items }));
    app.get('/api/small', async () => ({ ok: true }));
    const whole = JSON.stringify({ items });

    const anonymous = await app.inject({ url: '/api/list', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(anonymous.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(anonymous.rawPayload).toString()).toBe(whole);
    expect(anonymous.rawPayload.length).toBeLessThan(whole.length / 4);
    expect(anonymous.headers.vary).toMatch(/accept-encoding/i);
    expect(anonymous.headers['cache-control']).toBe('no-cache');
    const etag = String(anonymous.headers.etag);
    const again = await app.inject({ url: '/api/list', headers: { 'if-none-match': etag, 'accept-encoding': 'br' } });
    expect([again.statusCode, again.rawPayload.length]).toEqual([304, 0]);

    const signedIn = await app.inject({ url: '/api/list', headers: { authorization: 'Bearer x', 'accept-encoding': 'gzip', 'if-none-match': etag } });
    expect([signedIn.statusCode, signedIn.headers['cache-control'], signedIn.headers.etag, signedIn.headers['content-encoding']]).toEqual([200, 'no-store', undefined, 'gzip']);
    expect(gunzipSync(signedIn.rawPayload).toString()).toBe(whole);

    // A read the contract does not mark public is kept out of caches even when asked without a token (a signed link).
    const link = await app.inject({ url: '/api/private', headers: { 'accept-encoding': 'br' } });
    expect([link.headers['cache-control'], link.headers.etag, link.headers['content-encoding']]).toEqual(['no-store', undefined, 'br']);

    const small = await app.inject({ url: '/api/small', headers: { 'accept-encoding': 'br' } });
    expect([small.headers['content-encoding'], small.body]).toEqual([undefined, '{"ok":true}']);
    const plain = await app.inject({ url: '/api/list' });
    expect([plain.headers['content-encoding'], plain.body]).toEqual([undefined, whole]);
    await app.close();
  });
});
