import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { LenderHttp } from '../../codegen/generated/descriptors.ts';
import { loadConfig } from '../../lender-service/config.ts';
import { startLenderService, type LenderService } from '../../lender-service/app.ts';
import { lenderClient, type LenderEndpoint } from '../../server/lenders/http/client.ts';
import { MappingError, read, render } from '../../server/lenders/http/mapping.ts';

/**
 * The HTTP adapter's client (issue 38) against the lender service on a free port of 127.0.0.1 (decision 0259): the
 * lender file's description of its API is all it knows. Requests are counted on their way out (the real fetch,
 * observed) to see what the client sends: one token for many calls, no call while the breaker is open.
 */

const secrets = { clientSecret: randomBytes(16).toString('hex'), apiKey: randomBytes(16).toString('hex') };
const config = loadConfig({
  LENDER_SERVICE_PORT: '0',
  LENDER_SERVICE_CLIENT_SECRET: secrets.clientSecret,
  LENDER_SERVICE_API_KEY: secrets.apiKey,
  LENDER_SERVICE_TOKEN_TTL_SECONDS: '2',
});

let service: LenderService;
beforeAll(async () => {
  service = await startLenderService(config);
});
afterAll(async () => service?.close());
afterEach(async () => {
  await fetch(`${service.origin}/admin/faults`, { method: 'DELETE' });
});

const faults = (code: string, fault: Record<string, unknown>) =>
  fetch(`${service.origin}/admin/faults/${code}`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(fault) });

/** The real fetch, each request's path noted. */
function observedFetch(): { fetch: typeof fetch; paths: string[] } {
  const paths: string[] = [];
  return {
    paths,
    fetch: (input, init) => {
      paths.push(new URL(input instanceof Request ? input.url : String(input)).pathname);
      return fetch(input, init);
    },
  };
}

/** The pre-qualification as a lender file describes it: the applicant in the lender's words, its answer in ours. */
const PREQUALIFY = {
  method: 'POST',
  path: '/lenders/{lender.code}/applications',
  timeoutMs: 1500,
  body: {
    appId: { var: 'app.id' },
    amount: { '*': [{ var: 'app.amount' }, 100] },
    applicant: {
      firstName: { var: 'applicant.firstName' },
      lastName: { var: 'applicant.lastName' },
      address: { var: 'applicant.address' },
      dob: { var: 'applicant.dob' },
      ssn: { var: 'applicant.ssn' },
      annualIncome: { '*': [{ var: 'applicant.annualIncome' }, 100] },
      monthlyHousingPayment: 120000,
      employmentStatus: 'EmployedFull',
      residenceStatus: 'Rent',
      isActiveMilitary: false,
    },
  },
  outcomes: [{ when: { '==': [{ var: 'response.body.status' }, 'Declined'] }, is: 'Declined' }],
  answer: {
    lenderAppId: { var: 'response.body.applicationId' },
    approvedAmount: { var: 'response.body.approvedAmount' },
    offers: { $each: { var: 'response.body.offers' }, as: { productCode: { var: 'item.productCode' }, apr: { var: 'item.apr' }, monthlyPayment: { var: 'item.monthlyPayment' } } },
  },
} as const;

const oauth = (operations: Record<string, unknown> = { prequalify: PREQUALIFY }): LenderHttp =>
  ({ auth: { kind: 'oauth2', tokenPath: '/oauth/token' }, breaker: { failures: 2, openMs: 1000 }, operations }) as unknown as LenderHttp;
const endpoint = (): LenderEndpoint => ({ baseUrl: service.origin, clientSecret: secrets.clientSecret, apiKey: secrets.apiKey });

const context = (lastName: string) => ({
  lender: { code: 'ally' },
  app: { id: 42, amount: 4500 },
  applicant: {
    firstName: 'Pat', lastName, dob: '1985-04-12', ssn: '900123456', annualIncome: 60000,
    address: { streetAddress: '1234 Cedar Ln', suiteNo: null, city: 'Austin', state: 'TX', zipCode: '78704' },
  },
});

