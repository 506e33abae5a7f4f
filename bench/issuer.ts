import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';

/**
 * A stand-in OpenID issuer on loopback: it serves `/jwks` (and its metadata) with an RS256 key made
 * for this run, and signs staff access tokens with it. The server under test gets its URL as
 * OIDC_ISSUER and checks the tokens with its own verifier, as it does the real provider's.
 */
export interface Issuer {
  url: string;
  /** An access token of the user `subject` (users.id) for `audience`. */
  token(subject: string, email: string, audience: string): Promise<string>;
  /** How often the server fetched the key set (it should cache it: 1 per server start). */
  jwksRequests(): number;
  close(): Promise<void>;
}

const KID = 'bench-1';

export async function startIssuer(): Promise<Issuer> {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const jwks = JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid: KID, alg: 'RS256', use: 'sig' }] });
  let fetched = 0;
  let url = '';

  const server: Server = createServer((request, response) => {
    if (request.method === 'GET' && request.url === '/jwks') {
      fetched += 1;
      response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=600' }).end(jwks);
      return;
    }
    if (request.method === 'GET' && request.url === '/.well-known/openid-configuration') {
      // For a server that finds the keys through the issuer's metadata rather than `${issuer}/jwks`.
      const metadata = { issuer: url, jwks_uri: `${url}/jwks`, id_token_signing_alg_values_supported: ['RS256'] };
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(metadata));
      return;
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  url = `http://127.0.0.1:${port}`;

  return {
    url,
    token: (subject, email, audience) =>
      new SignJWT({ scp: 'api.read api.write', email })
        .setProtectedHeader({ alg: 'RS256', kid: KID })
        .setIssuer(url)
        .setAudience(audience)
        .setSubject(subject)
        .setIssuedAt()
        .setExpirationTime('2h')
        .sign(privateKey),
    jwksRequests: () => fetched,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
