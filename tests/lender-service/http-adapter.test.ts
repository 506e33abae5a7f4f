import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../lender-service/config.ts';
import { startLenderService, type LenderService } from '../../lender-service/app.ts';
import { parseLenderFile, type LenderDescriptor } from '../../core/lenders/descriptor.ts';
import type { Applicant, PrequalAnswer } from '../../core/lenders/terms.ts';
import { sandboxAdapter } from '../../server/lenders/sandbox.ts';
import { httpAdapter, type LenderLog } from '../../server/lenders/http/adapter.ts';
import { lenderCatalogue } from '../../server/lenders/registry.ts';
import { tellLenderNews } from '../../server/lenders/http/news.ts';
import { askLenders } from '../../server/lenders/waterfall.ts';
import { startReceiver } from '../support/receiver.ts';

/**
 * A ninth lender goes live as one file (issue 38): Acme Lending, a copy of Ally's file under a new code, speaks the
 * lender service's json-oauth API through the `http` block the shipped lenders use (the fragment `lenderServiceApi`).
 * Spoken to over HTTP, its decisions and prices are the in-process sandbox's for the same applicant; an answer its
 * mapping cannot read, or no answer, is that lender's 'Error', logged with the operation and the place, never the
 * data. Two more copies speak the other styles: one that decides later by callback, one that hosts the signing.
 */

const dir = mkdtempSync(join(tmpdir(), 'acme-lenders-'));
const shipped = (code: string) => JSON.parse(readFileSync(new URL(`../../screens/lenders/${code}.json`, import.meta.url), 'utf8')) as Record<string, unknown>;
/** A shipped lender's file under another code and name, written to the test's lender folder and read as the server reads it. */
function copyOf(code: string, as: string, name: string): LenderDescriptor {
  const file = { ...shipped(code), $schema: undefined, code: as, name };
  writeFileSync(join(dir, `${as}.json`), JSON.stringify(file, null, 2));
  return parseLenderFile(join(dir, `${as}.json`), JSON.stringify(file));
}
const acme = copyOf('ally', 'acme', 'Acme Lending');
const later = copyOf('lpoint', 'later', 'Later Lending');
const hosted = copyOf('upg', 'hosted', 'Hosted Lending');
type Http = { operations: { prequalify: { timeoutMs: number; answer: { offers: { as: unknown } } } } };
const ACME_HTTP = acme.http as unknown as Http;

const secret = randomBytes(16).toString('hex');
const apiKey = randomBytes(16).toString('hex');
let service: LenderService;
beforeAll(async () => {
  service = await startLenderService(loadConfig({
    LENDER_SERVICE_PORT: '0', LENDERS_DIR: dir, LENDER_SERVICE_CLIENT_SECRET: secret, LENDER_SERVICE_API_KEY: apiKey, LENDER_SERVICE_CALLBACK_DELAY_MS: '300',
    LENDER_SERVICE_STYLES: 'acme=json-oauth,later=async-callback,hosted=hosted-signing',
  }));
});
afterAll(async () => {
  await service?.close();
  rmSync(dir, { recursive: true, force: true });
});
afterEach(async () => {
  await fetch(`${service.origin}/admin/faults`, { method: 'DELETE' });
});

const applicant = (lastName: string): Applicant => ({
  appId: 42, firstName: 'Pat', lastName, email: 'pat@gmail.com', mobilePhone: '(512) 555-0100', homePhone: null,
  address: { streetAddress: '1234 Cedar Ln', suiteNo: '', city: 'Austin', state: 'TX', zipCode: '78704' },
  dob: '1985-04-12', ssn: '900123456', annualIncome: 60_000_00, additionalIncome: null, monthlyHousingPayment: 1_200_00,
  employmentStatus: 'EmployedFull', employerName: null, monthsEmployed: null, residenceStatus: 'Rent', isActiveMilitary: false, amount: 4_500_00, serviceDate: null,
});
const signal = () => new AbortController().signal;
/** The waterfall's context: its signal, the office's rate, and when it stops waiting. */
const asked = (waitMs = 5000) => ({ signal: signal(), discountRate: 6.5, deadline: Date.now() + waitMs });
/** What the two must agree on: all but ids, links and the expiry instant. */
const decision = (a: PrequalAnswer) => ({ ...a, lenderAppId: null, lenderAppUrl: null, expiresAt: null, offers: a.offers.map((o) => ({ ...o, url: null })) });

