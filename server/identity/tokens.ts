import { createRemoteJWKSet, jwtVerify, SignJWT, type JWTVerifyGetKey } from 'jose';
import type { Settings } from '../config.ts';
import type { TokenVerifiers } from '../http/access.ts';

const BORROWER_AUDIENCE = 'borrower';
const BORROWER_ISSUER = 'pos-portal';

/** Borrower tokens open one application for a short time; the server signs them itself. */
export async function issueBorrowerToken(secret: Buffer, appId: number, ttlSeconds: number): Promise<string> {
  return new SignJWT({ app: appId })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer(BORROWER_ISSUER)
    .setAudience(BORROWER_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(`${ttlSeconds}s`)
    .sign(secret);
}

export interface StaffTokenSource {
  issuer: string;
  audience: string;
  keys: JWTVerifyGetKey;
}

/** Staff tokens come from the OpenID issuer (built-in or external) and are checked against its keys. */
export function createTokenVerifiers(settings: Pick<Settings, 'borrowerTokenSecret'>, staff: StaffTokenSource | undefined): TokenVerifiers {
  return {
    async staff(token) {
      if (!staff) throw new Error('no issuer is configured');
      const { payload } = await jwtVerify(token, staff.keys, { issuer: staff.issuer, audience: staff.audience, algorithms: ['RS256', 'ES256', 'PS256'] });
      if (!payload.sub) throw new Error('token has no subject');
      return { userId: payload.sub };
    },
    async borrower(token) {
      const { payload } = await jwtVerify(token, settings.borrowerTokenSecret, { issuer: BORROWER_ISSUER, audience: BORROWER_AUDIENCE, algorithms: ['HS256'] });
      if (typeof payload.app !== 'number') throw new Error('token names no application');
      return { appId: payload.app };
    },
  };
}

export function remoteStaffTokens(settings: Pick<Settings, 'oidcIssuer' | 'oidcAudience'>): StaffTokenSource | undefined {
  if (!settings.oidcIssuer) return undefined;
  return {
    issuer: settings.oidcIssuer,
    audience: settings.oidcAudience,
    keys: createRemoteJWKSet(new URL(`${settings.oidcIssuer}/jwks`)),
  };
}
