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

/**
 * A ninth lender goes live as one file (issue 38): Acme Lending, a copy of Ally's rules under a new code, says
 * `"adapter": "http"` and maps the lender service's json-oauth API in its `http` block. Spoken to over HTTP, its
 * decisions and prices are the in-process sandbox's for the same applicant; an answer its mapping cannot read, or no
 * answer, is that lender's 'Error', logged with the operation and the place, never the data.
 */

const ACME_HTTP = {
  auth: { kind: 'oauth2', tokenPath: '/oauth/token' },
  timeoutMs: 3000,
  breaker: { failures: 50, openMs: 1000 },
  operations: {
    prequalify: {
      method: 'POST',
      path: '/lenders/{lender.code}/applications',
      body: {
        appId: { var: 'app.id' },
        amount: { var: 'app.amount' },
        discountRate: { var: 'discountRate' },
        applicant: Object.fromEntries(
          ['firstName', 'lastName', 'email', 'mobilePhone', 'address', 'dob', 'ssn', 'annualIncome', 'monthlyHousingPayment', 'employmentStatus', 'residenceStatus', 'isActiveMilitary'].map((name) => [name, { var: `applicant.${name}` }]),
        ),
      },
      answer: {
        status: { var: 'response.body.status' },
        lenderAppId: { var: 'response.body.applicationId' },
        reason: { var: 'response.body.reason' },
        reasonCodes: { var: 'response.body.reasonCodes' },
        approvedAmount: { var: 'response.body.approvedAmount' },
        expiresAt: { var: 'response.body.expiresAt' },
        creditScore: { var: 'response.body.creditScore' },
        offers: { $each: { var: 'response.body.offers' }, as: { var: 'item' } },
      },
    },
    // A status read answers the application as the pre-qualification does: the same mapping reads it.
    status: { method: 'GET', path: '/lenders/{lender.code}/applications/{app.lenderAppId}', retries: 1 },
  },
};
ACME_HTTP.operations.status = { ...ACME_HTTP.operations.status, answer: ACME_HTTP.operations.prequalify.answer } as typeof ACME_HTTP.operations.status;

const dir = mkdtempSync(join(tmpdir(), 'acme-lenders-'));
const ally = JSON.parse(readFileSync(new URL('../../screens/lenders/ally.json', import.meta.url), 'utf8')) as Record<string, unknown>;
const acmeFile = { ...ally, $schema: undefined, code: 'acme', name: 'Acme Lending', adapter: 'http', http: ACME_HTTP };
writeFileSync(join(dir, 'acme.json'), JSON.stringify(acmeFile, null, 2));
const acme: LenderDescriptor = parseLenderFile(join(dir, 'acme.json'), JSON.stringify(acmeFile));

