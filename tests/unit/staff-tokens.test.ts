import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTokenVerifiers } from '../../server/identity/tokens.ts';

const ISSUER = 'https://issuer.test';
const AUDIENCE = 'api://pos-portal';

async function setUp() {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256' };
  const verifiers = createTokenVerifiers({ borrowerTokenSecret: Buffer.alloc(32, 1) }, { issuer: ISSUER, audience: AUDIENCE, keys: createLocalJWKSet({ keys: [jwk] }) });
  const sign = (subject: string, seconds: number) =>
    new SignJWT({ scp: 'api.read api.write' })
      .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setSubject(subject)
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + seconds)
      .sign(privateKey);
  return { verifiers, sign };
}

describe('staff token verification', () => {
  afterEach(() => vi.useRealTimers());

  it('remembers a verified token no longer than the token itself is valid', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { verifiers, sign } = await setUp();
    const token = await sign('user-1', 60);
    await expect(verifiers.staff(token)).resolves.toEqual({ userId: 'user-1' });
    await expect(verifiers.staff(token)).resolves.toEqual({ userId: 'user-1' });
    vi.setSystemTime(Date.now() + 61_000);
    await expect(verifiers.staff(token)).rejects.toThrow();
  });

  it('checks a token it has not seen, even beside one it remembers', async () => {
    const { verifiers, sign } = await setUp();
    const good = await sign('user-1', 600);
    await verifiers.staff(good);
    const tampered = `${good.slice(0, -4)}${good.slice(-4) === 'AAAA' ? 'BBBB' : 'AAAA'}`;
    await expect(verifiers.staff(tampered)).rejects.toThrow();
    const other = await (await setUp()).sign('user-1', 600);
    await expect(verifiers.staff(other)).rejects.toThrow();
  });
});
