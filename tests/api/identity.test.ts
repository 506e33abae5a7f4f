import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../server/app.ts';
import { createIdentity, type Identity } from '../../server/identity/index.ts';
import { SIGN_IN_LIMITS, throttleSeconds } from '../../server/identity/accounts.ts';
import { freshAddress } from '../support/addresses.ts';
import { harness, type Harness } from '../support/harness.ts';
import { authorize, Browser, claims, formAction, pathOf, redeem, refresh, REDIRECT_URI, signInWithPassword, submitSignIn } from './identity-flow.ts';

const PASSWORD = 'demo-pass-1234';

describe('the built-in OpenID provider', () => {
  let h: Harness;
  let identity: Identity;
  let app: FastifyInstance;

  const api = (token: string, url: string, method: 'GET' | 'POST' = 'GET', payload?: object) =>
    app.inject({ method, url, payload, headers: { authorization: `Bearer ${token}`, 'x-api-key': 'test-api-key-1' } });
  const lastEmailTo = async (to: string) =>
    (await h.database.db.execute<{ subject: string | null; body: string; links: { url: string }[] }>(sql`select subject, body, links from outbox where recipient = ${to} order by id desc limit 1`)).rows[0];

  beforeAll(async () => {
    h = await harness();
    identity = await createIdentity(h.settings, h.database);
    app = await buildServer({ settings: h.settings, database: h.database, verifiers: identity.verifiers, identity });
    await app.ready();
  });

  it('publishes its discovery document on the app origin, with the issuer the web app uses as authority', async () => {
    const discovery = await app.inject({ method: 'GET', url: '/oidc/.well-known/openid-configuration', headers: { host: 'localhost:3000' } });
    expect(discovery.statusCode).toBe(200);
    const metadata = JSON.parse(discovery.body);
    expect(metadata.issuer).toBe(`${h.settings.publicUrl}/oidc`);
    expect(metadata.code_challenge_methods_supported).toEqual(['S256']);
    const jwks = JSON.parse((await app.inject({ method: 'GET', url: '/oidc/jwks' })).body);
    expect(jwks.keys.length).toBeGreaterThan(0);
    for (const key of jwks.keys) expect(key.d, 'only public keys are published').toBeUndefined();
    const config = JSON.parse((await app.inject({ method: 'GET', url: '/auth-config.json' })).body);
    expect(config).toMatchObject({ kind: 'builtin', authority: metadata.issuer, protocolMode: 'OIDC', scopes: ['api.read', 'api.write'], handOverPath: '/oidc/hand-over' });
  });

  it('shows a branded sign-in page with Email, Password, Sign in, a sign-up link and Forgot your password?', async () => {
    const browser = new Browser(app, freshAddress());
    const { response } = await authorize(browser);
    expect(response.statusCode).toBe(303);
    const page = await browser.follow(response);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.body).toMatch(/<label for="f-email">Email<\/label>/);
    expect(page.body).toMatch(/<label for="f-password">Password<\/label>/);
    expect(page.body).toContain('<button type="submit">Sign in</button>');
    expect(page.body).toContain('>Sign up</a>');
    expect(page.body).toContain('>Forgot your password?</a>');
    // localhost is the default brand's host (screens/brands/smile.json).
    expect(page.body).toContain('<title>Sign in · SmilePay Financing</title>');
    expect(page.body).toContain('© ' + new Date().getFullYear() + ' SmilePay Financing, Inc.');
    expect(page.body).toContain('href="https://smilefinancing.example/terms">Terms of Use</a>');
  });

  it('wears the brand the web app asks for (brand=…), else the brand of the host, and ignores an unknown brand', async () => {
    const titleOf = async (browser: Browser, extra: Record<string, string> = {}) => /<title>([^<]*)<\/title>/.exec((await browser.follow((await authorize(browser, extra)).response)).body)?.[1];
    expect(await titleOf(new Browser(app, freshAddress()), { brand: 'care' })).toBe('Sign in · CarePay Financing');
    expect(await titleOf(new Browser(app, freshAddress()), { brand: 'no-such-brand' })).toBe('Sign in · SmilePay Financing');
    const careHost = new Browser(app, freshAddress(), 'portal.carefinancing.example');
    expect(await titleOf(careHost)).toBe('Sign in · CarePay Financing');
    // The web app on a brand's own host signs in at PUBLIC_URL: the page wears the brand of the app's host (decision 0180).
    const careApp = new URL(h.settings.publicUrl);
    careApp.hostname = 'www.carefinancing.example';
    expect(await titleOf(new Browser(app, freshAddress()), { redirect_uri: careApp.href })).toBe('Sign in · CarePay Financing');
  });

  it('signs a demo account in with the authorization code flow and PKCE, and the API accepts its JWT access token', async () => {
    const browser = new Browser(app, freshAddress());
    const tokens = await signInWithPassword(browser, 'office.admin@demo.test', PASSWORD);
    const access = claims(tokens.access_token);
    expect(access).toMatchObject({ iss: `${h.settings.publicUrl}/oidc`, aud: h.settings.oidcAudience, scope: 'api.read api.write', scp: 'api.read api.write' });
    expect(access.sub).toBe(await h.userId('office.admin@demo.test'));
    const id = claims(tokens.id_token);
    expect(id).toMatchObject({ preferred_username: 'office.admin@demo.test', given_name: 'Olivia', family_name: 'Bennett' });
    expect(tokens.refresh_token).toBeTruthy();

    const info = await api(tokens.access_token, '/api/Users/GetUserInfo', 'POST', {});
    expect(info.statusCode, info.body).toBe(200);
    expect(JSON.parse(info.body)).toMatchObject({ email: 'office.admin@demo.test', isMultipleOffices: true });
    // The run-key tokens of the other tests are not this issuer's: refused.
    expect((await api(await h.staffToken('office.admin@demo.test'), '/api/Users/GetUserInfo', 'POST', {})).statusCode).toBe(401);
  });

  it('renews by refresh token, rotating it, and refuses a token without the API scope', async () => {
    const browser = new Browser(app, freshAddress());
    const tokens = await signInWithPassword(browser, 'office.support@demo.test', PASSWORD);
    const renewed = await refresh(browser, tokens.refresh_token!);
    expect(renewed.statusCode, renewed.body).toBe(200);
    const next = JSON.parse(renewed.body);
    expect(next.refresh_token).not.toBe(tokens.refresh_token);
    expect(claims(next.access_token)).toMatchObject({ scp: 'api.read api.write', aud: h.settings.oidcAudience });
    expect((await api(next.access_token, '/api/Users/GetUserInfo', 'POST', {})).statusCode).toBe(200);
    // Public clients rotate: the old refresh token is spent.
    expect((await refresh(browser, tokens.refresh_token!)).statusCode).toBe(400);
    // An ID token is not an access token for the API.
    expect((await api(tokens.id_token, '/api/Users/GetUserInfo', 'POST', {})).statusCode).toBe(401);
  });

  it('answers a wrong password with one message, whether or not the e-mail exists', async () => {
    const browser = new Browser(app, freshAddress());
    const page = await browser.follow((await authorize(browser)).response);
    const wrong = await browser.post(formAction(page.body), { email: 'sales@demo.test', password: 'not-the-password' });
    const unknown = await browser.post(formAction(page.body), { email: 'nobody-here@demo.test', password: 'not-the-password' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.body).toContain('The email or password is not correct.');
    expect(unknown.body).toContain('The email or password is not correct.');
  });

  it(`slows an account's failures from one address after ${SIGN_IN_LIMITS.pair}, waiting 1, 2, 4 … seconds, without checking the password meanwhile`, async () => {
    const email = 'dfi@demo.test';
    const ip = freshAddress();
    const attempt = (password: string) => submitSignIn(new Browser(app, ip), email, password);
    for (let i = 0; i < SIGN_IN_LIMITS.pair; i++) expect((await attempt(`wrong-password-${i}`)).body).toContain('The email or password is not correct.');
    const slowed = await attempt(PASSWORD);
    expect(slowed.statusCode).toBe(429);
    expect(slowed.headers['retry-after']).toBe('1');
    expect(slowed.body).toContain('Too many failed sign-ins. Wait 1 second and try again, or reset your password.');
    expect([5, 6, 7, 10, 30].map((failures) => throttleSeconds(failures, SIGN_IN_LIMITS.pair))).toEqual([1, 2, 4, 32, SIGN_IN_LIMITS.maxDelaySeconds]);
    // The wait runs from the last failure: once it is over, the right password signs in from that address too.
    await h.database.db.execute(sql`update security_events set created_at = created_at - interval '2 seconds' where kind = 'sign-in-failed' and actor = ${email}`);
    const failures = await h.database.db.execute<{ n: number }>(sql`select count(*)::int as n from security_events where kind = 'sign-in-failed' and actor = ${email}`);
    expect(Number(failures.rows[0]!.n)).toBe(SIGN_IN_LIMITS.pair);
    expect(String((await attempt(PASSWORD)).headers.location)).toContain(REDIRECT_URI);
  });

  it(`slows an address after ${SIGN_IN_LIMITS.address} failures across accounts, and only that address`, async () => {
    const ip = freshAddress();
    for (let i = 0; i < SIGN_IN_LIMITS.address; i++) {
      const browser = new Browser(app, ip);
      const page = await browser.follow((await authorize(browser)).response);
      await browser.post(formAction(page.body), { email: `spray-${i}@example.test`, password: 'password-guess-1' });
    }
    const browser = new Browser(app, ip);
    const page = await browser.follow((await authorize(browser)).response);
    expect((await browser.post(formAction(page.body), { email: 'tpa@demo.test', password: PASSWORD })).body).toContain('Too many failed sign-ins');
    // The same account from another address is fine.
    await expect(signInWithPassword(new Browser(app, freshAddress()), 'tpa@demo.test', PASSWORD)).resolves.toHaveProperty('access_token');
  });

  it('signs a new user up (12-character passwords) once they confirm their e-mail by its link; they then have no office to work in yet', async () => {
    const browser = new Browser(app, freshAddress());
    const authorization = await authorize(browser);
    const login = await browser.follow(authorization.response);
    const signUpUrl = /href="([^"]+\/signup)"/.exec(login.body)![1]!;
    const form = await browser.get(signUpUrl);
    expect(form.body).toContain('Create your account');
    const email = `signup-${Date.now()}@example.test`;
    const short = await browser.post(formAction(form.body), { firstName: 'Sky', lastName: 'Walker', email, password: 'short-pass', confirm: 'short-pass' });
    expect(short.statusCode).toBe(400);
    expect(short.body).toContain('at least 12 characters');
    const sent = await browser.post(formAction(form.body), { firstName: 'Sky', lastName: 'Walker', email, password: 'a-long-password-1', confirm: 'a-long-password-1' });
    expect(sent.body).toContain('Check your e-mail');
    const noAccountYet = await h.database.db.execute<{ n: number }>(sql`select count(*)::int as n from users where email = ${email}`);
    expect(Number(noAccountYet.rows[0]!.n), 'no account before the e-mail is confirmed').toBe(0);

    const message = await lastEmailTo(email);
    expect(message!.subject).toBe('Finish creating your SmilePay Financing account');
    const link = message!.links[0]!.url;
    expect(link).toMatch(/^https:\/\/localhost:3000\/oidc\/account\/confirm\?token=[\w-]+&brand=smile$/);
    // Opening the link (as a mail scanner would) makes nothing; its button does, once.
    const confirm = await browser.get(pathOf(link));
    expect(confirm.body).toContain(`Confirm that ${email} is your e-mail`);
    const token = new URL(link).searchParams.get('token')!;
    const made = await browser.post(formAction(confirm.body), { token, brand: 'smile' });
    expect(made.body).toContain('Your account is ready');
    expect((await browser.post(formAction(confirm.body), { token, brand: 'smile' })).body).toContain('This link has expired or was already used.');

    const tokens = await signInWithPassword(new Browser(app, freshAddress()), email, 'a-long-password-1');
    const info = JSON.parse((await api(tokens.access_token, '/api/Users/GetUserInfo', 'POST', {})).body);
    expect(info).toMatchObject({ email, firstName: 'Sky', officeId: null, isEnrollmentCompleted: false, role: 'admin', userRole: null });
    const stored = await h.database.db.execute<{ password_hash: string }>(sql`select password_hash from users where email = ${email}`);
    expect(stored.rows[0]!.password_hash).toMatch(/^\$scrypt\$/);
  });

  it('resets a password by an e-mailed, single-use link, and ends the sessions signed in with the old one', async () => {
    const email = 'sales@demo.test';
    const before = await signInWithPassword(new Browser(app, freshAddress()), email, PASSWORD);
    const browser = new Browser(app, freshAddress());
    const login = await browser.follow((await authorize(browser, { brand: 'care' })).response);
    const forgot = await browser.get(/href="([^"]+\/forgot)"/.exec(login.body)![1]!);
    const sent = await browser.post(formAction(forgot.body), { email });
    expect(sent.body).toContain('If an account exists');
    const message = await lastEmailTo(email);
    // Asked for on a page in the care brand: the e-mail and the page it opens wear that brand.
    expect(message!.subject).toBe('Reset your CarePay Financing password');
    const link = message!.links[0]!.url;
    expect(link).toMatch(/^https:\/\/localhost:3000\/oidc\/account\/reset\?token=[\w-]+&brand=care$/);
    const token = new URL(link).searchParams.get('token')!;
    const stored = await h.database.db.execute<{ n: number }>(sql`select count(*)::int as n from oidc_store where model = 'PasswordToken' and id = ${token}`);
    expect(Number(stored.rows[0]!.n), 'only the hash of the token is stored').toBe(0);

    const resetPage = await browser.get(pathOf(link));
    expect(resetPage.statusCode).toBe(200);
    expect(resetPage.body).toContain('<title>Choose a new password · CarePay Financing</title>');
    const newPassword = 'brand-new-password-7';
    const saved = await browser.post(formAction(resetPage.body), { token, brand: 'care', password: newPassword, confirm: newPassword });
    expect(saved.body).toContain('Your password was saved');
    expect(saved.body).toContain('CarePay Financing');
    expect((await browser.post(formAction(resetPage.body), { token, password: newPassword, confirm: newPassword })).body).toContain('This link has expired or was already used');

    // The refresh token of the earlier sign-in is dead; the new password works, the old one no longer.
    expect((await refresh(new Browser(app, freshAddress()), before.refresh_token!)).statusCode).toBe(400);
    await expect(signInWithPassword(new Browser(app, freshAddress()), email, PASSWORD)).rejects.toThrow(/sign-in failed/);
    await expect(signInWithPassword(new Browser(app, freshAddress()), email, newPassword)).resolves.toHaveProperty('access_token');
    // Put the demo password back for other tests.
    const { setPassword } = await import('../../server/identity/accounts.ts');
    await setPassword(h.database.db, await h.userId(email), PASSWORD);
  });

  it('signs out with the ID token hint, redirecting back to the app, and the refresh token dies with the session', async () => {
    const browser = new Browser(app, freshAddress());
    const tokens = await signInWithPassword(browser, 'tpa@demo.test', PASSWORD);
    const end = await browser.get(`/oidc/session/end?${new URLSearchParams({ id_token_hint: tokens.id_token, post_logout_redirect_uri: REDIRECT_URI, state: 'bye' })}`);
    expect(end.statusCode).toBe(200);
    expect(end.body).toContain('Signing out');
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(end.body)![1]!;
    const confirm = await browser.post('/oidc/session/end/confirm', { xsrf, logout: 'yes' });
    expect(confirm.statusCode).toBe(303);
    expect(String(confirm.headers.location)).toMatch(/^https:\/\/localhost:3000\/\?state=bye/);
    expect((await refresh(browser, tokens.refresh_token!)).statusCode).toBe(400);
    // A new authorization request asks for sign-in again.
    const again = await authorize(browser);
    expect(String(again.response.headers.location)).toContain('/oidc/interaction/');
  });

  it('ends the session of the browser handed to a patient, and only it; without the provider\'s cookie, every session of the member', async () => {
    const handOver = (browser: Browser, token?: string) =>
      browser.request({ method: 'POST', url: '/oidc/hand-over', headers: token ? { authorization: `Bearer ${token}` } : {} });
    // With a live provider session, an authorization request comes back with a code and shows no sign-in page.
    const signedInAgain = async (browser: Browser) => String((await browser.follow((await authorize(browser)).response)).headers.location ?? '').startsWith(REDIRECT_URI);
    const desk = new Browser(app, freshAddress());
    const elsewhere = new Browser(app, freshAddress());
    const tokens = await signInWithPassword(desk, 'office.support@demo.test', PASSWORD);
    const other = await signInWithPassword(elsewhere, 'office.support@demo.test', PASSWORD);
    expect(await signedInAgain(desk)).toBe(true);

    const refused = await handOver(desk);
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['content-type']).toContain('application/problem+json');
    expect(await signedInAgain(desk)).toBe(true);

    expect((await handOver(desk, tokens.access_token)).statusCode).toBe(204);
    // The desk's browser is asked to sign in, its refresh token is dead; the member's other browser is untouched.
    expect(await signedInAgain(desk)).toBe(false);
    expect((await refresh(desk, tokens.refresh_token!)).statusCode).toBe(400);
    expect(await signedInAgain(elsewhere)).toBe(true);

    // A brand's own host receives no provider cookie: every session of the member ends there.
    const brandHost = new Browser(app, freshAddress());
    expect((await handOver(brandHost, other.access_token)).statusCode).toBe(204);
    expect(await signedInAgain(elsewhere)).toBe(false);
  });

  it('refuses a disabled account at sign-in and at the API, whatever token it holds', async () => {
    const browser = new Browser(app, freshAddress());
    const email = `disabled-${Date.now()}@example.test`;
    const { createLocalUser } = await import('../../server/identity/accounts.ts');
    const { hashPassword } = await import('../../server/identity/password.ts');
    const user = await createLocalUser(h.database.db, { email, firstName: 'Dee', lastName: 'Abled', passwordHash: await hashPassword('a-long-password-9') });
    const tokens = await signInWithPassword(browser, email, 'a-long-password-9');
    await h.database.db.execute(sql`update users set is_disabled = true where id = ${user.id}`);
    expect((await api(tokens.access_token, '/api/Users/GetUserInfo', 'POST', {})).statusCode).toBe(401);
    await expect(signInWithPassword(new Browser(app, freshAddress()), email, 'a-long-password-9')).rejects.toThrow(/sign-in failed/);
    expect((await refresh(browser, tokens.refresh_token!)).statusCode).toBe(400);
  });

  it('keeps its signing keys and sessions in the database: a second instance accepts the first one\'s tokens', async () => {
    const tokens = await signInWithPassword(new Browser(app, freshAddress()), 'office.support@demo.test', PASSWORD);
    const other = await createIdentity(h.settings, h.database);
    const second = await buildServer({ settings: h.settings, database: h.database, verifiers: other.verifiers, identity: other });
    await second.ready();
    const answer = await second.inject({ method: 'POST', url: '/api/Users/GetUserInfo', payload: {}, headers: { authorization: `Bearer ${tokens.access_token}`, 'x-api-key': 'test-api-key-1' } });
    expect(answer.statusCode).toBe(200);
    expect((await refresh(new Browser(second, freshAddress()), tokens.refresh_token!)).statusCode).toBe(200);
    const stored = await h.database.db.execute<{ payload: { enc: string } }>(sql`select payload from oidc_store where model = 'ProviderKeys'`);
    expect(stored.rows).toHaveLength(1);
    expect(JSON.stringify(stored.rows[0]!.payload)).not.toContain('"kty"');
    await second.close();
  });

  it('lets an invited person choose their first password on the sign-up page the invitation opens', async () => {
    const admin = await h.staffToken('office.admin@demo.test');
    const email = `invited-${Date.now()}@example.test`;
    const invited = await h.call({ method: 'PUT', url: '/api/Users/UpsertUser', headers: { authorization: `Bearer ${admin}` }, key: true, payload: { officeId: 101, firstName: 'Ina', lastName: 'Vited', email, role: 'support' } });
    expect(invited.statusCode, invited.body).toBe(200);
    const inviteUrl = (await lastEmailTo(email))!.links[0]!.url;
    const token = inviteUrl.split('/').pop()!;
    const browser = new Browser(app, freshAddress());
    const authorization = await authorize(browser, { invite: token });
    const page = await browser.follow(authorization.response);
    const form = page.statusCode === 303 || page.statusCode === 302 ? await browser.follow(page) : page;
    expect(form.body).toContain('Choose your password');
    expect(form.body).toContain(`value="${email}" autocomplete="username" readonly`);
    const done = await browser.follow(await browser.post(formAction(form.body), { firstName: 'Ina', lastName: 'Vited', email: 'someone-else@example.test', password: 'invited-password-1', confirm: 'invited-password-1' }));
    const tokens = await redeem(browser, authorization, done);
    expect(claims(tokens.access_token).sub).toBe(await h.userId(email));
    const accepted = await api(tokens.access_token, '/api/Users/ProcessInvite', 'POST', { inviteId: token });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(JSON.parse(accepted.body)).toMatchObject({ officeId: 101, role: 'support', isInviteProcessed: true });
  });
});
