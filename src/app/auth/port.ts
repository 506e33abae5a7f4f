/**
 * The AuthPort (src/app/auth-port.ts) with @azure/msal-browser, against the built-in OpenID provider or an
 * external issuer, configured at run time from /auth-config.json (docs/decisions/0068-web-sign-in.md).
 * src/main.tsx installs `createAuthPort()` before the first render.
 *
 * - signIn(returnPath): keeps the route in the session (loginRoute), then MSAL's loginRedirect. An invite
 *   route passes its invitation to the built-in provider, whose sign-up page then sets the first password.
 * - The provider answers on the app origin with ?code=… (responseMode query); at start the answer is
 *   redeemed (handleRedirectPromise) and the address becomes #/signed-in, the /:state route, whose
 *   screen calls handleRedirect() for the after-login route of spec §4.
 * - acquireToken: the cached token, renewed with the refresh token (never a hidden iframe); when that
 *   fails, sign-in again by redirect (spec §4: silently, otherwise by redirect).
 * - signOut: all session data goes (spec §4), MSAL's cache too, then the provider's end-session with the
 *   ID token hint; the ?state= it comes back with is removed. The page keeps its state until it leaves (the
 *   stored copy goes first), so its route guard starts no sign-in meanwhile.
 * - B2C: AADB2C90118 starts the password-reset user flow, AADB2C90091 (cancelled) goes back to sign-in.
 * The session timeout of spec §4 (./session-timeout.ts) is not the port's: src/main.tsx starts it for every
 * visitor and it signs staff out through the port.
 */
import {
  CacheLookupPolicy,
  InteractionRequiredAuthError,
  PublicClientApplication,
  type AccountInfo,
  type AuthenticationResult,
} from '@azure/msal-browser';
import type { AuthPort } from '../auth-port.ts';
import { requestedBrand } from '../../../core/brand.ts';
import { session } from '../session/store.ts';
import { appMode } from '../mode.ts';
import { AUTH_CONFIG_PATH, msalConfiguration, parseAuthConfig, type AuthConfig } from './config.ts';
import {
  afterLoginRoute,
  b2cError,
  identityFromClaims,
  inviteToken,
  landingUrl,
  SIGNED_IN_ROUTE,
  withoutResponseQuery,
} from './routing.ts';
import { ensureUserInfo } from './user-info.ts';

/** MSAL errors (beside InteractionRequiredAuthError) after which only a new sign-in gives a token. */
const SIGN_IN_AGAIN = new Set(['no_tokens_found', 'invalid_grant']);

type Outcome = { kind: 'none' } | { kind: 'signedIn'; result: AuthenticationResult } | { kind: 'error'; error: unknown };

