import { mkdtempSync } from 'node:fs';
import { Agent, request as httpsRequest } from 'node:https';
import { connect as http2Connect, type ClientHttp2Session } from 'node:http2';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { X509Certificate } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { certificateHosts, loadCertificate } from '../../server/identity/certificate.ts';
import { dualProtocolServer } from '../../server/identity/listener.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'pos-tls-'));
const settings = { tls: { mode: 'self-signed' as const }, dataDir, publicUrl: 'https://localhost:3000' };

function httpsGet(port: number, path: string, agent?: Agent): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest({ host: '127.0.0.1', port, path, rejectUnauthorized: false, servername: 'localhost', agent }, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('https with a local certificate, plain http only redirecting', () => {
  const material = loadCertificate(settings)!;
  let port = 0;
  const server = dualProtocolServer((request, response) => {
    const answer = () => response.end(`app ${(request.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http'} ${request.method} ${request.url} ${request.httpVersion}`);
    if (request.url === '/slow') setTimeout(answer, 300);
    else answer();
  }, { key: material.key, cert: material.cert, publicUrl: 'https://localhost:3000' });

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('makes a self-signed certificate for localhost and the loopback addresses once, and reuses it', () => {
    expect(material.created).toBe(true);
    const cert = new X509Certificate(material.cert);
    expect(cert.checkHost('localhost')).toBe('localhost');
    expect(cert.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(cert.ca).toBe(true);
    expect(Date.parse(cert.validTo) - Date.now()).toBeGreaterThan(300 * 86_400_000);
    expect(cert.verify(cert.publicKey)).toBe(true);
    const again = loadCertificate(settings)!;
    expect(again.created).toBe(false);
    expect(again.cert.equals(material.cert)).toBe(true);
    expect(certificateHosts('https://portal.example.com')).toContain('portal.example.com');
  });

  it('serves the app over https', async () => {
    expect(await httpsGet(port, '/x?y=1')).toEqual({ status: 200, body: 'app https GET /x?y=1 1.1' });
  });

  it('redirects plain http to the same path on the https origin, and answers only the health check itself', async () => {
    const redirected = await fetch(`http://127.0.0.1:${port}/app/page?q=1`, { redirect: 'manual', method: 'POST', body: 'x' });
    expect(redirected.status).toBe(308);
    expect(redirected.headers.get('location')).toBe('https://localhost:3000/app/page?q=1');
    const health = await fetch(`http://127.0.0.1:${port}/api/health`);
    expect(await health.text()).toBe('app http GET /api/health 1.1');
    // Keep-alive on the plain side: several requests on one connection.
    for (let i = 0; i < 3; i++) expect((await fetch(`http://127.0.0.1:${port}/api/health`)).status).toBe(200);
  });

  it('speaks HTTP/2 to a client that offers it (decision 0243), on the same port', async () => {
    const session = http2Connect(`https://localhost:${port}`, { rejectUnauthorized: false, host: '127.0.0.1' });
    try {
      expect(await http2Get(session, '/x?y=1')).toEqual({ status: 200, body: 'app https GET /x?y=1 2.0' });
      expect((session.socket as { alpnProtocol?: string }).alpnProtocol).toBe('h2');
    } finally {
      session.close();
    }
  });

  it('closes idle connections of both protocols when asked, and answers the request under way first', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    await httpsGet(port, '/idle', agent);
    const idle = Object.values(agent.freeSockets).flat()[0]!;
    const idleClosed = new Promise((resolve) => idle.once('close', resolve));
    const session = http2Connect(`https://localhost:${port}`, { rejectUnauthorized: false, host: '127.0.0.1' });
    const sessionClosed = new Promise((resolve) => session.once('close', resolve));
    const slow = http2Get(session, '/slow');
    await new Promise((resolve) => setTimeout(resolve, 100));
    server.closeIdleConnections();
    expect(await slow).toEqual({ status: 200, body: 'app https GET /slow 2.0' });
    await Promise.all([idleClosed, sessionClosed]);
    agent.destroy();
  });
});

function http2Get(session: ClientHttp2Session, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const stream = session.request({ ':path': path });
    let status = 0;
    let body = '';
    stream.on('response', (headers) => (status = Number(headers[':status'])));
    stream.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    stream.on('end', () => resolve({ status, body }));
    stream.on('error', reject);
  });
}
