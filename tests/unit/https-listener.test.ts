import { mkdtempSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { X509Certificate } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { certificateHosts, loadCertificate } from '../../server/identity/certificate.ts';
import { dualProtocolServer } from '../../server/identity/listener.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'pos-tls-'));
const settings = { tls: { mode: 'self-signed' as const }, dataDir, publicUrl: 'https://localhost:3000' };

function httpsGet(port: number, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest({ host: '127.0.0.1', port, path, rejectUnauthorized: false, servername: 'localhost' }, (res) => {
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
    response.end(`app ${(request.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http'} ${request.method} ${request.url}`);
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
    expect(await httpsGet(port, '/x?y=1')).toEqual({ status: 200, body: 'app https GET /x?y=1' });
  });

  it('redirects plain http to the same path on the https origin, and answers only the health check itself', async () => {
    const redirected = await fetch(`http://127.0.0.1:${port}/app/page?q=1`, { redirect: 'manual', method: 'POST', body: 'x' });
    expect(redirected.status).toBe(308);
    expect(redirected.headers.get('location')).toBe('https://localhost:3000/app/page?q=1');
    const health = await fetch(`http://127.0.0.1:${port}/api/health`);
    expect(await health.text()).toBe('app http GET /api/health');
    // Keep-alive on the plain side: several requests on one connection.
    for (let i = 0; i < 3; i++) expect((await fetch(`http://127.0.0.1:${port}/api/health`)).status).toBe(200);
  });
});
