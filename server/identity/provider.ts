import { randomBytes } from 'node:crypto';
import Provider, { errors, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import type { Settings } from '../config.ts';
import type { Db } from '../db/index.ts';
import { postgresAdapter } from './adapter.ts';
import { MOUNT } from './paths.ts';
import { userById } from './accounts.ts';
import type { ProviderKeys } from './keys.ts';
import { deployedBrandHosts, serverBrand } from '../descriptors/brands.ts';
import { hostMatches } from '../../core/brand.ts';
import { logoutPage, messagePage, type Page } from './pages.ts';

export { MOUNT };
/** The scopes of the API resource; access tokens carry them in `scope` and, like Entra's, in `scp`. */
export const API_SCOPES = ['api.read', 'api.write'] as const;
/** OpenID scopes the web client asks for and is granted without a consent screen (it is first-party). */
const CLIENT_SCOPES = 'openid profile email offline_access';

const HOURS = 3600;
/** Token and session lifetimes (docs/decisions/0062-built-in-openid-provider.md). */
export const LIFETIMES = {
  accessToken: 15 * 60,
  idToken: 15 * 60,
  session: 12 * HOURS,
  refreshToken: 12 * HOURS,
  interaction: 30 * 60,
} as const;

export const issuerOf = (settings: Pick<Settings, 'publicUrl'>): string => `${settings.publicUrl}${MOUNT}`;

/**
 * The origins the web app may run on: PUBLIC_URL, and when that is a loopback name, the other
 * loopback names on the same port (so https://127.0.0.1:3000 works as well as https://localhost:3000).
 */
export function appOrigins(publicUrl: string): string[] {
  const url = new URL(publicUrl);
  const loopback = ['localhost', '127.0.0.1', '[::1]'];
  if (!loopback.includes(url.hostname)) return [url.origin];
  return [url.origin, ...loopback.filter((h) => h !== url.hostname).map((h) => `${url.protocol}//${h}${url.port ? `:${url.port}` : ''}`)];
}

/**
 * Whether the web app may run on an origin, for the provider's redirects and CORS: one of appOrigins, or a host the
 * operator approved (SIGN_IN_HOSTS; a pattern's `*` standing for one label, as in the web app's choice of brand) on
 * PUBLIC_URL's scheme and port. Never the published brands' hosts: a product owner must not widen whom sign-in trusts
 * (decision 0248).
 */
export function appOriginAllowed(publicUrl: string, approvedHosts: readonly string[]): (origin: string) => boolean {
  const fixed = new Set(appOrigins(publicUrl));
  const base = new URL(publicUrl);
  return (origin) => {
    if (fixed.has(origin)) return true;
    const url = URL.parse(origin);
    return !!url && url.origin === origin && url.protocol === base.protocol && url.port === base.port && approvedHosts.some((pattern) => hostMatches(pattern, url.hostname));
  };
}

/** The hosts the operator approved for staff sign-in: SIGN_IN_HOSTS, else the deployed brand files' (decision 0248). */
export const signInHosts = (identity: { appHosts: readonly string[] | undefined }): readonly string[] => identity.appHosts ?? deployedBrandHosts();

function send(ctx: KoaContextWithOIDC, page: Page): void {
  ctx.status = page.status;
  ctx.type = 'html';
  ctx.set('content-security-policy', page.csp);
  ctx.set('x-frame-options', 'DENY');
  ctx.set('cache-control', 'no-store');
  ctx.body = page.html;
}

export interface ProviderOptions {
  settings: Pick<Settings, 'publicUrl' | 'oidcAudience' | 'tls'> & { identity: { clientId: string; appHosts: readonly string[] | undefined } };
  db: Db;
  keys: ProviderKeys;
}

export function createProvider({ settings, db, keys }: ProviderOptions): Provider {
  const audience = settings.oidcAudience;
  const origins = appOrigins(settings.publicUrl);
  const originAllowed = appOriginAllowed(settings.publicUrl, signInHosts(settings.identity));
  const home = `${settings.publicUrl}/`;

  const configuration: Configuration = {
    adapter: postgresAdapter(db),
    clients: [
      {
        client_id: settings.identity.clientId,
        client_name: serverBrand(new URL(settings.publicUrl).host).name,
        application_type: 'web',
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        redirect_uris: origins.map((origin) => `${origin}/`),
        post_logout_redirect_uris: origins.map((origin) => `${origin}/`),
      },
    ],
    jwks: keys.jwks as Configuration['jwks'],
    cookies: {
      keys: keys.cookieKeys,
      names: { session: 'pos_session', interaction: 'pos_interaction', resume: 'pos_interaction_resume' },
      long: { httpOnly: true, sameSite: 'lax' },
      short: { httpOnly: true, sameSite: 'lax' },
    },
    claims: {
      openid: ['sub'],
      email: ['email'],
      profile: ['name', 'given_name', 'family_name', 'preferred_username'],
    },
    // MSAL reads the names and preferred_username from the ID token, not from the userinfo endpoint.
    conformIdTokenClaims: false,
    async findAccount(_ctx, sub) {
      const user = await userById(db, sub);
      if (!user || user.isDisabled) return undefined;
      return {
        accountId: user.id,
        async claims() {
          return {
            sub: user.id,
            email: user.email,
            name: `${user.firstName} ${user.lastName}`,
            given_name: user.firstName,
            family_name: user.lastName,
            // MSAL's account.username comes from this claim.
            preferred_username: user.email,
          };
        },
      };
    },
    features: {
      devInteractions: { enabled: false },
      revocation: { enabled: true },
      userinfo: { enabled: true },
      rpInitiatedLogout: {
        enabled: true,
        async logoutSource(ctx, form) {
          send(ctx, logoutPage(serverBrand(ctx.host), form, randomBytes(16).toString('base64')));
        },
        async postLogoutSuccessSource(ctx) {
          send(ctx, messagePage(serverBrand(ctx.host), { title: 'Signed out', text: 'You are signed out.', link: { label: 'Back to the portal', url: home } }));
        },
      },
      resourceIndicators: {
        enabled: true,
        // MSAL sends no `resource`: every token is for the API.
        async defaultResource() {
          return audience;
        },
        async useGrantedResource() {
          return true;
        },
        async getResourceServerInfo(_ctx, resource) {
          if (resource !== audience) throw new errors.InvalidTarget();
          return {
            scope: API_SCOPES.join(' '),
            audience,
            accessTokenTTL: LIFETIMES.accessToken,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'RS256' } },
          };
        },
      },
    },
    async extraTokenClaims(_ctx, token) {
      return 'scope' in token && token.scope ? { scp: token.scope } : undefined;
    },
    interactions: {
      url: (_ctx, interaction) => `${MOUNT}/interaction/${interaction.uid}`,
    },
    // The invite token rides along to the sign-up page (an invited person chooses a password there), `screen=signup`
    // opens on the sign-up page ('Create an account' in the web app); the brand
    // the web app wears rides along so that the provider's pages wear it (docs/decisions/0060).
    extraParams: ['invite', 'brand', 'screen'],
    // MSAL never sends prompt=consent, without which offline_access would be dropped: the web client
    // always gets a refresh token, bound to the provider session (expiresWithSession) so sign-out ends it.
    async issueRefreshToken(_ctx, client) {
      return client.grantTypeAllowed('refresh_token');
    },
    async expiresWithSession() {
      return true;
    },
    // First-party client: grant what it asks for without a consent screen.
    async loadExistingGrant(ctx) {
      const { client, session, provider } = ctx.oidc;
      const accountId = session?.accountId;
      if (!client || !accountId) return undefined;
      const grantId = ctx.oidc.result?.consent?.grantId ?? session.grantIdFor(client.clientId);
      return provider.Grant.find(await firstPartyGrant(provider, { accountId, clientId: client.clientId, grantId, audience }));
    },
    pkce: { required: () => true },
    responseTypes: ['code'],
    scopes: ['openid', 'offline_access', 'profile', 'email'],
    clientBasedCORS: (_ctx, origin) => originAllowed(origin),
    ttl: {
      AccessToken: LIFETIMES.accessToken,
      AuthorizationCode: 60,
      IdToken: LIFETIMES.idToken,
      Interaction: LIFETIMES.interaction,
      Session: LIFETIMES.session,
      Grant: LIFETIMES.session,
      RefreshToken(ctx) {
        const rotated = ctx?.oidc?.entities.RotatedRefreshToken;
        return rotated ? rotated.remainingTTL : LIFETIMES.refreshToken;
      },
    },
    async renderError(ctx, out) {
      const text =
        out.error === 'access_denied' ? 'Sign-in was cancelled.'
        // A brand's host the operator has not approved for sign-in (SIGN_IN_HOSTS), or a forged address.
        : out.error === 'invalid_redirect_uri' ? `Staff sign-in is not open on that address. Sign in at ${home}`
        : (out.error_description ?? 'Something went wrong with the sign-in request.');
      send(ctx, messagePage(serverBrand(ctx.host), { title: 'Sign-in problem', text, kind: 'error', status: ctx.status >= 400 ? ctx.status : 400, link: { label: 'Back to the portal', url: home } }));
    },
  };

  const provider = new Provider(issuerOf(settings), configuration);
  // The registered addresses are exact; a brand's host may be a pattern (`*.example`), so the web client is also sent
  // back to the root of any origin the app may run on (oidc-provider's recipe for wildcard redirect URIs).
  const atAppRoot = (uri: string) => {
    const url = URL.parse(uri);
    return !!url && uri === `${url.origin}/` && originAllowed(url.origin);
  };
  const { redirectUriAllowed, postLogoutRedirectUriAllowed } = provider.Client.prototype;
  provider.Client.prototype.redirectUriAllowed = function (uri: string) {
    return redirectUriAllowed.call(this, uri) || atAppRoot(uri);
  };
  provider.Client.prototype.postLogoutRedirectUriAllowed = function (uri: string) {
    return postLogoutRedirectUriAllowed.call(this, uri) || atAppRoot(uri);
  };
  // oidc-provider answers a preflight, and a call before it knows the client, with any Origin; only the web app's
  // approved origins may read the provider's answers from a browser.
  provider.use(async (ctx, next) => {
    await next();
    const origin = ctx.get('Origin');
    if (origin && !originAllowed(origin)) ctx.remove('Access-Control-Allow-Origin');
  });
  // Behind a TLS-terminating proxy the provider trusts X-Forwarded-Proto/-For for https URLs and secure cookies.
  provider.proxy = settings.tls.mode === 'proxy';
  // oidc-provider keeps offline_access (and so a refresh token MSAL may renew with offline_access in its
  // scope) only for prompt=consent, which MSAL never sends: the provider adds it to the web client's
  // sign-in requests, and the consent step that follows is granted at once (routes.ts, first-party).
  provider.use(async (ctx, next) => {
    if (ctx.method === 'GET' && ctx.path === '/auth') {
      const query = ctx.query as Record<string, string | string[] | undefined>;
      const scope = typeof query.scope === 'string' ? query.scope.split(' ') : [];
      // prompt=login (staff signing in again after handing the device to a patient, decision 0212) keeps it too.
      if (query.client_id === settings.identity.clientId && scope.includes('offline_access') && (query.prompt === undefined || query.prompt === 'login')) {
        ctx.query = { ...query, prompt: query.prompt === 'login' ? 'login consent' : 'consent' };
        // oidc-provider finds its mount path by locating the request URL inside originalUrl: keep them in step.
        (ctx.req as { originalUrl?: string }).originalUrl = `${MOUNT}${ctx.url}`;
      }
    }
    await next();
  });
  return provider;
}

/**
 * The grant of the first-party web client: the OpenID scopes it asks for and the API's scopes, without
 * a consent screen. Used when the provider loads a grant and when a consent step is asked for.
 */
export async function firstPartyGrant(
  provider: Provider,
  input: { accountId: string; clientId: string; grantId: string | undefined; audience: string },
): Promise<string> {
  let grant = input.grantId ? await provider.Grant.find(input.grantId) : undefined;
  if (grant && (grant.accountId !== input.accountId || grant.clientId !== input.clientId)) grant = undefined;
  grant ??= new provider.Grant({ clientId: input.clientId, accountId: input.accountId });
  grant.addOIDCScope(CLIENT_SCOPES);
  grant.addResourceScope(input.audience, API_SCOPES.join(' '));
  return grant.save();
}