describe('the HTTP client, as a lender file describes the lender', () => {
  it('takes an OAuth 2.0 token once for many calls, renews it before it expires, and maps the answer', async () => {
    const seen = observedFetch();
    const client = lenderClient('ally', oauth(), endpoint(), { fetch: seen.fetch });
    const first = await client.call('prequalify', context('Smith'));
    expect(first.kind).toBe('answer');
    if (first.kind !== 'answer') return;
    const mapped = render(PREQUALIFY.answer, { response: first }) as { lenderAppId: string; offers: Array<{ productCode: string; monthlyPayment: number }> };
    expect(mapped.lenderAppId).toMatch(/^ALLY-/);
    expect(mapped.offers.length).toBeGreaterThan(0);
    expect(mapped.offers.every((o) => read.cents(o.monthlyPayment, '/offers') > 0)).toBe(true);
    await client.call('prequalify', context('Smith'));
    expect(seen.paths.filter((p) => p === '/oauth/token')).toHaveLength(1);
    // The token lives 2 s: renewed 0.2 s before it ends, not refused first.
    await new Promise((resolve) => setTimeout(resolve, 1900));
    expect((await client.call('prequalify', context('Smith'))).kind).toBe('answer');
    expect(seen.paths.filter((p) => p === '/oauth/token')).toHaveLength(2);
  });

  it('sorts an answer the file names an outcome from data: a decline is Declined', async () => {
    const client = lenderClient('ally', oauth(), endpoint());
    expect(await client.call('prequalify', context('Decline'))).toMatchObject({ kind: 'outcome', is: 'Declined', status: 200 });
  });

  it('finds a lender that answers too late, half an answer or 503 unavailable, without waiting past its timeout', async () => {
    const client = lenderClient('ally', { ...oauth(), breaker: { failures: 100, openMs: 1000 } }, endpoint());
    await faults('ally', { delayMs: 5000 });
    const started = Date.now();
    expect(await client.call('prequalify', context('Smith'))).toMatchObject({ kind: 'outcome', is: 'Unavailable', reason: 'no answer in time' });
    expect(Date.now() - started).toBeLessThan(3000);
    await faults('ally', { malformed: true });
    expect(await client.call('prequalify', context('Smith'))).toMatchObject({ kind: 'outcome', is: 'Unavailable', reason: 'the answer (200) is not JSON' });
    await faults('ally', { down: '503' });
    expect(await client.call('prequalify', context('Smith'))).toMatchObject({ kind: 'outcome', is: 'Unavailable', status: 503 });
  });

  it('repeats only what is safe to repeat: a read is retried, a pre-qualification is not', async () => {
    const seen = observedFetch();
    const status = { method: 'GET', path: '/lenders/{lender.code}/applications/{app.lenderAppId}', retries: 2 };
    const client = lenderClient('ally', { ...oauth({ prequalify: { ...PREQUALIFY, retries: 2 }, status }), breaker: { failures: 100, openMs: 1000 } }, endpoint(), { fetch: seen.fetch, sleep: async () => undefined });
    await faults('ally', { down: '503' });
    await client.call('prequalify', context('Smith'));
    expect(seen.paths.filter((p) => p === '/lenders/ally/applications')).toHaveLength(1);
    await client.call('status', { ...context('Smith'), app: { id: 42, lenderAppId: 'ALLY-0000000000' } });
    expect(seen.paths.filter((p) => p === '/lenders/ally/applications/ALLY-0000000000')).toHaveLength(3);
  });

  it('skips a lender whose breaker is open, and tries it again after a while', async () => {
    const seen = observedFetch();
    let clock = Date.now();
    const client = lenderClient('ally', oauth(), endpoint(), { fetch: seen.fetch, now: () => clock });
    await faults('ally', { down: '503' });
    await client.call('prequalify', context('Smith'));
    await client.call('prequalify', context('Smith'));
    expect(client.breaker.state).toBe('open');
    const sent = seen.paths.length;
    expect(await client.call('prequalify', context('Smith'))).toMatchObject({ kind: 'outcome', is: 'Unavailable', status: null });
    expect(seen.paths.length, 'no request while open').toBe(sent);
    await fetch(`${service.origin}/admin/faults`, { method: 'DELETE' });
    clock += 1001;
    expect((await client.call('prequalify', context('Smith'))).kind).toBe('answer');
    expect(client.breaker.state).toBe('closed');
  });

  it('sends the API key a key lender asks for, and an Idempotency-Key with money', async () => {
    const client = lenderClient('cleargage', { auth: { kind: 'apiKey', header: 'X-Api-Key' }, operations: { prequalify: PREQUALIFY } } as unknown as LenderHttp, endpoint());
    const answer = await client.call('prequalify', { ...context('Smith'), lender: { code: 'cleargage' }, callbackUrl: 'http://127.0.0.1:9/none' });
    // An async-callback lender without a callback address refuses the request; with the right key it is not a 401.
    expect(answer.kind === 'outcome' ? answer.status : 200).not.toBe(401);
    const wrong = lenderClient('cleargage', { auth: { kind: 'apiKey', header: 'X-Api-Key' }, operations: { prequalify: PREQUALIFY } } as unknown as LenderHttp, { ...endpoint(), apiKey: 'wrong' });
    expect(await wrong.call('prequalify', { ...context('Smith'), lender: { code: 'cleargage' } })).toMatchObject({ kind: 'outcome', is: 'BadRequest', status: 401 });
  });

  it('names the place of a request that cannot be made, and of an answer that does not fit', async () => {
    const client = lenderClient('ally', oauth({ prequalify: { ...PREQUALIFY, path: '/lenders/{lender.missing}/applications' } }), endpoint());
    expect(await client.call('prequalify', context('Smith'))).toMatchObject({ kind: 'outcome', is: 'BadRequest', reason: expect.stringContaining('/http/operations/prequalify/path') });
    expect(() => render({ offers: { $each: { var: 'response.body.status' }, as: {} } }, { response: { body: { status: 'Approved' } } })).toThrow(MappingError);
    expect(() => read.cents('lots', '/answer/approvedAmount')).toThrow('/answer/approvedAmount: expected a number, found text of 4 characters');
  });
});
