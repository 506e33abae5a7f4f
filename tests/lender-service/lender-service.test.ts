import { createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyRequest } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../lender-service/config.ts';
import { startLenderService, type LenderService } from '../../lender-service/app.ts';
import { loadLenderFiles } from '../../core/lenders/descriptor.ts';
import type { Applicant, PrequalAnswer } from '../../core/lenders/terms.ts';
import { sandboxAdapter } from '../../server/lenders/sandbox.ts';
import { verifyCallback } from '../../server/domain/journey/lender-calls.ts';
import { loadCertificate } from '../../server/identity/certificate.ts';
import type { Services } from '../../server/services.ts';
import { startReceiver, type Receiver } from '../support/receiver.ts';

/**
 * The lender service (decision 0259) on a free port of 127.0.0.1, spoken to over HTTP as the portal will: each API
 * style, the faults, and decisions equal to the in-process sandbox's for the same applicant.
 */

const secrets = {
  LENDER_CALLBACK_SECRET: randomBytes(32).toString('base64'),
  LENDER_SERVICE_CLIENT_SECRET: randomBytes(16).toString('hex'),
  LENDER_SERVICE_API_KEY: randomBytes(16).toString('hex'),
};
const env = { ...secrets, LENDER_SERVICE_PORT: '0', LENDER_SERVICE_CALLBACK_DELAY_MS: '30', LENDER_SERVICE_RETRY_BASE_MS: '30', LENDER_SERVICE_RETRY_ATTEMPTS: '4' };
const config = loadConfig(env);
const descriptors = loadLenderFiles(config.lendersDir);
/** The in-process sandbox, without its simulated latency. */
const inProcess = new Map(descriptors.map((d) => [d.code, sandboxAdapter({ ...d, sandbox: { ...d.sandbox, latencyMs: 0 } }, null)]));

/** The portal's own check of a callback (App_ProcessLenderCallback), with the portal holding the same secret. */
const portal = { settings: { lendersDir: config.lendersDir, mode: 'demo', publicUrl: 'https://portal.test', lenderCallbackSecret: Buffer.from(secrets.LENDER_CALLBACK_SECRET, 'base64') } } as unknown as Services;
function portalAccepts(post: Receiver['received'][number], code: string): boolean {
  try {
    verifyCallback(portal, { headers: post.headers, rawBody: Buffer.from(post.body) } as unknown as FastifyRequest, code);
    return true;
  } catch {
    return false;
  }
}

let service: LenderService;
let receiver: Receiver;
/** Each lender's style, as the service says. */
let styles: Record<string, string>;
beforeAll(async () => {
  [service, receiver] = await Promise.all([startLenderService(config), startReceiver()]);
  styles = ((await (await fetch(`${service.origin}/health`)).json()) as { lenders: Record<string, string> }).lenders;
});
afterAll(async () => {
  await Promise.all([service?.close(), receiver?.close()]);
});
afterEach(async () => {
  await fetch(`${service.origin}/admin/faults`, { method: 'DELETE' });
  receiver.received.length = 0;
  receiver.failures = 0;
});

const wireApplicant = (lastName: string, annualIncome: number) => ({
  firstName: 'Pat', lastName, email: 'pat@gmail.com', mobilePhone: '(512) 555-0100', homePhone: null,
  address: { streetAddress: '1234 Cedar Ln', suiteNo: null, city: 'Austin', state: 'TX', zipCode: '78704' },
  dob: '1985-04-12', ssn: '900123456', annualIncome, additionalIncome: null, monthlyHousingPayment: 1_200_00,
  employmentStatus: 'EmployedFull', employerName: null, monthsEmployed: null, residenceStatus: 'Rent', isActiveMilitary: false, serviceDate: null,
});

async function token(code: string, secret = secrets.LENDER_SERVICE_CLIENT_SECRET): Promise<Response> {
  return fetch(`${service.origin}/oauth/token`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${code}:${secret}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials',
  });
}

