import { createLocalJWKSet, createRemoteJWKSet, jwtVerify, SignJWT, type JWK, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import type { Settings } from '../config.ts';
import type { TokenVerifiers } from '../http/access.ts';

const BORROWER_AUDIENCE = 'borrower';
const BORROWER_ISSUER = 'pos-portal';
/** A staff access token must carry this scope (in `scp`, Entra style, or `scope`). */
export const REQUIRED_SCOPE = 'api.read';

/** A borrower session's lifetime (decision 0067): no borrower token is taken for longer, whatever its expiry says. */
export const BORROWER_TOKEN_MINUTES = 30;
const BORROWER_TOKEN_SECONDS = BORROWER_TOKEN_MINUTES * 60;

/** Borrower tokens open one application for a short time; the server signs them itself. */
export async function issueBorrowerToken(secret: Buffer, appId: number, ttlSeconds = BORROWER_TOKEN_SECONDS): Promise<string> {
  return new SignJWT({ app: appId })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer(BORROWER_ISSUER)
    .setAudience(BORROWER_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(`${ttlSeconds}s`)
    .sign(secret);
}

/**
 * Where staff access tokens come from: the issuer, the keys to check their signature with and the
 * audience they must name. The built-in provider's keys are read in-process; an external issuer's are
 * found by OpenID discovery (its metadata's `issuer` and `jwks_uri`) on first use and cached.
 */
export interface StaffTokenSource {
  audience: string;
  issuer(): Promise<{ issuer: string; keys: JWTVerifyGetKey }>;
  /** Our users.id for a verified token; undefined refuses the token. The subject itself by default. */
  userId?(payload: JWTPayload): Promise<string | undefined>;
}

/** A fixed issuer and key set (the built-in provider; tests). */
export function fixedStaffTokens(source: { issuer: string; audience: string; keys: JWTVerifyGetKey }): StaffTokenSource {
  const resolved = Promise.resolve({ issuer: source.issuer, keys: source.keys });
  return { audience: source.audience, issuer: () => resolved };
}

/** The built-in provider: its issuer and the public halves of the keys it signs with. */
export function builtInStaffTokens(issuer: string, audience: string, publicKeys: { keys: JWK[] }): StaffTokenSource {
  return fixedStaffTokens({ issuer, audience, keys: createLocalJWKSet(publicKeys) });
}

/** An external issuer by discovery; a failed discovery is retried on the next call. */
export function discoveredStaffTokens(
  settings: Pick<Settings, 'oidcIssuer' | 'oidcAudience'>,
  metadataUrl: string,
  userId: StaffTokenSource['userId'],
  fetcher: typeof fetch = fetch,
): StaffTokenSource {
  let pending: Promise<{ issuer: string; keys: JWTVerifyGetKey }> | undefined;
  const discover = async () => {
    const response = await fetcher(metadataUrl, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(5000) });
    if (!response.ok) throw new Error(`OpenID discovery at ${metadataUrl} answered ${response.status}`);
    const metadata = (await response.json()) as { issuer?: unknown; jwks_uri?: unknown };
    if (typeof metadata.jwks_uri !== 'string' || typeof metadata.issuer !== 'string') throw new Error(`OpenID discovery at ${metadataUrl} has no issuer or jwks_uri`);
    return { issuer: settings.oidcIssuer ?? metadata.issuer, keys: createRemoteJWKSet(new URL(metadata.jwks_uri)) };
  };
  return {
    audience: settings.oidcAudience,
    issuer() {
      pending ??= discover().catch((error: unknown) => {
        pending = undefined;
        throw error;
      });
      return pending;
    },
    userId,
  };
}

function hasScope(payload: JWTPayload, scope: string): boolean {
  const granted = [payload.scp, payload.scope].flatMap((value) => (typeof value === 'string' ? value.split(' ') : Array.isArray(value) ? value : []));
  // Entra's scp holds bare names (api.read) where the client asked for api://…/api.read.
  return granted.some((value) => typeof value === 'string' && (value === scope || value.endsWith(`/${scope}`)));
}

/**
 * Staff tokens already verified, with the user each names: a client sends the same token on every
 * call until it renews it, and checking its signature (and mapping an external subject to a user)
 * once is enough (docs/decisions/0140). An entry lasts until the token expires, at most
 * VERIFIED_TTL_MS; whether the user is still enabled, and their roles, are read on every call.
 */
const VERIFIED_LIMIT = 10_000;
const VERIFIED_TTL_MS = 5 * 60_000;

class VerifiedTokens {
  private readonly entries = new Map<string, { userId: string; until: number }>();

  get(token: string): string | undefined {
    const entry = this.entries.get(token);
    if (!entry) return undefined;
    if (Date.now() < entry.until) return entry.userId;
    this.entries.delete(token);
    return undefined;
  }

  set(token: string, userId: string, exp: number | undefined): void {
    if (this.entries.size >= VERIFIED_LIMIT) this.entries.delete(this.entries.keys().next().value!);
    const until = Math.min(Date.now() + VERIFIED_TTL_MS, exp === undefined ? Infinity : exp * 1000);
    this.entries.set(token, { userId, until });
  }
}

type StaffSourceInput = StaffTokenSource | { issuer: string; audience: string; keys: JWTVerifyGetKey };

/** Staff tokens come from the OpenID issuer (built-in or external) and are checked against its keys. */
export function createTokenVerifiers(settings: Pick<Settings, 'borrowerTokenSecret'>, staff: StaffSourceInput | undefined): TokenVerifiers {
  const source = staff && typeof staff.issuer === 'string' ? fixedStaffTokens(staff as { issuer: string; audience: string; keys: JWTVerifyGetKey }) : (staff as StaffTokenSource | undefined);
  const verified = new VerifiedTokens();
  return {
    async staff(token) {
      const known = verified.get(token);
      if (known) return { userId: known };
      if (!source) throw new Error('no issuer is configured');
      const { issuer, keys } = await source.issuer();
      // A token without an expiry would be good for ever: refused, whoever signed it.
      const { payload } = await jwtVerify(token, keys, { issuer, audience: source.audience, algorithms: ['RS256', 'ES256', 'PS256'], requiredClaims: ['exp'] });
      if (!payload.sub) throw new Error('token has no subject');
      if (!hasScope(payload, REQUIRED_SCOPE)) throw new Error(`token lacks the ${REQUIRED_SCOPE} scope`);
      const userId = source.userId ? await source.userId(payload) : payload.sub;
      if (!userId) throw new Error('token subject is not a user');
      verified.set(token, userId, payload.exp);
      return { userId };
    },
    async borrower(token) {
      const { payload } = await jwtVerify(token, settings.borrowerTokenSecret, {
        issuer: BORROWER_ISSUER,
        audience: BORROWER_AUDIENCE,
        algorithms: ['HS256'],
        // jose checks `exp` only when present; a borrower session must end (30 minutes, decision 0067), and a token
        // whose expiry lies further out than that (a leaked signing key, a bug) is refused, not trusted for years.
        requiredClaims: ['exp', 'iat'],
        maxTokenAge: BORROWER_TOKEN_SECONDS,
      });
      if (payload.exp! - payload.iat! > BORROWER_TOKEN_SECONDS) throw new Error('token outlives a borrower session');
      if (typeof payload.app !== 'number') throw new Error('token names no application');
      return { appId: payload.app };
    },
  };
}
