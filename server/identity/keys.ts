import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import type { Db } from '../db/index.ts';
import { oidcStore } from '../db/schema.ts';
import { decryptPii, encryptPii } from '../crypto/pii.ts';

export interface ProviderKeys {
  /** Private signing keys (JWK), the first one signs; the provider publishes their public halves at /oidc/jwks. */
  jwks: { keys: JWK[] };
  /** Keys that sign the provider's cookies (the first signs, all verify). */
  cookieKeys: string[];
}

const MODEL = 'ProviderKeys';
const ID = 'current';

async function generate(): Promise<ProviderKeys> {
  const rsa = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(rsa.privateKey)), use: 'sig', alg: 'RS256', kid: `rs-${randomBytes(6).toString('hex')}` };
  return { jwks: { keys: [jwk] }, cookieKeys: [randomBytes(32).toString('base64url')] };
}

/**
 * The built-in provider's keys are made once, stored in the database encrypted with IDENTITY_KEY
 * (AES-256-GCM, the same envelope as personal data) and shared by every process: tokens signed by
 * one process verify in another, and survive restarts (docs/decisions/0062).
 */
export async function loadProviderKeys(db: Db, secret: Buffer): Promise<ProviderKeys> {
  const read = async () => {
    const [row] = await db.select({ payload: oidcStore.payload }).from(oidcStore).where(and(eq(oidcStore.model, MODEL), eq(oidcStore.id, ID)));
    return row ? (JSON.parse(decryptPii(secret, String(row.payload.enc))) as ProviderKeys) : undefined;
  };
  const existing = await read();
  if (existing) return existing;
  const fresh = await generate();
  // Two processes starting at once: the first insert wins and both read it back.
  await db
    .insert(oidcStore)
    .values({ model: MODEL, id: ID, payload: { enc: encryptPii(secret, JSON.stringify(fresh)) } })
    .onConflictDoNothing();
  return (await read())!;
}

/** The public half of each signing key, for verifying in-process without an HTTP round trip. */
export function publicJwks(keys: ProviderKeys): { keys: JWK[] } {
  return {
    keys: keys.jwks.keys.map(({ kty, n, e, crv, x, y, kid, alg, use }) =>
      Object.fromEntries(Object.entries({ kty, n, e, crv, x, y, kid, alg, use }).filter(([, v]) => v !== undefined)) as JWK,
    ),
  };
}