export async function createAuthPort(): Promise<AuthPort> {
  const response = await fetch(AUTH_CONFIG_PATH, { headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`${AUTH_CONFIG_PATH} answered ${response.status}`);
  const config = parseAuthConfig(await response.json());
  const origin = window.location.origin;
  const msal = new PublicClientApplication(msalConfiguration(config, origin));
  await msal.initialize();
  return new MsalAuthPort(msal, config, origin, await redeemAnswer(msal, config));
}

/** At start: the identity provider's answer, if the address carries one. */
async function redeemAnswer(msal: PublicClientApplication, config: AuthConfig): Promise<Outcome> {
  let outcome: Outcome = { kind: 'none' };
  const query = new URL(window.location.href).searchParams;
  // A sign-in answer carries a code or an error; the way back from sign-out only ?state=.
  const isAnswer = query.has('code') || query.has('error');
  try {
    const result = await msal.handleRedirectPromise({ navigateToLoginRequestUrl: false });
    if (result) {
      msal.setActiveAccount(result.account);
      outcome = { kind: 'signedIn', result };
    }
  } catch (error) {
    const b2c = b2cError(error);
    if (b2c === 'passwordReset' && config.passwordResetAuthority) {
      await msal.loginRedirect({ scopes: config.scopes, authority: config.passwordResetAuthority });
      return outcome;
    }
    if (b2c === 'cancelled') {
      // The user cancelled a B2C flow (e.g. the password reset): back to sign-in, where they came from.
      await msal.loginRedirect({ scopes: config.scopes });
      return outcome;
    }
    if (isAnswer) outcome = { kind: 'error', error };
  }
  if (outcome.kind !== 'none') {
    window.history.replaceState(null, '', landingUrl(window.location.href, SIGNED_IN_ROUTE));
  } else {
    const clean = withoutResponseQuery(window.location.href);
    if (clean) window.history.replaceState(null, '', clean);
  }
  if (!msal.getActiveAccount()) {
    const [account] = msal.getAllAccounts();
    if (account) msal.setActiveAccount(account);
  }
  return outcome;
}

class MsalAuthPort implements AuthPort {
  private outcome: Outcome;

  constructor(
    private readonly msal: PublicClientApplication,
    private readonly config: AuthConfig,
    private readonly origin: string,
    outcome: Outcome,
  ) {
    this.outcome = outcome;
    // Spec §4: user info is loaded when a signed-in session holds no office yet (after sign-in, or when a
    // screen clears officeId and userInfoLoaded, e.g. after accepting an invitation); one fetch at a time.
    session.subscribe((state) => {
      if (state.authenticated && !state.userInfoLoaded && state.officeId === null) void ensureUserInfo().catch(() => undefined);
    });
  }

  private account(): AccountInfo | null {
    return this.msal.getActiveAccount() ?? this.msal.getAllAccounts()[0] ?? null;
  }

  /** What the built-in provider reads from the sign-in request: an invitation, the page to open and the brand it wears. */
  private builtInParameters(returnPath: string, signUp: boolean): Record<string, string> {
    if (this.config.kind !== 'builtin') return {};
    const invite = inviteToken(returnPath);
    const brand = requestedBrand(window.location, appMode.tabStorage);
    return { ...(invite ? { invite } : {}), ...(signUp ? { screen: 'signup' } : {}), ...(brand ? { brand } : {}) };
  }

  /** The sign-in redirect under way: the page is leaving, and a second call (a guard and a refused token at once) joins it. */
  private redirecting: Promise<void> | null = null;

  signIn(returnPath: string, signUp = false): Promise<void> {
    this.redirecting ??= this.redirectToSignIn(returnPath, signUp).catch((error: unknown) => {
      // The page did not leave: a later call may try again.
      this.redirecting = null;
      throw error;
    });
    return this.redirecting;
  }

  private async redirectToSignIn(returnPath: string, signUp: boolean): Promise<void> {
    session.update({ loginRoute: returnPath });
    // The redirect leaves the page: the encrypted session must be written first.
    await session.flush();
    // An external issuer opens its sign-up page on prompt=create (OpenID Connect's user registration; Entra External ID).
    // After a hand-over to a patient, prompt=login: the provider's own session must not sign staff in unasked.
    const prompt = signUp && this.config.kind !== 'builtin' ? { prompt: 'create' } : session.get().handedOver ? { prompt: 'login' } : {};
    await this.msal.loginRedirect({ scopes: this.config.scopes, extraQueryParameters: this.builtInParameters(returnPath, signUp), ...prompt });
  }

  async signOut(): Promise<void> {
    const account = this.account();
    if (!account) {
      session.clear();
      await session.flush();
      window.location.assign(`${this.origin}/`);
      return;
    }
    // The page shows 'Signing you out…' until the provider's end-session page replaces it.
    await session.forget();
    try {
      await this.msal.logoutRedirect({ account, idTokenHint: account.idToken, postLogoutRedirectUri: `${this.origin}/` });
    } catch {
      // The page did not leave (the provider is out of reach): signed out here at least.
      session.clear();
    }
  }

  async lock(): Promise<void> {
    await this.endProviderSession();
    await this.msal.clearCache();
  }

  /**
   * The built-in provider's own session of this browser ends too (decision 0232): an authorization request made by
   * hand, without prompt=login, then finds nobody signed in. The page stays (no end-session redirect).
   */
  private async endProviderSession(): Promise<void> {
    const account = this.account();
    if (!this.config.handOverPath || !account) return;
    try {
      const { accessToken } = await this.msal.acquireTokenSilent({ account, scopes: this.config.scopes, cacheLookupPolicy: CacheLookupPolicy.AccessTokenAndRefreshToken });
      await fetch(this.config.handOverPath, { method: 'POST', headers: { authorization: `Bearer ${accessToken}` } });
    } catch {
      // Out of reach: the next staff sign-in still asks for the password (prompt=login).
    }
  }

  async acquireToken(options: { forceRefresh?: boolean } = {}): Promise<string | null> {
    const account = this.account();
    if (!account) return null;
    try {
      const result = await this.msal.acquireTokenSilent({
        account,
        scopes: this.config.scopes,
        // Refresh tokens only: renewal in a hidden iframe is fragile across https origins (STACK-NOTES).
        cacheLookupPolicy: options.forceRefresh ? CacheLookupPolicy.RefreshToken : CacheLookupPolicy.AccessTokenAndRefreshToken,
      });
      if (session.get().accessToken !== result.accessToken) session.update({ accessToken: result.accessToken });
      return result.accessToken;
    } catch (error) {
      if (error instanceof InteractionRequiredAuthError || SIGN_IN_AGAIN.has((error as { errorCode?: string }).errorCode ?? '')) {
        // The refresh token is gone or refused (signed out elsewhere, password changed, already used by a page that
        // unloaded before it stored the rotated one — decision 0143): sign in again.
        const here = window.location.hash.replace(/^#/, '') || '/';
        void this.signIn(session.get().loginRoute && here === SIGNED_IN_ROUTE ? session.get().loginRoute! : here);
      }
      return null;
    }
  }

  async handleRedirect(): Promise<string | null> {
    const outcome = this.outcome;
    this.outcome = { kind: 'none' };
    if (outcome.kind === 'none') return null;
    if (outcome.kind === 'error') {
      const message = outcome.error instanceof Error ? outcome.error.message : 'Sign-in failed.';
      return `/error?${new URLSearchParams({ message: `Sign-in failed: ${message.split('\n')[0]!.slice(0, 200)}`, status: '401' })}`;
    }
    const { result } = outcome;
    // Staff signing in takes the device back: a patient's session in this tab ends (decision 0212).
    session.update({
      authenticated: true,
      identity: identityFromClaims(result.idTokenClaims as Record<string, unknown>),
      accessToken: result.accessToken || null,
      handedOver: false,
      borrowerAuthenticated: false,
      borrowerToken: null,
      borrowerAppId: null,
    });
    const route = session.get().loginRoute;
    // An invite route goes first, without waiting for user info (it loads in the background).
    if (!route?.includes('invite')) {
      try {
        await ensureUserInfo();
      } catch {
        // Spec §8: a failed user-info load shows nothing; the stored route's guard decides.
        session.update({ loginRoute: null });
        return route ?? '/';
      }
    }
    const next = afterLoginRoute(session.get());
    session.update({ loginRoute: null });
    return next;
  }
}
