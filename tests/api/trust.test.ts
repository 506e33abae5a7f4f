import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { SignJWT } from 'jose';
import type { FastifyInstance } from 'fastify';
import { contactKey } from '../../server/domain/otp/challenge.ts';
import { OTP } from '../../server/domain/otp/handlers.ts';
import { DEMO } from './examples.ts';
import { propertiesNamedLikeAddresses, urlPlaces } from '../support/address-places.ts';
import { buildServer } from '../../server/app.ts';
import { createIdentity } from '../../server/identity/index.ts';
import { freshAddress, freshNetwork } from '../support/addresses.ts';
import { harness, type Harness } from '../support/harness.ts';
import { PLATFORM, PRODUCT_OWNER } from '../support/demo-accounts.ts';
import { authorize, Browser, formAction, REDIRECT_URI, signInWithPassword, submitSignIn } from './identity-flow.ts';
import { REQUEST_LIMITS, SIGN_IN_LIMITS } from '../../server/identity/accounts.ts';

/**
 * Issue 36, 'Nobody gets in sideways': each way in a probe of the running product found, tried again as the probe
 * tried it. Each test failed before its fix.
 */
const PASSWORD = 'demo-pass-1234';
let h: Harness;
let app: FastifyInstance;

beforeAll(async () => {
  h = await harness();
  const identity = await createIdentity(h.settings, h.database);
  app = await buildServer({ settings: h.settings, database: h.database, verifiers: identity.verifiers, identity });
  await app.ready();
});

afterAll(async () => {
  const back = await h.request(PRODUCT_OWNER, 'POST', '/api/Studio/Rollback', { id: 0, note: 'Back to the deployed files after the trust tests.' });
  expect([200, 409]).toContain(back.statusCode);
});

const liveFile = async (path: string) => {
  const all = JSON.parse((await h.request(PRODUCT_OWNER, 'GET', '/api/Studio/GetFiles')).body) as { files: Array<{ path: string; doc: Record<string, unknown> }> };
  return structuredClone(all.files.find((file) => file.path === path)!.doc);
};