const secret = randomBytes(16).toString('hex');
let service: LenderService;
beforeAll(async () => {
  service = await startLenderService(loadConfig({ LENDER_SERVICE_PORT: '0', LENDERS_DIR: dir, LENDER_SERVICE_CLIENT_SECRET: secret, LENDER_SERVICE_STYLES: 'acme=json-oauth' }));
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
/** What the two must agree on: all but ids, links and the expiry instant. */
const decision = (a: PrequalAnswer) => ({ ...a, lenderAppId: null, lenderAppUrl: null, expiresAt: null, offers: a.offers.map((o) => ({ ...o, url: null })) });

const inProcess = sandboxAdapter({ ...acme, sandbox: { ...acme.sandbox, latencyMs: 0 } }, null);
function overHttp(log: Parameters<LenderLog>[0][] = [], http: object = ACME_HTTP) {
  return httpAdapter({ ...acme, http } as LenderDescriptor, { baseUrl: service.origin, clientSecret: secret }, (entry) => log.push(entry));
}

describe('a ninth lender over HTTP, described by its file alone', () => {
  it('decides and prices as the sandbox does: an approval with its offers, a decline with its reason and score', async () => {
    for (const lastName of ['Smith', 'Decline']) {
      const dbg: Parameters<LenderLog>[0][] = [];
      const [http, local] = await Promise.all([overHttp(dbg).prequalify(applicant(lastName), { signal: signal(), discountRate: 6.5 }), inProcess.prequalify(applicant(lastName), { signal: signal(), discountRate: 6.5 })]);
      expect(dbg).toEqual([]);
      expect(decision(http), lastName).toEqual(decision(local));
      expect(http.lenderAppId).toMatch(/^ACME-/);
    }
  });

  it("prices an offer again for another amount from the lender's own terms", async () => {
    const answer = await overHttp().prequalify(applicant('Smith'), { signal: signal(), discountRate: 6.5 });
    const offer = answer.offers[0]!;
    const stored = { ...offer, noInterestTerm: offer.noInterestTerm };
    expect(overHttp().reprice(stored, 3_000_00, 6.5)).toEqual(inProcess.reprice(stored, 3_000_00, 6.5));
    expect(overHttp().reprice(stored, offer.maxLine + 1, 6.5)).toBeNull();
  });

  it("is 'Error' for this application when its answer does not fit the mapping, naming the place, not the data", async () => {
    const log: Parameters<LenderLog>[0][] = [];
    const wrong = structuredClone(ACME_HTTP);
    (wrong.operations.prequalify.answer.offers.as as unknown) = { var: 'item.productCode' };
    expect((await overHttp(log, wrong).prequalify(applicant('Smith'), { signal: signal(), discountRate: 6.5 })).status).toBe('Error');
    expect(log).toEqual([{ lender: 'acme', operation: 'prequalify', reason: '/http/operations/prequalify/answer/offers/0: expected an object' }]);
    expect(JSON.stringify(log)).not.toMatch(/Pat|900123456|ACME-/);
  });

  it("is 'Error' when the lender sends half an answer or none in time", async () => {
    const log: Parameters<LenderLog>[0][] = [];
    await fetch(`${service.origin}/admin/faults/acme`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ malformed: true }) });
    expect((await overHttp(log).prequalify(applicant('Smith'), { signal: signal(), discountRate: 6.5 })).status).toBe('Error');
    await fetch(`${service.origin}/admin/faults/acme`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ delayMs: 5000 }) });
    const started = Date.now();
    expect((await overHttp(log).prequalify(applicant('Smith'), { signal: signal(), discountRate: 6.5 })).status).toBe('Error');
    expect(Date.now() - started).toBeLessThan(4500);
    expect(log.map((l) => l.reason)).toEqual(['the answer (200) is not JSON', 'no answer in time']);
  });

  it('is served by the catalogue for the file\'s adapter, at the address and with the secrets of the configuration', async () => {
    const configured = lenderCatalogue({ lendersDir: dir, mode: 'production', publicUrl: 'https://portal.test', lenderEnv: { LENDER_ACME_URL: service.origin, LENDER_ACME_CLIENT_SECRET: secret } });
    expect((await configured.get('acme')!.prequalify(applicant('Smith'), { signal: signal(), discountRate: 6.5 })).status).toBe('Approved');
    // Production without an address: unavailable, never a guess.
    const bare = lenderCatalogue({ lendersDir: dir, mode: 'production', publicUrl: 'https://portal.other', lenderEnv: {} });
    expect((await bare.get('acme')!.prequalify(applicant('Smith'), { signal: signal(), discountRate: 6.5 })).status).toBe('Error');
  });

  it('reads a decision the lender announces by callback back through its status call, mapped as a pre-qualification', async () => {
    const adapter = overHttp();
    const first = await adapter.prequalify(applicant('Smith'), { signal: signal(), discountRate: 6.5 });
    const effect = await adapter.callback({ eventType: 'Decision', lenderAppId: first.lenderAppId!, decisionStatus: 'Approved' }, applicant('Smith'), { discountRate: 6.5 });
    expect(effect.decision?.status).toBe('Approved');
    expect(effect.decision?.lenderAppId).toBe(first.lenderAppId);
    expect(effect.decision?.offers.map((o) => o.productCode)).toEqual(first.offers.map((o) => o.productCode));
    // A contract's status is the event's own.
    expect(await adapter.callback({ eventType: 'ContractStatus', lenderAppId: first.lenderAppId!, contractStatus: 'Signed' }, applicant('Smith'), { discountRate: 6.5 })).toEqual({ contractStatus: 'Signed' });
  });
});
