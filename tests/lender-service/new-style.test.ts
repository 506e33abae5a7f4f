import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Applicant } from '../../core/lenders/terms.ts';
import type { LenderLog } from '../../server/lenders/http/adapter.ts';
import { lenderAdapter, lenderCatalogue } from '../../server/lenders/registry.ts';

/**
 * A ninth lender in an API style nothing else here speaks goes live by its file and the server's configuration, with
 * no code (issue 38): Northwind Credit signs every request with HMAC-SHA256 over the timestamp and the body, speaks
 * snake_case and dollars, says 'APPROVED' / 'DECLINED' in its answer and 'manual_review' as a 422, runs its own
 * identity quiz, and refunds once per Idempotency-Key. It is played here by a small server of the test's own; the file
 * maps all of it onto the portal's types (money in cents, decisions, offers, identity questions).
 */

const signingSecret = randomBytes(24).toString('hex');
const dir = mkdtempSync(join(tmpdir(), 'northwind-'));
let server: Server;
let base = '';
const seen: { path: string; signed: boolean; idempotencyKey: string | undefined }[] = [];
const refunds = new Map<string, string>();

function signedBy(request: IncomingMessage, body: string): boolean {
  const timestamp = request.headers['x-nw-timestamp'];
  const signature = request.headers['x-nw-signature'];
  if (typeof timestamp !== 'string' || typeof signature !== 'string' || Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
  const expected = Buffer.from(`sha256=${createHmac('sha256', signingSecret).update(`${timestamp}.${body}`).digest('hex')}`);
  return expected.length === Buffer.byteLength(signature) && timingSafeEqual(expected, Buffer.from(signature));
}

/** Northwind's underwriting, enough for the test: the family name decides, as the sandbox's last names do. */
function check(id: string, familyName: string, amountDollars: number) {
  if (familyName === 'Decline') return { check_id: id, outcome: 'DECLINED', line_dollars: null, plans: [], decline: { text: 'Income too low for the amount asked', codes: ['NW-INC'] } };
  const plan = (months: number, apr: number) => {
    const rate = apr / 1200;
    const monthly = Math.round(((amountDollars * rate) / (1 - (1 + rate) ** -months)) * 100) / 100;
    return { plan_id: `NW${months}`, title: `${months}-month plan`, months, apr_percent: apr, amount_dollars: amountDollars, monthly_dollars: monthly, total_dollars: Math.round(monthly * months * 100) / 100, min_dollars: 500, max_dollars: 12_000 };
  };
  return { check_id: id, outcome: 'APPROVED', line_dollars: 12_000, plans: [plan(24, 11.9), plan(48, 15.9)], decline: null };
}
const checks = new Map<string, { familyName: string; amount: number }>();

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      const signed = signedBy(request, body);
      seen.push({ path, signed, idempotencyKey: request.headers['idempotency-key'] as string | undefined });
      const send = (status: number, value: unknown) => response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
      if (!signed) return send(401, { error: 'bad_signature' });
      const input = body ? (JSON.parse(body) as Record<string, any>) : {};
      let match: RegExpMatchArray | null;
      if (request.method === 'POST' && path === '/v2/credit-checks') {
        if (input.customer.family_name === 'Pending') return send(422, { error: 'manual_review', message: 'A person looks at this one.' });
        const id = `NW-${checks.size + 1}`;
        checks.set(id, { familyName: input.customer.family_name, amount: input.requested.amount_dollars });
        return send(200, check(id, input.customer.family_name, input.requested.amount_dollars));
      }
      if (request.method === 'GET' && (match = path.match(/^\/v2\/credit-checks\/([\w-]+)$/))) {
        const known = checks.get(match[1]!);
        return known ? send(200, check(match[1]!, known.familyName, known.amount)) : send(404, { error: 'not_found' });
      }
      if (request.method === 'POST' && (match = path.match(/^\/v2\/credit-checks\/([\w-]+)\/contracts$/))) return send(201, { contract_number: `${match[1]}-K-${input.plan_id}` });
      if (request.method === 'GET' && /^\/v2\/credit-checks\/[\w-]+\/quiz$/.test(path)) {
        return send(200, { items: [{ key: 'q1', prompt: 'Which street have you lived on?', options: [{ key: 'a', label: 'Cedar Ln' }, { key: 'b', label: 'Oak St' }] }] });
      }
      if (request.method === 'POST' && /^\/v2\/credit-checks\/[\w-]+\/quiz$/.test(path)) return send(200, { verdict: input.responses?.q1 === 'a' ? 'PASS' : 'FAIL' });
      if (request.method === 'POST' && (match = path.match(/^\/v2\/contracts\/([\w-]+)\/refunds$/))) {
        const key = request.headers['idempotency-key'] as string;
        if (!refunds.has(key)) refunds.set(key, `RF-${refunds.size + 1}`);
        return send(200, { refund_ref: refunds.get(key), status: 'queued' });
      }
      return send(404, { error: 'not_found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

const cents = (dollars: unknown) => ({ '*': [dollars, 100] });
/** Northwind's credit check read as a pre-qualification: its pre-qualification and its status answer the same. */
const checkAnswer = {
  status: { if: [{ '==': [{ var: 'response.body.outcome' }, 'APPROVED'] }, 'Approved', { '==': [{ var: 'response.body.outcome' }, 'DECLINED'] }, 'Declined', 'Error'] },
  lenderAppId: { var: 'response.body.check_id' },
  reason: { var: 'response.body.decline.text' },
  reasonCodes: { $each: { var: 'response.body.decline.codes' }, as: { var: 'item' } },
  approvedAmount: { if: [{ var: 'response.body.line_dollars' }, cents({ var: 'response.body.line_dollars' }), null] },
  offers: {
    $each: { var: 'response.body.plans' },
    as: {
      productCode: { var: 'item.plan_id' }, productName: { var: 'item.title' }, productType: 'Installment', term: { var: 'item.months' }, apr: { var: 'item.apr_percent' },
      amount: cents({ var: 'item.amount_dollars' }), monthlyPayment: cents({ var: 'item.monthly_dollars' }), totalCost: cents({ var: 'item.total_dollars' }),
      minLine: cents({ var: 'item.min_dollars' }), maxLine: cents({ var: 'item.max_dollars' }), messages: [],
    },
  },
};
const NORTHWIND_HTTP = {
  auth: { kind: 'hmac', header: 'X-Nw-Signature', timestampHeader: 'X-Nw-Timestamp' },
  timeoutMs: 5000,
  operations: {
    prequalify: {
      method: 'POST',
      path: '/v2/credit-checks',
      body: {
        reference: { var: 'app.id' },
        customer: {
          given_name: { var: 'applicant.firstName' }, family_name: { var: 'applicant.lastName' }, birth_date: { var: 'applicant.dob' }, tax_id: { var: 'applicant.ssn' },
          state: { var: 'applicant.address.state' }, yearly_income_dollars: { '/': [{ var: 'applicant.annualIncome' }, 100] },
        },
        requested: { amount_dollars: { '/': [{ var: 'app.amount' }, 100] } },
      },
      outcomes: [{ when: { and: [{ '==': [{ var: 'response.status' }, 422] }, { '==': [{ var: 'response.body.error' }, 'manual_review'] }] }, is: 'PendingReview' }],
      answer: checkAnswer,
    },
    status: { method: 'GET', path: '/v2/credit-checks/{app.lenderAppId}', retries: 1, answer: checkAnswer },
    select: {
      method: 'POST',
      path: '/v2/credit-checks/{app.lenderAppId}/contracts',
      body: { plan_id: { var: 'offer.productCode' }, amount_dollars: { '/': [{ var: 'offer.amount' }, 100] } },
      answer: { contractId: { var: 'response.body.contract_number' } },
    },
    identityQuestions: {
      method: 'GET',
      path: '/v2/credit-checks/{app.lenderAppId}/quiz',
      answer: { questions: { $each: { var: 'response.body.items' }, as: { id: { var: 'item.key' }, text: { var: 'item.prompt' }, choices: { $each: { var: 'item.options' }, as: { id: { var: 'item.key' }, text: { var: 'item.label' } } } } } },
    },
    identityAnswers: {
      method: 'POST',
      path: '/v2/credit-checks/{app.lenderAppId}/quiz',
      body: { responses: { var: 'answers' } },
      answer: { passed: { '==': [{ var: 'response.body.verdict' }, 'PASS'] } },
    },
    refund: {
      method: 'POST',
      path: '/v2/contracts/{app.contractId}/refunds',
      idempotent: true,
      retries: 2,
      body: { amount_dollars: { '/': [{ var: 'refund.amount' }, 100] } },
      answer: { accepted: { '==': [{ var: 'response.body.status' }, 'queued'] }, reference: { var: 'response.body.refund_ref' } },
    },
  },
};

// The one file: Ally's screens, journey and disclosures under Northwind's name, and Northwind's API.
const ally = JSON.parse(readFileSync(new URL('../../screens/lenders/ally.json', import.meta.url), 'utf8')) as Record<string, unknown>;
writeFileSync(join(dir, 'northwind.json'), JSON.stringify({ ...ally, $schema: undefined, code: 'northwind', name: 'Northwind Credit', adapter: 'http', http: NORTHWIND_HTTP }, null, 2));

const applicant = (lastName: string): Applicant => ({
  appId: 7, firstName: 'Pat', lastName, email: 'pat@gmail.com', mobilePhone: '(512) 555-0100', homePhone: null,
  address: { streetAddress: '1234 Cedar Ln', suiteNo: '', city: 'Austin', state: 'TX', zipCode: '78704' },
  dob: '1985-04-12', ssn: '900123456', annualIncome: 60_000_00, additionalIncome: null, monthlyHousingPayment: 1_200_00,
  employmentStatus: 'EmployedFull', employerName: null, monthsEmployed: null, residenceStatus: 'Rent', isActiveMilitary: false, amount: 4_800_00, serviceDate: null,
});
const asked = () => ({ signal: new AbortController().signal, discountRate: 5, deadline: Date.now() + 5000 });
const catalogue = (secret = signingSecret) =>
  lenderCatalogue({ lendersDir: dir, mode: 'production', publicUrl: `https://portal-${secret.slice(0, 6)}.test`, lenderEnv: { LENDER_NORTHWIND_URL: base, LENDER_NORTHWIND_SIGNING_SECRET: secret } });

describe('Northwind Credit: a new API style by one file', () => {
  it('pre-qualifies over signed requests: offers in cents from dollars, a decline with its reason and codes, a review from a 422', async () => {
    const northwind = catalogue().get('northwind')!;
    const approved = await northwind.prequalify(applicant('Smith'), asked());
    expect(approved).toMatchObject({ status: 'Approved', lenderAppId: 'NW-1', approvedAmount: 12_000_00 });
    expect(approved.offers.map((o) => [o.productCode, o.term, o.apr, o.amount, o.minLine, o.maxLine])).toEqual([
      ['NW24', 24, 11.9, 4_800_00, 500_00, 12_000_00],
      ['NW48', 48, 15.9, 4_800_00, 500_00, 12_000_00],
    ]);
    const said = check('NW-1', 'Smith', 4800).plans[0]!;
    expect(approved.offers[0]!.monthlyPayment).toBe(Math.round(said.monthly_dollars * 100)); // its dollars, in cents
    expect(approved.offers[0]!.totalCost).toBe(Math.round(said.total_dollars * 100));
    expect(approved.offers[0]!.discountAmount).toBe(24_000); // the office's 5 % of $4,800, which Northwind does not send

    expect(await northwind.prequalify(applicant('Decline'), asked())).toMatchObject({ status: 'Declined', adverseActionReason: 'Income too low for the amount asked', reasonCodes: ['NW-INC'], approvedAmount: null, offers: [] });
    expect((await northwind.prequalify(applicant('Pending'), asked())).status).toBe('PendingReview');
    expect(seen.every((s) => s.signed)).toBe(true);
  });

  it('opens the contract, runs its own identity quiz, reads its status again, and refunds once per intent', async () => {
    const northwind = catalogue().get('northwind')!;
    const { lenderAppId } = await northwind.prequalify(applicant('Smith'), asked());
    expect(await northwind.select({ appId: 7, lenderAppId, productCode: 'NW24', amount: 4_800_00, returnUrl: 'https://portal.test/#/app/summary/7' })).toEqual({ contractId: `${lenderAppId}-K-NW24`, lenderAppUrl: null });
    const quiz = await northwind.kba({ applicant: applicant('Smith'), lenderAppId });
    expect(quiz).toEqual({ checkedBy: 'lender', questions: [{ id: 'q1', text: 'Which street have you lived on?', choices: [{ id: 'a', text: 'Cedar Ln' }, { id: 'b', text: 'Oak St' }] }] });
    expect(await northwind.checkIdentity!({ appId: 7, lenderAppId, answers: { q1: 'a' } })).toBe(true);
    expect(await northwind.checkIdentity!({ appId: 7, lenderAppId, answers: { q1: 'b' } })).toBe(false);
    expect((await northwind.status({ appId: 7, lenderAppId }))?.decision?.status).toBe('Approved');

    const first = await northwind.refund({ appId: 7, lenderAppId, contractId: `${lenderAppId}-K-NW24`, amount: 250_00, idempotencyKey: 'refund-41' });
    const again = await northwind.refund({ appId: 7, lenderAppId, contractId: `${lenderAppId}-K-NW24`, amount: 250_00, idempotencyKey: 'refund-41' });
    expect(first).toEqual({ accepted: true, reference: 'RF-1' });
    expect(again).toEqual(first);
    expect(seen.filter((s) => s.path.endsWith('/refunds')).map((s) => s.idempotencyKey)).toEqual(['refund-41', 'refund-41']);
  });

  it("is 'Error' for the application, logged without the applicant, when the configured secret is not the lender's", async () => {
    const log: Parameters<LenderLog>[0][] = [];
    const descriptor = catalogue().descriptors.find((d) => d.code === 'northwind')!;
    const settings = { lendersDir: dir, mode: 'production' as const, publicUrl: 'https://portal.test', lenderEnv: { LENDER_NORTHWIND_URL: base, LENDER_NORTHWIND_SIGNING_SECRET: 'not-the-secret' } };
    const answer = await lenderAdapter(descriptor, settings, { log: (entry) => log.push(entry) }).prequalify(applicant('Smith'), asked());
    expect(answer.status).toBe('Error');
    expect(seen.at(-1)).toMatchObject({ path: '/v2/credit-checks', signed: false });
    expect(log).toEqual([{ lender: 'northwind', operation: 'prequalify', reason: 'the lender answered 401' }]);
  });
});
