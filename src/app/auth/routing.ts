/**
 * The decisions of sign-in, as pure functions (spec §3, §4; unit-tested in tests/unit/auth-client.test.ts):
 * where to go after sign-in, what the session holds after user info, which B2C error means what, what the
 * session timeout does, the utm cookie.
 */
import type { components } from '../../../codegen/generated/api.ts';
import type { SessionState } from '../session/state.ts';

export type SessionUser = components['schemas']['SessionUser'];

export const ENROLL = '/enroll';
/** The route table's root: its redirects send each user to their start page (screens/routes.json). */
export const ROOT = '/';
/** The single-segment route (spec /:state) the app lands on after the identity provider answered. */
export const SIGNED_IN_ROUTE = '/signed-in';

/** Only app-internal hash paths are followed (never another origin, never a scheme). */
export function safeRoute(path: string | null | undefined): string | null {
  if (!path || !path.startsWith('/') || path.startsWith('//') || /[\\\s]/.test(path)) return null;
  return path;
}

/**
 * Spec §4 after login: a stored route containing 'invite' first; otherwise (user info loaded) a
 * non-enrolled user goes to enroll; an enrolled user to the stored route, or to the root, whose redirects in the
 * route table (data) send platform admins to the admin applications, the product owner to the studio, others home.
 */
export function afterLoginRoute(state: Pick<SessionState, 'loginRoute' | 'enrolled'>): string {
  const stored = safeRoute(state.loginRoute);
  if (stored?.includes('invite')) return stored;
  if (!state.enrolled) return ENROLL;
  if (!stored) return ROOT;
  return stored;
}

/** The session fields of spec §3 that Users_GetUserInfo fills. */
export function sessionFromUser(user: SessionUser): Partial<SessionState> {
  return {
    userInfoLoaded: true,
    userId: user.userId,
    officeId: user.officeId,
    officeName: user.officeName,
    selectedOfficeId: user.officeId,
    selectedOfficeName: user.officeName,
    role: user.role,
    permissions: user.permissions,
    userRole: user.userRole,
    title: user.title,
    timeZone: user.timeZone,
    isMultipleOffices: user.isMultipleOffices,
    hasBizApps: user.hasBizApps,
    enrolled: user.isEnrollmentCompleted,
    approved: user.isApproved,
    patientOnlyApplication: user.patientOnlyApplication,
    officeLandingCode: user.officeLandingCode,
    accessDisabled: user.accessDisabled,
  };
}

/**
 * What a user-info answer changes in the session. An office chosen here while the answer was on its way (an invitation
 * accepted, an office switched) is newer than the answer's: only the user's own facts are taken then, or the session
 * would fall back to the office it had before (a colleague who just joined would have none).
 */
export function sessionAfterUserInfo(officeNow: number | null, officeAtRequest: number | null, fresh: Partial<SessionState>): Partial<SessionState> {
  if (officeNow === officeAtRequest) return fresh;
  const { userInfoLoaded, userId, userRole, hasBizApps, accessDisabled } = fresh;
  return { userInfoLoaded, userId, userRole, hasBizApps, accessDisabled };
}

/** Identity details from ID token claims (Entra: oid, B2C: emails[]; the built-in provider: sub, email). */
export function identityFromClaims(claims: Record<string, unknown>): NonNullable<SessionState['identity']> {
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  const emails = Array.isArray(claims.emails)
    ? claims.emails.filter((e): e is string => typeof e === 'string')
    : [text(claims.email) || text(claims.preferred_username)].filter(Boolean);
  return { givenName: text(claims.given_name), familyName: text(claims.family_name), emails, objectId: text(claims.oid) || text(claims.sub) };
}

/** Azure AD B2C answers: AADB2C90118 = the user chose 'Forgot your password?', AADB2C90091 = the user cancelled. */
export function b2cError(error: unknown): 'passwordReset' | 'cancelled' | null {
  const text = error instanceof Error ? `${error.message} ${(error as { errorMessage?: string }).errorMessage ?? ''}` : String(error ?? '');
  if (text.includes('AADB2C90118')) return 'passwordReset';
  if (text.includes('AADB2C90091')) return 'cancelled';
  return null;
}

/**
 * The utm fields of Users_GetUserInfo from the cookie that holds source, medium and campaign: a `utm`
 * cookie (JSON {source, medium, campaign} or source=…&medium=…&campaign=…), or utm_source / utm_medium /
 * utm_campaign cookies.
 */
export function utmFromCookies(cookieHeader: string): { utmSource: string | null; utmMedium: string | null; utmCampaign: string | null } {
  const cookies = new Map<string, string>();
  for (const part of cookieHeader.split(';')) {
    const at = part.indexOf('=');
    if (at < 0) continue;
    try {
      cookies.set(part.slice(0, at).trim(), decodeURIComponent(part.slice(at + 1).trim()));
    } catch {
      // A malformed cookie is ignored.
    }
  }
  let source = cookies.get('utm_source');
  let medium = cookies.get('utm_medium');
  let campaign = cookies.get('utm_campaign');
  const combined = cookies.get('utm');
  if (combined) {
    let fields: Record<string, unknown> = {};
    try {
      fields = JSON.parse(combined) as Record<string, unknown>;
    } catch {
      fields = Object.fromEntries(new URLSearchParams(combined));
    }
    const pick = (name: string) => (typeof fields[name] === 'string' ? (fields[name] as string) : typeof fields[`utm_${name}`] === 'string' ? (fields[`utm_${name}`] as string) : undefined);
    source ??= pick('source');
    medium ??= pick('medium');
    campaign ??= pick('campaign');
  }
  const clip = (value: string | undefined) => (value ? value.slice(0, 100) : null);
  return { utmSource: clip(source), utmMedium: clip(medium), utmCampaign: clip(campaign) };
}

/** The invitation token of an invite route, which the built-in provider's sign-up page accepts. */
export function inviteToken(path: string | null | undefined): string | null {
  return /^\/users\/invite\/([0-9a-f-]{36})(?:[/?]|$)/i.exec(path ?? '')?.[1] ?? null;
}

/** The address after the provider answered: the response's query goes, the app lands on `route`. */
export function landingUrl(href: string, route: string): string {
  const url = new URL(href);
  return `${url.origin}${url.pathname}#${route}`;
}

/** After sign-out the provider comes back with ?state=…: an address without it. */
export function withoutResponseQuery(href: string): string | null {
  const url = new URL(href);
  const names = ['state', 'code', 'iss', 'session_state', 'error', 'error_description', 'client_info'];
  if (!names.some((name) => url.searchParams.has(name))) return null;
  for (const name of names) url.searchParams.delete(name);
  return url.toString();
}