const tokens = new Map<string, string>();
/** The credentials of a lender's style: a bearer token, or (async-callback) the API key. */
async function credentials(code: string): Promise<Record<string, string>> {
  if (styles[code] === 'async-callback') return { 'x-api-key': secrets.LENDER_SERVICE_API_KEY };
  if (!tokens.has(code)) tokens.set(code, ((await (await token(code)).json()) as { access_token: string }).access_token);
  return { authorization: `Bearer ${tokens.get(code)}` };
}

async function call(code: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${service.origin}/lenders/${code}/applications${path}`, {
    method,
    headers: { ...(await credentials(code)), ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

type View = { applicationId: string; status: string; approvedAmount: number | null; reason: string | null; reasonCodes: string[]; creditScore: unknown; offers: Array<{ url: string | null; productCode: string; amount: number }>; contract: { contractId: string; status: string } | null };

const prequalify = (code: string, lastName: string, income: number, amount: number, extra: Record<string, unknown> = {}) =>
  call(code, 'POST', '', { appId: 42, amount, applicant: wireApplicant(lastName, income), ...extra });

/** What both must agree on: everything but the ids, links and expiry instant of one answer. */
function decisionOf(answer: { status: string; approvedAmount: number | null; reasonCodes: string[]; creditScore?: unknown; offers: Array<{ url: unknown }> }, reason: string | null) {
  const offers = answer.offers.map(({ url: _url, ...terms }) => terms);
  return { status: answer.status, approvedAmount: answer.approvedAmount, reason, reasonCodes: answer.reasonCodes, creditScore: answer.creditScore ?? null, offers };
}

async function inProcessDecision(code: string, lastName: string, income: number, amount: number): Promise<ReturnType<typeof decisionOf>> {
  const wire = wireApplicant(lastName, income);
  const applicant: Applicant = { ...wire, appId: 42, amount };
  const answer: PrequalAnswer = await inProcess.get(code)!.prequalify(applicant, { signal: new AbortController().signal, discountRate: null, deadline: Date.now() + 10_000 });
  return decisionOf(answer, answer.adverseActionReason);
}

const CASES = [
  { name: "the last name 'Decline' declines, with the score used", lastName: 'Decline', income: 60_000_00, amount: 4_500_00, status: 'Declined', scored: true, offered: false },
  { name: "the last name 'Pending' goes to review", lastName: 'Pending', income: 60_000_00, amount: 4_500_00, status: 'PendingReview', scored: false, offered: false },
  { name: 'an income of 60,000 asking 4,500 is approved with offers', lastName: 'Smith', income: 60_000_00, amount: 4_500_00, status: 'Approved', scored: false, offered: true },
];

/** The answer is the case's, so that equal answers are equal in what matters. */
function expectCase(view: View, c: (typeof CASES)[number], code: string): void {
  expect(view.status, code).toBe(c.status);
  expect(view.creditScore !== null, code).toBe(c.scored);
  expect(view.offers.length > 0, code).toBe(c.offered);
}

describe('json-oauth: synchronous JSON behind OAuth 2.0 client credentials', () => {
  it('issues expiring bearer tokens to a lender client with the secret, and refuses calls without one', async () => {
    const issued = await token('ally');
    expect(issued.status).toBe(200);
    expect(await issued.json()).toMatchObject({ token_type: 'Bearer', expires_in: 3600, access_token: expect.any(String) });
    expect((await token('ally', 'wrong-secret')).status).toBe(401);
    // An async-callback lender has no OAuth client.
    expect((await token('cleargage')).status).toBe(401);
    const anonymous = await fetch(`${service.origin}/lenders/ally/applications/ALLY-X`);
    expect(anonymous.status).toBe(401);
    // One lender's token opens no other lender.
    const other = await fetch(`${service.origin}/lenders/gsky/applications/GSKY-X`, { headers: await credentials('ally') });
    expect(other.status).toBe(401);
  });

  it('refuses a token once it expired', async () => {
    const shortLived = await startLenderService(loadConfig({ ...env, LENDER_SERVICE_TOKEN_TTL_SECONDS: '1' }));
    try {
      const form = { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `grant_type=client_credentials&client_id=ally&client_secret=${secrets.LENDER_SERVICE_CLIENT_SECRET}` };
      const { access_token } = (await (await fetch(`${shortLived.origin}/oauth/token`, form)).json()) as { access_token: string };
      const status = () => fetch(`${shortLived.origin}/lenders/ally/applications/ALLY-X`, { headers: { authorization: `Bearer ${access_token}` } }).then((r) => r.status);
      expect(await status()).toBe(404);
      await new Promise((resolve) => setTimeout(resolve, 1100));
      expect(await status()).toBe(401);
    } finally {
      await shortLived.close();
    }
  });

  for (const c of CASES) {
    it(`decides as the in-process sandbox: ${c.name}`, async () => {
      for (const code of ['ally', 'gsky']) {
        const response = await prequalify(code, c.lastName, c.income, c.amount);
        expect(response.status, code).toBe(200);
        const view = (await response.json()) as View;
        expectCase(view, c, code);
        expect(decisionOf(view, view.reason), code).toEqual(await inProcessDecision(code, c.lastName, c.income, c.amount));
      }
    });
  }

  it('selects an offer, signs on the platform, finalizes, funds once per Idempotency-Key and refunds within the funding', async () => {
    const view = (await (await prequalify('ally', 'Smith', 60_000_00, 4_500_00)).json()) as View;
    const id = `/${view.applicationId}`;
    const product = view.offers[1]!.productCode;
    expect((await call('ally', 'POST', `${id}/finalize`)).status).toBe(409);
    const selected = (await (await call('ally', 'POST', `${id}/selection`, { productCode: product, amount: 4_000_00 })).json()) as View & { contract: { terms: { amount: number } } };
    expect(selected.contract).toMatchObject({ status: 'Selected', terms: { amount: 4_000_00 } });
    expect((await call('ally', 'POST', `${id}/selection`, { productCode: product, amount: 99_000_00 })).status).toBe(422);
    expect(await (await call('ally', 'POST', `${id}/signing`, {})).json()).toMatchObject({ hostedBy: 'platform', signingUrl: null, documents: expect.arrayContaining([expect.objectContaining({ title: expect.any(String) })]) });
    expect(((await (await call('ally', 'POST', `${id}/finalize`)).json()) as View).contract!.status).toBe('Finalized');
    expect((await call('ally', 'POST', `${id}/fundings`, { amount: 4_000_00 })).status).toBe(400);
    const fund = () => call('ally', 'POST', `${id}/fundings`, { amount: 4_000_00 }, { 'idempotency-key': 'fund-key-1' }).then((r) => r.json());
    const [first, again] = [await fund(), await fund()];
    expect(again).toEqual(first);
    expect(first).toMatchObject({ amount: 4_000_00, fundedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/) });
    expect((await call('ally', 'POST', `${id}/fundings`, { amount: 4_000_00 }, { 'idempotency-key': 'fund-key-2' })).status).toBe(409);
    expect((await call('ally', 'POST', `${id}/refunds`, { amount: 1_000_00 }, { 'idempotency-key': 'refund-key-1' })).status).toBe(200);
    expect((await call('ally', 'POST', `${id}/refunds`, { amount: 3_500_00 }, { 'idempotency-key': 'refund-key-2' })).status).toBe(422);
    const status = (await (await call('ally', 'GET', id)).json()) as View & { contract: { status: string; refunds: unknown[] } };
    expect(status.contract).toMatchObject({ status: 'Funded', refunds: [expect.objectContaining({ amount: 1_000_00 })] });
  });

  it('asks identity questions without their answers and checks the answers', async () => {
    const view = (await (await prequalify('gsky', 'Smith', 60_000_00, 4_500_00)).json()) as View;
    const { questions } = (await (await call('gsky', 'GET', `/${view.applicationId}/identity-questions`)).json()) as { questions: Array<{ id: string; choices: Array<{ id: string; text: string }> }> };
    expect(questions.length).toBeGreaterThan(0);
    expect(JSON.stringify(questions)).not.toContain('answerId');
    const truths = ['Cedar Ln', 'Austin', '1985', '78704'];
    const right = Object.fromEntries(questions.map((q) => [q.id, q.choices.find((choice) => truths.includes(choice.text))!.id]));
    const wrong = Object.fromEntries(questions.map((q) => [q.id, q.choices.find((choice) => !truths.includes(choice.text))!.id]));
    const check = (answers: Record<string, string>) => call('gsky', 'POST', `/${view.applicationId}/identity-questions/answers`, { answers }).then((r) => r.json());
    expect(await check(wrong)).toMatchObject({ passed: false, correct: 0 });
    expect(await check(right)).toEqual({ passed: true, correct: questions.length, asked: questions.length });
  });

  it('refuses a body that breaks the API (money in cents, no unknown fields)', async () => {
    const response = await call('ally', 'POST', '', { appId: 42, amount: 4500.5, applicant: wireApplicant('Smith', 60_000_00) });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
  });
});

describe('async-callback: the decision by a signed callback after a delay', () => {
  it('answers 202 pending at once, then posts the decision, signed so that the portal accepts it, with an event id', async () => {
    const started = Date.now();
    const response = await prequalify('cleargage', 'Decline', 60_000_00, 4_500_00, { callbackUrl: receiver.url });
    expect(response.status).toBe(202);
    const pending = (await response.json()) as View;
    expect(pending.status).toBe('Pending');
    expect(Date.now() - started).toBeLessThan(1000);
    const [post] = await receiver.waitFor(1);
    const body = JSON.parse(post!.body) as Record<string, unknown> & { data: { eventId: string } };
    expect(body).toMatchObject({ lenderCode: 'cleargage', appId: 42, lenderAppId: pending.applicationId, eventType: 'Decision', decisionStatus: 'Declined' });
    expect(body.data.eventId).toMatch(/^[0-9a-f-]{36}$/);
    expect(portalAccepts(post!, 'cleargage')).toBe(true);
    // The same scheme written out independently of the shared code: HMAC(HMAC(secret, "lender-callback/v1/<code>"), "<timestamp>.<body>").
    const key = createHmac('sha256', Buffer.from(secrets.LENDER_CALLBACK_SECRET, 'base64')).update('lender-callback/v1/cleargage').digest();
    expect(post!.headers['x-lender-signature']).toBe(`sha256=${createHmac('sha256', key).update(`${post!.headers['x-lender-timestamp']}.${post!.body}`).digest('hex')}`);
    // Another lender's key does not verify it.
    expect(portalAccepts(post!, 'lpoint')).toBe(false);
  });

  for (const c of CASES) {
    it(`decides as the in-process sandbox, read by a poll after the callback: ${c.name}`, async () => {
      const pending = (await (await prequalify('powerpay', c.lastName, c.income, c.amount, { callbackUrl: receiver.url })).json()) as View;
      await receiver.waitFor(1);
      const view = (await (await call('powerpay', 'GET', `/${pending.applicationId}`)).json()) as View;
      expectCase(view, c, 'powerpay');
      expect(decisionOf(view, view.reason)).toEqual(await inProcessDecision('powerpay', c.lastName, c.income, c.amount));
    });
  }

  it('posts a callback again, the same bytes, until it is acknowledged', async () => {
    receiver.failures = 2;
    await prequalify('lpoint', 'Smith', 60_000_00, 4_500_00, { callbackUrl: receiver.url });
    const posts = await receiver.waitFor(3);
    expect(posts.map((p) => p.status)).toEqual([500, 500, 200]);
    expect(new Set(posts.map((p) => p.body)).size).toBe(1);
    const deliveries = (await (await fetch(`${service.origin}/admin/callbacks`)).json()) as Array<{ eventId: string; attempts: number; acknowledged: boolean }>;
    const eventId = (JSON.parse(posts[0]!.body) as { data: { eventId: string } }).data.eventId;
    expect(deliveries.find((d) => d.eventId === eventId)).toMatchObject({ attempts: 3, acknowledged: true });
  });

  it("posts to an https callback whose certificate it is told to trust (the portal's own, in demo mode)", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lender-service-tls-'));
    const tls = loadCertificate({ tls: { mode: 'self-signed' }, dataDir, publicUrl: 'https://localhost:3000' })!;
    const [secure, trusting] = await Promise.all([startReceiver(tls), startLenderService(loadConfig({ ...env, LENDER_SERVICE_CALLBACK_CA: tls.certFile, LENDER_SERVICE_PORTAL_API_KEY: 'portal-key-for-lenders' }))]);
    try {
      const response = await fetch(`${trusting.origin}/lenders/lpoint/applications`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': secrets.LENDER_SERVICE_API_KEY },
        body: JSON.stringify({ appId: 7, amount: 4_500_00, applicant: wireApplicant('Smith', 60_000_00), callbackUrl: secure.url }),
      });
      expect(response.status).toBe(202);
      const [post] = await secure.waitFor(1);
      expect(post!.headers['x-api-key']).toBe('portal-key-for-lenders');
      expect(portalAccepts(post!, 'lpoint')).toBe(true);
    } finally {
      await Promise.all([secure.close(), trusting.close()]);
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('needs its API key and a callback URL', async () => {
    const keyless = await fetch(`${service.origin}/lenders/lpoint/applications`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(keyless.status).toBe(401);
    expect((await prequalify('lpoint', 'Smith', 60_000_00, 4_500_00)).status).toBe(400);
  });

  it("tells a review's later decision by callback", async () => {
    const pending = (await (await prequalify('lpoint', 'Pending', 60_000_00, 4_500_00, { callbackUrl: receiver.url })).json()) as View;
    await receiver.waitFor(1);
    const decided = await fetch(`${service.origin}/admin/lenders/lpoint/applications/${pending.applicationId}/decision`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"decision":"Approved"}' });
    expect(decided.status).toBe(200);
    const [, post] = await receiver.waitFor(2);
    expect(JSON.parse(post!.body)).toMatchObject({ eventType: 'Decision', decisionStatus: 'Approved' });
    expect(((await (await call('lpoint', 'GET', `/${pending.applicationId}`)).json()) as View).offers.length).toBeGreaterThan(0);
  });
});

describe('hosted-signing: the lender signs on its own page, then a completion callback and a redirect', () => {
  it('returns the redirect address of its page, takes the signature there, posts Signed and sends the browser back', async () => {
    const view = (await (await prequalify('covered', 'Smith', 60_000_00, 4_500_00)).json()) as View;
    const id = `/${view.applicationId}`;
    await call('covered', 'POST', `${id}/selection`, { productCode: view.offers[0]!.productCode });
    expect((await call('covered', 'POST', `${id}/signing`, { callbackUrl: receiver.url })).status).toBe(400);
    const returnUrl = 'https://portal.test/#/app/borrower/42';
    const signing = (await (await call('covered', 'POST', `${id}/signing`, { returnUrl, callbackUrl: receiver.url })).json()) as { hostedBy: string; signingUrl: string };
    expect(signing.hostedBy).toBe('lender');
    expect(signing.signingUrl.startsWith(`${service.origin}/signing/covered/`)).toBe(true);
    // The borrower lands on their application at the lender, approved, and goes on to the signing page.
    const landing = await fetch(signing.signingUrl);
    expect(landing.status).toBe(200);
    const landed = await landing.text();
    expect(landed).toContain(`Your application ${view.applicationId}`);
    expect(landed).toContain('Hello Pat. You are approved for up to');
    const signPage = `${signing.signingUrl}/sign`;
    expect(landed).toContain(`href="${new URL(signPage).pathname}"`);
    const page = await fetch(signPage);
    expect(page.status).toBe(200);
    // Its form sends the browser back to the caller's site: the page's policy names that site, or browsers stop there.
    expect(page.headers.get('content-security-policy')).toContain("form-action 'self' https://portal.test;");
    expect(await page.text()).toContain('Sign your loan agreement');
    expect((await call('covered', 'POST', `${id}/finalize`)).status).toBe(409);

    const sign = (form: string, headers: Record<string, string> = { 'sec-fetch-site': 'same-origin' }) =>
      fetch(signPage, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: form });
    expect((await sign('typedName=Pat+Smith&agree=yes', {})).status).toBe(403);
    expect((await sign('typedName=Someone+Else&agree=yes')).status).toBe(400);
    const signed = await sign('typedName=pat+smith&agree=yes');
    expect(signed.status).toBe(303);
    expect(signed.headers.get('location')).toBe(returnUrl);
    const [post] = await receiver.waitFor(1);
    expect(JSON.parse(post!.body)).toMatchObject({ lenderCode: 'covered', lenderAppId: view.applicationId, eventType: 'ContractStatus', contractStatus: 'Signed' });
    expect(portalAccepts(post!, 'covered')).toBe(true);
    // The page is spent once signed.
    expect((await fetch(signing.signingUrl)).status).toBe(404);
    expect((await fetch(signPage)).status).toBe(404);
    expect(((await (await call('covered', 'POST', `${id}/finalize`)).json()) as View).contract!.status).toBe('Finalized');
  });

  it('decides as the in-process sandbox', async () => {
    const view = (await (await prequalify('upg', 'Smith', 60_000_00, 4_500_00)).json()) as View;
    expect(decisionOf(view, view.reason)).toEqual(await inProcessDecision('upg', 'Smith', 60_000_00, 4_500_00));
  });
});

describe('faults on demand', () => {
  const setFaults = (code: string, faults: unknown) =>
    fetch(`${service.origin}/admin/faults/${code}`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(faults) });

  it('is slow by the delay asked, for that lender only', async () => {
    expect((await setFaults('gsky', { delayMs: 400 })).status).toBe(200);
    const timed = async (code: string) => {
      const started = Date.now();
      expect((await call(code, 'GET', `/${code.toUpperCase()}-X`)).status).toBe(404);
      return Date.now() - started;
    };
    expect(await timed('gsky')).toBeGreaterThanOrEqual(400);
    expect(await timed('lusa')).toBeLessThan(400);
  });

  it('is down: 503, or the connection dropped without an answer', async () => {
    await setFaults('lusa', { down: '503' });
    const unavailable = await call('lusa', 'GET', '/LUSA-X');
    expect(unavailable.status).toBe(503);
    expect(unavailable.headers.get('retry-after')).toBe('5');
    await setFaults('lusa', { down: 'reset' });
    await expect(call('lusa', 'GET', '/LUSA-X')).rejects.toThrow();
    expect((await call('ally', 'GET', '/ALLY-X')).status).toBe(404);
  });

  it('answers malformed bodies', async () => {
    await setFaults('ally', { malformed: true });
    const response = await prequalify('ally', 'Smith', 60_000_00, 4_500_00);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/json');
    await expect(response.json()).rejects.toThrow();
  });

  it('signs callbacks wrongly, which the portal refuses', async () => {
    await setFaults('cleargage', { badSignature: true });
    await prequalify('cleargage', 'Smith', 60_000_00, 4_500_00, { callbackUrl: receiver.url });
    const [post] = await receiver.waitFor(1);
    expect(post!.headers['x-lender-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(portalAccepts(post!, 'cleargage')).toBe(false);
  });

  it('takes only bounded faults of known lenders', async () => {
    expect((await setFaults('ally', { delayMs: 600_000 })).status).toBe(400);
    expect((await setFaults('ally', { down: 'forever' })).status).toBe(400);
    expect((await setFaults('ally', { explode: true })).status).toBe(400);
    expect((await setFaults('nobody', { delayMs: 10 })).status).toBe(404);
    expect(await (await fetch(`${service.origin}/admin/faults`)).json()).toEqual({});
  });

  it('can start with faults from LENDER_SERVICE_FAULTS, and refuses a bad one', () => {
    expect(loadConfig({ ...env, LENDER_SERVICE_FAULTS: '{"ally":{"delayMs":1000,"down":"503"}}' }).faults.get('ally')).toEqual({ delayMs: 1000, down: '503' });
    expect(() => loadConfig({ ...env, LENDER_SERVICE_FAULTS: '{"ally":{"delayMs":-1}}' })).toThrow(/LENDER_SERVICE_FAULTS/);
  });
});

describe('lenders and books given by the portal (the admin calls of demo mode)', () => {
  const admin = (path: string, body: unknown) => fetch(`${service.origin}/admin${path}`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('plays a lender file it is given, in its style, and refuses one that fails the checks', async () => {
    const ally = descriptors.find((d) => d.code === 'ally')!;
    const acme = { ...structuredClone(ally), code: 'acme', name: 'Acme Credit', sandbox: { ...structuredClone(ally.sandbox), serviceStyle: 'async-callback' } };
    expect((await fetch(`${service.origin}/lenders/acme/applications`, { method: 'POST' })).status).toBe(404);
    const taught = await admin('/lenders/acme', acme);
    expect(await taught.json()).toEqual({ code: 'acme', style: 'async-callback' });
    const pending = await fetch(`${service.origin}/lenders/acme/applications`, {
      method: 'POST',
      headers: { 'x-api-key': secrets.LENDER_SERVICE_API_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ appId: 42, amount: 4_500_00, callbackUrl: 'http://127.0.0.1:9/none', applicant: wireApplicant('Smith', 60_000_00) }),
    });
    expect(pending.status).toBe(202);
    expect(((await (await fetch(`${service.origin}/health`)).json()) as { lenders: Record<string, string> }).lenders.acme).toBe('async-callback');
    const misnamed = await admin('/lenders/other', acme);
    expect(misnamed.status).toBe(400);
    expect(((await misnamed.json()) as { detail: string }).detail).toMatch(/must be named acme\.json/);
    expect((await admin('/lenders/acme', { code: 'acme' })).status).toBe(400);
  });

  it("puts a selected contract where the caller's records say it stands, after which it refunds as a funded one", async () => {
    const view = (await (await prequalify('gsky', 'Smith', 60_000_00, 4_500_00)).json()) as View;
    const id = `/${view.applicationId}`;
    const contractPath = `/lenders/gsky/applications/${view.applicationId}/contract`;
    expect((await admin(contractPath, { status: 'Funded' })).status).toBe(404);
    await call('gsky', 'POST', `${id}/selection`, { productCode: view.offers[0]!.productCode });
    expect((await admin(contractPath, { status: 'Paid' })).status).toBe(400);
    expect((await admin(contractPath, { status: 'Funded', fundedAmount: 99_000_00 })).status).toBe(400);
    expect(await (await admin(contractPath, { status: 'Funded', fundedAmount: 4_000_00 })).json()).toMatchObject({ status: 'Funded', funding: { amount: 4_000_00 } });
    expect((await call('gsky', 'POST', `${id}/refunds`, { amount: 4_500_00 }, { 'idempotency-key': 'restored-refund-1' })).status).toBe(422);
    expect((await call('gsky', 'POST', `${id}/refunds`, { amount: 1_000_00 }, { 'idempotency-key': 'restored-refund-2' })).status).toBe(200);
  });
});

describe('the styles', () => {
  it('spread the eight lenders over the three styles, each lender in one, and can be changed by LENDER_SERVICE_STYLES', () => {
    expect(Object.keys(styles).sort()).toEqual(descriptors.map((d) => d.code));
    expect(new Set(Object.values(styles))).toEqual(new Set(['json-oauth', 'async-callback', 'hosted-signing']));
    expect(loadConfig({ ...env, LENDER_SERVICE_STYLES: 'ally=hosted-signing' }).styleOverrides).toEqual({ ally: 'hosted-signing' });
    expect(() => loadConfig({ ...env, LENDER_SERVICE_STYLES: 'ally=telepathy' })).toThrow(/LENDER_SERVICE_STYLES/);
  });
});