describe("a brand's hosts never widen whom sign-in trusts (finding 1)", () => {
  /** A property named like an address that holds words, not a place to go: a postal address, a link's label. */
  const WORDS = new Set([
    'layouts.schema.json#/$defs/office/properties/address',
    'lender.schema.json#/properties/eligibility/properties/creditBureau/properties/address',
    'lender.schema.json#/properties/address',
    'routes.schema.json#/properties/notFound/properties/link',
    // The list of the footer's links; each link's href is a URL kind.
    'layouts.schema.json#/$defs/footer/properties/links',
  ]);
  const HOSTS = 'brand.schema.json#/properties/hosts';
  beforeEach(async () => {
    const deployed = await h.request(PRODUCT_OWNER, 'POST', '/api/Studio/Rollback', { id: 0, note: 'The deployed files, for the next trust test.' });
    expect([200, 409]).toContain(deployed.statusCode);
  });

  it('knows, from the meta-schemas, every place a published descriptor names a host or an address', () => {
    const urls = new Set(urlPlaces().map((place) => `${place.file}${place.pointer}`));
    const unknown = propertiesNamedLikeAddresses().filter((place) => place !== HOSTS && !urls.has(place) && !WORDS.has(place));
    // A new place (a lender's endpoint, say) must be a URL kind, or come from configuration like the sign-in hosts.
    expect(unknown).toEqual([]);
    expect(propertiesNamedLikeAddresses()).toContain(HOSTS);
  });

  it("leaves what the server trusts as it was when foreign hosts and addresses are published in every such place", async () => {
    const evil = new URL(h.settings.publicUrl);
    evil.hostname = 'evil.example';
    const sub = new URL(h.settings.publicUrl);
    sub.hostname = 'portal.evil.example';
    /** What the server trusts, as a browser finds it: sign-in's redirect and CORS per origin, and the web app's sign-in settings. */
    const trusted = async () => {
      const answers: Record<string, unknown> = { authConfig: JSON.parse((await app.inject({ method: 'GET', url: '/auth-config.json' })).body) };
      for (const origin of [evil.origin, sub.origin, h.settings.publicUrl]) {
        const browser = new Browser(app, freshAddress());
        const { response } = await authorize(browser, { redirect_uri: `${origin}/` });
        const cors = await app.inject({ method: 'OPTIONS', url: '/oidc/token', headers: { origin, 'access-control-request-method': 'POST' } });
        answers[origin] = { redirect: response.statusCode, cors: cors.headers['access-control-allow-origin'] ?? null };
      }
      return answers;
    };
    const before = await trusted();
    // Every place of each kind: the brands' hosts, their links, a page's link out, the footer's contact links.
    const draft: Record<string, Record<string, unknown>> = {};
    for (const path of ['brands/smile.json', 'brands/care.json']) {
      const brand = await liveFile(path);
      const footer = brand.footer as Record<string, unknown>;
      draft[path] = { ...brand, hosts: [...(brand.hosts as string[]), 'evil.example', '*.evil.example'], footer: { ...footer, termsUrl: `${evil.origin}/terms`, privacyUrl: `${evil.origin}/privacy`, homeUrl: `${evil.origin}/` } };
    }
    draft['pages/error.json'] = { ...(await liveFile('pages/error.json')), buttons: [{ id: 'away', label: 'Away', actions: [{ type: 'navigate', to: { href: `${evil.origin}/away` } }] }] };
    const published = await h.request(PRODUCT_OWNER, 'POST', '/api/Studio/Publish', { files: draft, note: 'Foreign places everywhere', publishOutOfDate: true });
    expect(published.statusCode, published.body).toBe(200);
    expect(await trusted()).toEqual(before);
    expect(before[evil.origin]).toEqual({ redirect: 400, cors: null });
  });

  it("a product owner's published host neither receives a platform admin's code nor passes CORS", async () => {
    const care = await liveFile('brands/care.json');
    const draft = { 'brands/care.json': { ...care, hosts: [...(care.hosts as string[]), 'evil.example'] } };
    // The studio says before publishing that the new host is not one staff may sign in on.
    const check = JSON.parse((await h.request(PRODUCT_OWNER, 'POST', '/api/Studio/CheckDraft', { files: draft })).body);
    expect(check).toEqual({ errors: [], notices: [expect.stringMatching(/^screens\/brands\/care\.json#\/hosts\/2: .*'evil\.example'.*platform operator approves/)], languages: [expect.objectContaining({ locale: 'es', name: 'Español', outOfDate: [] })] });
    const published = await h.request(PRODUCT_OWNER, 'POST', '/api/Studio/Publish', { files: draft, note: 'A host of our own, we say' });
    expect(published.statusCode, published.body).toBe(200);

    const evil = new URL(h.settings.publicUrl);
    evil.hostname = 'evil.example';
    const browser = new Browser(app, freshAddress());
    await signInWithPassword(browser, PLATFORM, PASSWORD);
    // Signed in at the provider: a request naming the published host must not come back there with a code.
    const { response } = await authorize(browser, { redirect_uri: evil.href });
    expect(String(response.headers.location ?? '')).not.toContain('evil.example');
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('Staff sign-in is not open on that address.');

    const preflight = await app.inject({ method: 'OPTIONS', url: '/oidc/token', headers: { origin: evil.origin, 'access-control-request-method': 'POST' } });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    const token = await app.inject({ method: 'POST', url: '/oidc/token', headers: { origin: evil.origin, 'content-type': 'application/x-www-form-urlencoded' }, payload: 'grant_type=authorization_code&code=x&client_id=pos-portal-web' });
    expect(token.headers['access-control-allow-origin']).toBeUndefined();
    // The deployed brand's own host, which the operator approved, still signs staff in.
    const care443 = new URL(h.settings.publicUrl);
    care443.hostname = 'www.carefinancing.example';
    const fine = await app.inject({ method: 'OPTIONS', url: '/oidc/token', headers: { origin: care443.origin, 'access-control-request-method': 'POST' } });
    expect(fine.headers['access-control-allow-origin']).toBe(care443.origin);
  });

  it('refuses host patterns that would cover many owners, at publish', async () => {
    const care = await liveFile('brands/care.json');
    for (const host of ['*.*', '*', '*.example', '*.co.uk', 'co.uk', '*.github.io', 'evil*.example', 'a.*.example']) {
      const answer = await h.request(PRODUCT_OWNER, 'POST', '/api/Studio/Publish', { files: { 'brands/care.json': { ...care, hosts: [host] } }, note: 'Everyone' });
      expect(answer.statusCode, host).toBe(400);
      expect(answer.headers['content-type']).toContain('application/problem+json');
      expect(answer.body).toContain('brands/care.json#/hosts/0');
    }
  });
});

describe("the landing page's passcode tells nobody who is a patient (finding 2)", () => {
  const count = async (query: ReturnType<typeof sql>) => Number((await h.database.db.execute<{ n: number }>(query)).rows[0]!.n);

  it('answers and limits a contact with an application as one without, and texts the patient at most the limit an hour', async () => {
    const known = (await h.database.db.execute<{ mobile_phone: string }>(sql`select mobile_phone from applications where office_id = ${DEMO.brightSmiles} and mobile_phone is not null order by id limit 1`)).rows[0]!.mobile_phone;
    const unknown = '(555) 010-7734';
    expect(await count(sql`select count(*)::int as n from applications where mobile_phone = ${unknown}`)).toBe(0);
    /** What the office's landing page gets, request after request, for one contact: statuses and problem titles. */
    const answers = async (phone: string) => {
      const seen: string[] = [];
      const age = () => h.database.db.execute(sql`update security_events set created_at = created_at - interval '61 seconds' where actor = ${`contact:${contactKey(h.settings.borrowerTokenSecret, { officeId: DEMO.brightSmiles, channel: 'Sms', destination: phone })}`}`);
      for (let i = 0; i < OTP.sendsPerContactPerHour + 1; i++) {
        for (const _again of [0, 1]) {
          const answer = await h.call({ method: 'POST', url: '/api/Otp/SendOtp', payload: { officeId: DEMO.brightSmiles, channel: 'Sms', mobilePhone: phone }, remoteAddress: freshAddress() });
          const body = JSON.parse(answer.body);
          seen.push(`${answer.statusCode} ${body.detail ?? Object.keys(body).sort().join()}`);
        }
        await age();
      }
      return seen;
    };
    const texts = () => count(sql`select count(*)::int as n from outbox where recipient = ${known}`);
    const before = await texts();
    const forKnown = await answers(known);
    expect(forKnown).toEqual(await answers(unknown));
    expect(forKnown.filter((line) => line.startsWith('200'))).toHaveLength(OTP.sendsPerContactPerHour);
    expect(forKnown.at(-1)).toBe('429 Too many passcodes were requested for this contact. Try again later.');
    expect((await texts()) - before).toBe(OTP.sendsPerContactPerHour);
  });

  it('refuses a phone that opted out of texts alike, whether or not it has an application', async () => {
    const phones = (await h.database.db.execute<{ mobile_phone: string }>(sql`select mobile_phone from applications where office_id = ${DEMO.brightSmiles} and mobile_phone is not null order by id desc limit 1`)).rows.map((row) => row.mobile_phone);
    phones.push('(555) 010-7735');
    const answers = [];
    for (const phone of phones) {
      await h.database.db.execute(sql`insert into sms_opt_outs (phone) values (${phone.replace(/\D/g, '')}) on conflict do nothing`);
      const answer = await h.call({ method: 'POST', url: '/api/Otp/SendOtp', payload: { officeId: DEMO.brightSmiles, channel: 'Sms', mobilePhone: phone }, remoteAddress: freshAddress() });
      answers.push(`${answer.statusCode} ${JSON.parse(answer.body).detail}`);
      await h.database.db.execute(sql`delete from sms_opt_outs where phone = ${phone.replace(/\D/g, '')}`);
    }
    expect(answers[0]).toMatch(/^409 /);
    expect(answers[1]).toBe(answers[0]);
  });
});

describe('nobody can lock staff out (finding 3)', () => {
  const signedIn = (answer: { headers: Record<string, unknown> }) => String(answer.headers.location ?? '').startsWith(REDIRECT_URI);

  it("lets the right password in from the owner's own browser and from elsewhere while a prober fails, and tells the owner once", async () => {
    const email = PLATFORM;
    const own = new Browser(app, freshAddress());
    await signInWithPassword(own, email, PASSWORD);
    const prober = freshAddress();
    for (let i = 0; i < SIGN_IN_LIMITS.pair + 2; i++) await submitSignIn(new Browser(app, prober), email, `guess-number-${i}`);
    expect(signedIn(await submitSignIn(new Browser(app, prober), email, PASSWORD)), 'the prober waits').toBe(false);
    expect(signedIn(await submitSignIn(new Browser(app, own.ip, own.host).withCookies(own), email, PASSWORD)), "the owner's browser").toBe(true);
    expect(signedIn(await submitSignIn(new Browser(app, freshAddress()), email, PASSWORD)), 'another address').toBe(true);
    const told = await h.database.db.execute<{ n: number }>(sql`select count(*)::int as n from outbox where recipient = ${email} and subject like 'Failed sign-ins to your %'`);
    expect(Number(told.rows[0]!.n)).toBe(1);
  });

  it('makes a prober that guesses from a new address of its IPv6 /64 each time wait as one address', async () => {
    const email = PRODUCT_OWNER;
    const host = freshNetwork();
    for (let i = 0; i < SIGN_IN_LIMITS.pair + 2; i++) await submitSignIn(new Browser(app, host(i + 1)), email, `guess-number-${i}`);
    expect(signedIn(await submitSignIn(new Browser(app, host(0xbeef)), email, PASSWORD)), 'the prober waits').toBe(false);
    expect(signedIn(await submitSignIn(new Browser(app, freshNetwork()(1)), email, PASSWORD)), 'another network').toBe(true);
  });

  it(`keeps the owner's browser signing in after ${SIGN_IN_LIMITS.account} failures from many addresses, which slow every other browser`, async () => {
    const email = 'sales@demo.test';
    const own = new Browser(app, freshAddress());
    await signInWithPassword(own, email, PASSWORD);
    await h.database.db.execute(sql`
      insert into security_events (kind, actor, detail, ip)
      select 'sign-in-failed', ${email}, '{}'::jsonb, '10.9.' || (n / 250) || '.' || (n % 250) from generate_series(1, ${SIGN_IN_LIMITS.account}) n`);
    expect(signedIn(await submitSignIn(new Browser(app, freshAddress()), email, PASSWORD)), 'a browser never used').toBe(false);
    expect(signedIn(await submitSignIn(new Browser(app, freshAddress(), own.host).withCookies(own), email, PASSWORD)), "the owner's browser, elsewhere").toBe(true);
  });
});

describe('sign-up tells nobody whether an e-mail has an account (finding 4)', () => {
  /** The sign-up page's answer to a filled form, from a browser at `ip`. */
  const signUp = async (email: string, ip = freshAddress()) => {
    const browser = new Browser(app, ip);
    const login = await browser.follow((await authorize(browser)).response);
    const form = await browser.get(/href="([^"]+\/signup)"/.exec(login.body)![1]!);
    return browser.post(formAction(form.body), { firstName: 'Probe', lastName: 'Person', email, password: 'a-long-password-5', confirm: 'a-long-password-5' });
  };
  const subjectTo = async (email: string) => (await h.database.db.execute<{ subject: string }>(sql`select subject from outbox where recipient = ${email} order by id desc limit 1`)).rows[0]?.subject;

  it("answers alike for an account's e-mail and a new one; only the mailbox learns which", async () => {
    const existing = 'tpa@demo.test';
    const fresh = `nobody-${Date.now()}@example.test`;
    const [taken, free] = [await signUp(existing), await signUp(fresh)];
    expect(taken.statusCode).toBe(free.statusCode);
    // Each sign-up page is its own interaction, with its own id in its links.
    const alike = (body: string, email: string) => body.replaceAll(email, '@').replace(/\/oidc\/interaction\/[\w-]+/g, '/oidc/interaction/…');
    expect(alike(taken.body, existing)).toBe(alike(free.body, fresh));
    expect(await subjectTo(existing)).toBe('You already have a SmilePay Financing account');
    expect(await subjectTo(fresh)).toBe('Finish creating your SmilePay Financing account');
  });

  it(`counts every sign-up from an address (an IPv6 one by its /64), taken e-mail or not: ${REQUEST_LIMITS.signUpsPerAddress} an hour`, async () => {
    const ip = freshAddress();
    for (let i = 0; i < REQUEST_LIMITS.signUpsPerAddress; i++) expect((await signUp(i % 2 ? 'sales@demo.test' : `spray-${i}-${Date.now()}@example.test`, ip)).body).toContain('Check your e-mail');
    expect((await signUp('office.support@demo.test', ip)).body).toContain('Too many new accounts from this address. Try again later.');
    expect((await signUp(`another-${Date.now()}@example.test`, ip)).body).toContain('Too many new accounts from this address. Try again later.');
    // A new address of the same /64 for each try changes nothing.
    const host = freshNetwork();
    for (let i = 0; i < REQUEST_LIMITS.signUpsPerAddress; i++) expect((await signUp(`spray-v6-${i}-${Date.now()}@example.test`, host(i + 1))).body).toContain('Check your e-mail');
    expect((await signUp(`another-v6-${Date.now()}@example.test`, host(0xbeef))).body).toContain('Too many new accounts from this address. Try again later.');
  });
});

describe("the demo outbox page's reply form is its own (finding 8)", () => {
  it('refuses a reply another site sends, and takes one from the page itself', async () => {
    const phone = '(555) 010-7736';
    const reply = (headers: Record<string, string>) =>
      h.call({ method: 'POST', url: '/dev/outbox/sms', key: false, payload: `from=${encodeURIComponent(phone)}&text=STOP`, headers: { 'content-type': 'application/x-www-form-urlencoded', host: 'localhost:3000', ...headers } });
    const optedOut = async () => Number((await h.database.db.execute<{ n: number }>(sql`select count(*)::int as n from sms_opt_outs where phone = ${phone.replace(/\D/g, '')}`)).rows[0]!.n);
    for (const headers of [{ origin: 'https://evil.example' }, { 'sec-fetch-site': 'cross-site' }, { origin: 'null' }] as Record<string, string>[]) {
      const refused = await reply(headers);
      expect(refused.statusCode, JSON.stringify(headers)).toBe(403);
      expect(refused.headers['content-type']).toContain('application/problem+json');
    }
    expect(await optedOut()).toBe(0);
    expect((await reply({ origin: 'http://localhost:3000', 'sec-fetch-site': 'same-origin' })).statusCode).toBe(200);
    expect(await optedOut()).toBe(1);
  });
});

describe('a borrower token is good for a borrower session at most (finding 9)', () => {
  it('refuses a token signed with the right key whose expiry lies years out, or that names no issue time', async () => {
    const appId = Number((await h.database.db.execute<{ id: number }>(sql`select min(id) as id from applications where office_id = ${DEMO.brightSmiles}`)).rows[0]!.id);
    const sign = (claims: { iat?: number; exp: number }) => {
      const jwt = new SignJWT({ app: appId }).setProtectedHeader({ alg: 'HS256' }).setIssuer('pos-portal').setAudience('borrower').setExpirationTime(claims.exp);
      return (claims.iat === undefined ? jwt : jwt.setIssuedAt(claims.iat)).sign(h.settings.borrowerTokenSecret);
    };
    const now = Math.floor(Date.now() / 1000);
    const read = async (token: string) => (await h.call({ method: 'GET', url: `/api/App/GetApp/${appId}/false`, headers: { 'x-borrower-token': token } })).statusCode;
    expect(await read(await sign({ iat: now, exp: now + 600 })), 'a token of the session').toBe(200);
    expect(await read(await sign({ iat: now, exp: now + 10 * 365 * 86_400 })), 'ten years').toBe(401);
    expect(await read(await sign({ exp: now + 600 })), 'no issue time').toBe(401);
    expect(await read(await sign({ iat: now - 3600, exp: now + 600 })), 'issued an hour ago').toBe(401);
  });
});