const inProcess = sandboxAdapter({ ...acme, sandbox: { ...acme.sandbox, latencyMs: 0 } }, null);
const PORTAL = { callbackUrl: 'http://127.0.0.1:9/callback' };
function overHttp(log: Parameters<LenderLog>[0][] = [], http: object = ACME_HTTP, lender: LenderDescriptor = acme, portal = PORTAL) {
  return httpAdapter({ ...lender, http } as LenderDescriptor, { baseUrl: service.origin, clientSecret: secret, apiKey }, portal, (entry) => log.push(entry));
}

describe('a ninth lender over HTTP, described by its file alone', () => {
  it('decides and prices as the sandbox does: an approval with its offers, a decline with its reason and score', async () => {
    for (const lastName of ['Smith', 'Decline']) {
      const dbg: Parameters<LenderLog>[0][] = [];
      const [http, local] = await Promise.all([overHttp(dbg).prequalify(applicant(lastName), asked()), inProcess.prequalify(applicant(lastName), asked())]);
      expect(dbg).toEqual([]);
      expect(decision(http), lastName).toEqual(decision(local));
      expect(http.lenderAppId).toMatch(/^ACME-/);
    }
  });

  it("prices an offer again for another amount from the lender's own terms", async () => {
    const answer = await overHttp().prequalify(applicant('Smith'), asked());
    const offer = answer.offers[0]!;
    const stored = { ...offer, noInterestTerm: offer.noInterestTerm };
    expect(overHttp().reprice(stored, 3_000_00, 6.5)).toEqual(inProcess.reprice(stored, 3_000_00, 6.5));
    expect(overHttp().reprice(stored, offer.maxLine + 1, 6.5)).toBeNull();
  });

  it("is 'Error' for this application when its answer does not fit the mapping, naming the place, not the data", async () => {
    const log: Parameters<LenderLog>[0][] = [];
    const wrong = structuredClone(ACME_HTTP);
    wrong.operations.prequalify.answer.offers.as = { var: 'item.productCode' };
    expect((await overHttp(log, wrong).prequalify(applicant('Smith'), asked())).status).toBe('Error');
    expect(log).toEqual([{ lender: 'acme', operation: 'prequalify', reason: '/http/operations/prequalify/answer/offers/0: expected an object' }]);
    expect(JSON.stringify(log)).not.toMatch(/Pat|900123456|ACME-/);
  });

  it("is 'Error' when the lender sends half an answer or none in time", async () => {
    const log: Parameters<LenderLog>[0][] = [];
    await fetch(`${service.origin}/admin/faults/acme`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ malformed: true }) });
    expect((await overHttp(log).prequalify(applicant('Smith'), asked())).status).toBe('Error');
    await fetch(`${service.origin}/admin/faults/acme`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ delayMs: 5000 }) });
    // The call's own time (its file says 9 s; here 3 s), not the lender's, bounds the wait.
    const quick = structuredClone(ACME_HTTP);
    quick.operations.prequalify.timeoutMs = 3000;
    const started = Date.now();
    expect((await overHttp(log, quick).prequalify(applicant('Smith'), asked())).status).toBe('Error');
    expect(Date.now() - started).toBeLessThan(4500);
    expect(log.map((l) => l.reason)).toEqual(['the answer (200) is not JSON', 'no answer in time']);
  });

  it('is served by the catalogue for the file\'s adapter, at the address and with the secrets of the configuration', async () => {
    const configured = lenderCatalogue({ lendersDir: dir, mode: 'production', publicUrl: 'https://portal.test', lenderEnv: { LENDER_ACME_URL: service.origin, LENDER_ACME_CLIENT_SECRET: secret } });
    expect((await configured.get('acme')!.prequalify(applicant('Smith'), asked())).status).toBe('Approved');
    // Production without an address: unavailable, never a guess.
    const bare = lenderCatalogue({ lendersDir: dir, mode: 'production', publicUrl: 'https://portal.other', lenderEnv: {} });
    expect((await bare.get('acme')!.prequalify(applicant('Smith'), asked())).status).toBe('Error');
  });

  it('reads a decision the lender announces by callback back through its status call, mapped as a pre-qualification', async () => {
    const adapter = overHttp();
    const first = await adapter.prequalify(applicant('Smith'), asked());
    const effect = await adapter.callback({ eventType: 'Decision', lenderAppId: first.lenderAppId!, decisionStatus: 'Approved' }, applicant('Smith'), { discountRate: 6.5 });
    expect(effect.decision?.status).toBe('Approved');
    expect(effect.decision?.lenderAppId).toBe(first.lenderAppId);
    expect(effect.decision?.offers.map((o) => o.productCode)).toEqual(first.offers.map((o) => o.productCode));
    // A contract's status is the event's own.
    expect(await adapter.callback({ eventType: 'ContractStatus', lenderAppId: first.lenderAppId!, contractStatus: 'Signed' }, applicant('Smith'), { discountRate: 6.5 })).toEqual({ contractStatus: 'Signed' });
  });
});

