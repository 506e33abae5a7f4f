import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { decodeJwt } from 'jose';
import { freshAddress } from '../support/addresses.ts';

/**
 * A browser-like client of the built-in provider over fastify's inject: a cookie jar, manual
 * redirects, and the authorization-code + PKCE flow exactly as MSAL runs it (response_mode=query,
 * openid profile email offline_access api.read api.write, no resource parameter).
 */
export const CLIENT_ID = 'pos-portal-web';
export const REDIRECT_URI = 'https://localhost:3000/';
export const SCOPES = 'openid profile email offline_access api.read api.write';

export interface Tokens {
  access_token: string;
  id_token: string;
  refresh_token?: string;
  scope: string;
  expires_in: number;
}

export class Browser {
  readonly cookies = new Map<string, string>();

  constructor(
    private readonly app: FastifyInstance,
    /** The client address the server sees (sign-in limits count per address): by default one no other request used. */
    readonly ip = freshAddress(),
    /** The Host the browser sends (brands are chosen by host name). */
    readonly host = 'localhost:3000',
  ) {}

  async request(options: InjectOptions & { url: string }): Promise<LightMyRequestResponse> {
    const response = await this.app.inject({
      ...options,
      remoteAddress: this.ip,
      headers: { host: this.host, ...(this.cookies.size ? { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } : {}), ...options.headers },
    });
    const setCookie = response.headers['set-cookie'];
    for (const line of Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : []) {
      const [pair = '', ...attributes] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1);
      const expired = attributes.some((a) => /expires=thu, 01 jan 1970/i.test(a.trim()));
      if (!value || expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }

  /** This browser with another's cookies: the same browser again, on a new sign-in (the provider's session left out). */
  withCookies(other: Browser): this {
    for (const [name, value] of other.cookies) if (!name.startsWith('pos_session') && !name.startsWith('pos_interaction')) this.cookies.set(name, value);
    return this;
  }

  get(url: string): Promise<LightMyRequestResponse> {
    return this.request({ method: 'GET', url: pathOf(url) });
  }

  post(url: string, form: Record<string, string>): Promise<LightMyRequestResponse> {
    return this.request({ method: 'POST', url: pathOf(url), headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(form).toString() });
  }

  /** Follows redirects on the provider until one leaves it (to the app's redirect URI) or a page is shown. */
  async follow(response: LightMyRequestResponse): Promise<LightMyRequestResponse> {
    let current = response;
    for (let hop = 0; hop < 10 && current.statusCode >= 300 && current.statusCode < 400; hop++) {
      const location = String(current.headers.location);
      if (location.startsWith(REDIRECT_URI)) return current;
      current = await this.get(location);
    }
    return current;
  }
}

export const pathOf = (url: string): string => (url.startsWith('/') ? url : `${new URL(url).pathname}${new URL(url).search}`);

export interface Authorization {
  verifier: string;
  state: string;
  nonce: string;
  /** The first response of the provider: a redirect to its sign-in page (or straight back, with a session). */
  response: LightMyRequestResponse;
}

export async function authorize(browser: Browser, extra: Record<string, string> = {}): Promise<Authorization> {
  const verifier = randomBytes(32).toString('base64url');
  const state = randomBytes(8).toString('hex');
  const nonce = randomBytes(8).toString('hex');
  const query = new URLSearchParams({
    client_id: CLIENT_ID,
    redirect_uri: REDIRECT_URI,
    response_type: 'code',
    response_mode: 'query',
    scope: SCOPES,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    state,
    nonce,
    ...extra,
  });
  const response = await browser.get(`/oidc/auth?${query}`);
  return { verifier, state, nonce, response };
}

/** The sign-in page's form target, read from the page. */
export function formAction(html: string): string {
  const match = /<form method="post" action="([^"]+)"/.exec(html);
  if (!match) throw new Error(`no form in page: ${html.slice(0, 300)}`);
  return match[1]!.replace(/&#47;/g, '/');
}

export async function redeem(browser: Browser, authorization: Authorization, redirect: LightMyRequestResponse): Promise<Tokens> {
  const location = new URL(String(redirect.headers.location));
  const code = location.searchParams.get('code');
  if (!code) throw new Error(`no code in ${location.href}`);
  if (location.searchParams.get('state') !== authorization.state) throw new Error('state mismatch');
  const response = await browser.request({
    method: 'POST',
    url: '/oidc/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, client_id: CLIENT_ID, code_verifier: authorization.verifier }).toString(),
  });
  if (response.statusCode !== 200) throw new Error(`token endpoint: ${response.statusCode} ${response.body}`);
  return JSON.parse(response.body) as Tokens;
}

export async function refresh(browser: Browser, refreshToken: string): Promise<LightMyRequestResponse> {
  return browser.request({
    method: 'POST',
    url: '/oidc/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    // As MSAL sends it: the API scopes plus its default OpenID scopes, offline_access included.
    payload: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: CLIENT_ID, scope: `api.read api.write ${'openid profile email offline_access'}` }).toString(),
  });
}

/** A sign-in on the provider's page, as far as its answer to the form (followed while it redirects within it). */
export async function submitSignIn(browser: Browser, email: string, password: string): Promise<LightMyRequestResponse> {
  const page = await browser.follow((await authorize(browser)).response);
  return browser.follow(await browser.post(formAction(page.body), { email, password }));
}

/** Signs in through the provider's pages and redeems the code: what MSAL's loginRedirect does. */
export async function signInWithPassword(browser: Browser, email: string, password: string): Promise<Tokens> {
  const authorization = await authorize(browser);
  const page = await browser.follow(authorization.response);
  if (page.statusCode !== 200) throw new Error(`sign-in page: ${page.statusCode}`);
  const done = await browser.follow(await browser.post(formAction(page.body), { email, password }));
  if (!String(done.headers.location ?? '').startsWith(REDIRECT_URI)) throw new Error(`sign-in failed: ${done.statusCode} ${done.body.slice(0, 500)}`);
  return redeem(browser, authorization, done);
}

export const claims = (jwt: string) => decodeJwt(jwt);
