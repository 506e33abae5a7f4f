import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * OAuth 2.0 client credentials (RFC 6749 §4.4): POST /oauth/token with the lender's client id (its code) and the
 * service's client secret, by HTTP Basic or in the form, answers a bearer token that expires.
 */

export interface TokenIssuer {
  issue(clientId: string): { access_token: string; token_type: 'Bearer'; expires_in: number };
  /** The lender a valid, unexpired bearer token was issued to. */
  clientOf(request: FastifyRequest): string | undefined;
}

export function tokenIssuer(ttlSeconds: number): TokenIssuer {
  const tokens = new Map<string, { clientId: string; expiresAt: number }>();
  return {
    issue(clientId) {
      const now = Date.now();
      for (const [token, entry] of tokens) if (entry.expiresAt <= now) tokens.delete(token);
      const token = randomBytes(24).toString('base64url');
      tokens.set(token, { clientId, expiresAt: now + ttlSeconds * 1000 });
      return { access_token: token, token_type: 'Bearer', expires_in: ttlSeconds };
    },
    clientOf(request) {
      const match = /^Bearer ([A-Za-z0-9_-]+)$/.exec(request.headers.authorization ?? '');
      const entry = match ? tokens.get(match[1]!) : undefined;
      return entry && entry.expiresAt > Date.now() ? entry.clientId : undefined;
    },
  };
}

export const sameSecret = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

function credentialsOf(request: FastifyRequest): { id: string; secret: string } | undefined {
  const basic = /^Basic ([A-Za-z0-9+/=]+)$/.exec(request.headers.authorization ?? '');
  if (basic) {
    const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    return colon > 0 ? { id: decodeURIComponent(decoded.slice(0, colon)), secret: decodeURIComponent(decoded.slice(colon + 1)) } : undefined;
  }
  const form = (request.body ?? {}) as Record<string, unknown>;
  return typeof form.client_id === 'string' && typeof form.client_secret === 'string' ? { id: form.client_id, secret: form.client_secret } : undefined;
}

/** POST /oauth/token; `isClient` says which client ids exist (the lenders that speak OAuth). */
export function registerTokenEndpoint(app: FastifyInstance, tokens: TokenIssuer, secret: string, isClient: (id: string) => boolean): void {
  app.post('/oauth/token', async (request, reply) => {
    const form = (request.body ?? {}) as Record<string, unknown>;
    // RFC 6749 §5.2 errors, and no caching of a token (§5.1).
    reply.header('cache-control', 'no-store');
    if (form.grant_type !== 'client_credentials') return reply.code(400).send({ error: 'unsupported_grant_type' });
    const client = credentialsOf(request);
    if (!client || !isClient(client.id) || !sameSecret(client.secret, secret)) {
      return reply.code(401).header('www-authenticate', 'Basic realm="lender-service"').send({ error: 'invalid_client' });
    }
    return tokens.issue(client.id);
  });
}