describe("the office's orders, told to the lender over HTTP", () => {
  it('finalizes, funds and refunds a contract, each money order once per Idempotency-Key, and a refusal is in words, not an error', async () => {
    const receiver = await startReceiver();
    const adapter = overHttp([], ACME_HTTP, acme, { callbackUrl: receiver.url });
    const { lenderAppId } = await adapter.prequalify(applicant('Smith'), asked());
    const { contractId } = await adapter.select({ appId: 42, lenderAppId, productCode: (await adapter.prequalify(applicant('Smith'), asked())).offers[0]!.productCode, amount: 4_500_00, returnUrl: 'https://portal.test/' });
    const order = { appId: 42, lenderAppId, contractId };
    // Nothing is refunded before it is funded: the lender's 409 is its refusal.
    expect(await adapter.refund({ ...order, amount: 100_00, idempotencyKey: 'refund-early' })).toEqual({ accepted: false, reason: 'the lender answered 409' });
    expect(await adapter.finalize(order)).toEqual({ accepted: true, reference: contractId });
    const funded = await adapter.fund({ ...order, amount: 4_500_00, idempotencyKey: 'fund-application-42' });
    expect(funded).toEqual({ accepted: true, reference: `${contractId}-F` });
    expect(await adapter.fund({ ...order, amount: 4_500_00, idempotencyKey: 'fund-application-42' })).toEqual(funded);
    const refunded = await adapter.refund({ ...order, amount: 100_00, idempotencyKey: 'refund-1' });
    expect(refunded).toMatchObject({ accepted: true, reference: expect.stringMatching(new RegExp(`^${contractId}-R`)) });
    expect(await adapter.refund({ ...order, amount: 100_00, idempotencyKey: 'refund-1' })).toEqual(refunded);
    // The money that moved is told by callback, once each, however often it was asked.
    const told = (await receiver.waitFor(2)).map((post) => JSON.parse(post.body) as { eventType: string; contractStatus?: string; appId: number; lenderAppId: string; data: Record<string, unknown> });
    await receiver.close();
    expect(told.map((t) => [t.eventType, t.contractStatus, t.appId, t.lenderAppId])).toEqual([['Funding', 'Funded', 42, lenderAppId], ['Refund', undefined, 42, lenderAppId]]);
    expect(told[0]!.data).toMatchObject({ fundingId: `${contractId}-F`, amountCents: 4_500_00 });
    expect(told[1]!.data).toMatchObject({ reference: (refunded as { reference: string }).reference, amountCents: 100_00 });
  });
});

describe('a lender file over HTTP, as it is read', () => {
  const file = (http: object) => JSON.stringify({ ...shipped('ally'), $schema: undefined, code: 'checked', name: 'Checked Lending', http });
  const read = (http: object) => () => parseLenderFile(join(dir, 'checked.json'), file(http));

  it('refuses an authentication header the portal sets itself, whatever its case', () => {
    for (const header of ['Host', 'content-length', 'Transfer-Encoding', 'Idempotency-Key', 'Proxy-Authorization']) {
      expect(read({ ...acme.http, auth: { kind: 'apiKey', header } }), header).toThrow(`http.auth header '${header}' is one the portal sets itself`);
    }
    expect(read({ ...acme.http, auth: { kind: 'hmac', header: 'X-Signature', timestampHeader: 'Host' } })).toThrow("http.auth header 'Host'");
    expect(read({ ...acme.http, auth: { kind: 'apiKey', header: 'X-Api-Key' } })).not.toThrow();
  });

  it("refuses a file without a call its journey needs", () => {
    const { identityQuestions: _, ...operations } = (acme.http as { operations: Record<string, unknown> }).operations;
    expect(read({ ...acme.http, operations })).toThrow("http.operations.identityQuestions is required by this lender's journey");
  });
});

describe('the journey over HTTP, in each style of the lender service', () => {
  it('asks the identity questions the lender runs and lets the lender check the answers', async () => {
    const adapter = overHttp();
    const first = await adapter.prequalify(applicant('Smith'), asked());
    await adapter.select({ appId: 42, lenderAppId: first.lenderAppId, productCode: first.offers[0]!.productCode, amount: first.offers[0]!.amount, returnUrl: 'https://portal.test/#/app/borrower/42' });
    const quiz = await adapter.kba({ applicant: applicant('Smith'), lenderAppId: first.lenderAppId });
    expect(quiz.checkedBy).toBe('lender');
    expect(quiz.questions.map((q) => q.id)).toEqual(['street', 'city', 'birthYear', 'zip']);
    expect(JSON.stringify(quiz)).not.toContain('answerId');
    // The right answers are what the borrower entered; the portal never held them.
    const right: Record<string, string> = { street: 'Cedar Ln', city: 'Austin', birthYear: '1985', zip: '78704' };
    const answers = (pick: (id: string) => string) => Object.fromEntries(quiz.questions.map((q) => [q.id, q.choices.find((c) => c.text === pick(q.id))?.id ?? q.choices[0]!.id]));
    expect(await adapter.checkIdentity!({ appId: 42, lenderAppId: first.lenderAppId, answers: answers((id) => right[id]!) })).toBe(true);
    const wrongCity = quiz.questions.find((q) => q.id === 'city')!.choices.find((c) => c.text !== 'Austin')!.text;
    expect(await adapter.checkIdentity!({ appId: 42, lenderAppId: first.lenderAppId, answers: answers((id) => (id === 'city' ? wrongCity : right[id]!)) })).toBe(false);
  });

  it('waits while a lender that decides later (202) decides, and takes its decision as the sandbox would make it', async () => {
    const adapter = overHttp([], later.http!, later);
    const started = Date.now();
    const answer = await adapter.prequalify(applicant('Smith'), asked());
    expect(answer.status).toBe('Approved');
    expect(answer.lenderAppId).toMatch(/^LATER-/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    const local = await sandboxAdapter({ ...later, sandbox: { ...later.sandbox, latencyMs: 0 } }, null).prequalify(applicant('Smith'), asked());
    expect(decision(answer)).toEqual(decision(local));
  });

  it('answers PendingReview with its id when the waterfall stops waiting first, so that the callback is taken later', async () => {
    const answer = await overHttp([], later.http!, later).prequalify(applicant('Smith'), asked(150));
    expect(answer.status).toBe('PendingReview');
    expect(answer.lenderAppId).toMatch(/^LATER-/);
  });

  it('reads the decision as soon as the callback is told, not at its next poll', async () => {
    const receiver = await startReceiver();
    try {
      const started = Date.now();
      const pending = overHttp([], { ...later.http!, pollMs: 5000 }, later, { callbackUrl: receiver.url }).prequalify(applicant('Smith'), asked(8000));
      // The decision's callback arrives (after 300 ms); the portal's callback route tells the news.
      const [post] = await receiver.waitFor(1);
      tellLenderNews('later', (JSON.parse(post!.body) as { lenderAppId: string }).lenderAppId);
      expect((await pending).status).toBe('Approved');
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      await receiver.close();
    }
  });

  it('opens the signing at a lender that hosts it when the offer is chosen, with the way back', async () => {
    const adapter = overHttp([], hosted.http!, hosted);
    const first = await adapter.prequalify(applicant('Smith'), asked());
    const returnUrl = 'https://portal.test/#/app/borrower/42';
    const opened = await adapter.select({ appId: 42, lenderAppId: first.lenderAppId, productCode: first.offers[0]!.productCode, amount: first.offers[0]!.amount, returnUrl });
    expect(opened.contractId).toMatch(/^HOSTED-C42-/);
    expect(opened.lenderAppUrl).toMatch(new RegExp(`^${service.origin}/signing/hosted/`));
    const landing = await (await fetch(opened.lenderAppUrl!)).text();
    expect(landing).toContain(`Your application ${first.lenderAppId}`);
  });
});

describe('a lender that stops answering', () => {
  it('leaves the waterfall to the others, is skipped while its breaker is open, and comes back by itself', async () => {
    const brittle = overHttp([], { ...acme.http!, breaker: { failures: 1, openMs: 1000 } });
    const entries = [
      { adapter: brittle, lenderId: 1, discountRate: 6.5 },
      { adapter: overHttp([], hosted.http!, hosted), lenderId: 2, discountRate: 6.5 },
    ];
    const statuses = async () => (await askLenders(entries, applicant('Smith'), 3000)).map((a) => `${a.code}: ${a.status}`);
    await fetch(`${service.origin}/admin/faults/acme`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ down: 'reset' }) });
    expect(await statuses()).toEqual(['acme: Error', 'hosted: Approved']);
    // Back up, but its breaker is open: it is not asked, and costs the waterfall nothing.
    await fetch(`${service.origin}/admin/faults`, { method: 'DELETE' });
    const started = Date.now();
    const [skipped] = await askLenders(entries.slice(0, 1), applicant('Smith'), 3000);
    expect([skipped!.status, Date.now() - started < 100]).toEqual(['Error', true]);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(await statuses()).toEqual(['acme: Approved', 'hosted: Approved']);
  });
});
