import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { chain, verifyChain, type ChainedEvent } from '../../server/esign/audit.ts';
import { consentText, sha256Hex } from '../../server/esign/consent.ts';
import { speakerFor } from '../../server/descriptors/languages.ts';
import { condition, evaluate } from '../../core/expressions.ts';

const holds = (expression: unknown, facts: Record<string, unknown>) => condition(expression, facts, false);
import { loadLenderFiles } from '../../core/lenders/descriptor.ts';
import { priceProduct } from '../../core/lenders/payments.ts';
import { sandboxAdapter, sandboxSiteUrl } from '../../server/lenders/sandbox.ts';
import { sandboxKba, streetName } from '../../core/lenders/identity-questions.ts';
import type { Applicant } from '../../server/lenders/types.ts';
import { askLenders } from '../../server/lenders/waterfall.ts';

const descriptors = loadLenderFiles(join(process.cwd(), 'screens', 'lenders'));
/** Where the sandbox lenders' pages are in these tests. */
const SITE = 'https://portal.test/sandbox/lenders';
/** The same lenders with no simulated latency, for fast decisions. */
const adapters = new Map(descriptors.map((d) => [d.code, sandboxAdapter({ ...d, sandbox: { ...d.sandbox, latencyMs: 0 } }, SITE)]));

function applicant(overrides: Partial<Applicant> = {}): Applicant {
  return {
    appId: 1, firstName: 'Pat', lastName: 'Applicant', email: 'pat@gmail.com', mobilePhone: '(512) 555-0100', homePhone: null,
    address: { streetAddress: '1234 Cedar Ln', suiteNo: null, city: 'Austin', state: 'TX', zipCode: '78704' },
    dob: '1985-04-12', ssn: '900123456', annualIncome: 52_000_00, additionalIncome: null, monthlyHousingPayment: 1_200_00,
    employmentStatus: 'EmployedFull', employerName: null, monthsEmployed: null, residenceStatus: 'Rent', isActiveMilitary: false,
    amount: 4_800_00, serviceDate: null, ...overrides,
  };
}

const signal = () => new AbortController().signal;
const ask = (code: string, who: Applicant) => adapters.get(code)!.prequalify(who, { signal: signal(), discountRate: null, deadline: Date.now() + 10_000 });

describe('the lender files', () => {
  it('are the eight lenders of spec §2, each valid against the meta-schema with its journey, offer columns and sandbox', () => {
    expect(descriptors.map((d) => d.code)).toEqual(['ally', 'cleargage', 'covered', 'gsky', 'lpoint', 'lusa', 'powerpay', 'upg']);
    for (const d of descriptors) {
      expect(d.offerColumns.length, d.code).toBeGreaterThan(0);
      expect(d.sandbox.products.length, d.code).toBeGreaterThan(0);
      expect(d.journey.steps.every((step) => d.routes.some((r) => r.step === step)), d.code).toBe(true);
    }
    expect(descriptors.find((d) => d.code === 'gsky')!.journey).toMatchObject({ sign: 'agreement', done: 'cta' });
    expect(descriptors.filter((d) => d.journey.esign === 'lender').map((d) => d.code)).toEqual(['covered', 'upg']);
  });
});

describe('the expression language of the sandbox rules', () => {
  it('evaluates comparisons, logic and variables as data', () => {
    const facts = { lastNameLower: 'decline', annualIncome: 30000, amount: 5000, employmentStatus: 'UnEmployed' };
    expect(holds({ '==': [{ var: 'lastNameLower' }, 'decline'] }, facts)).toBe(true);
    expect(holds({ and: [{ '>=': [{ var: 'annualIncome' }, 30000] }, { '<=': [{ var: 'amount' }, 10000] }] }, facts)).toBe(true);
    expect(holds({ or: [{ '<': [{ var: 'annualIncome' }, 100] }, { in: [{ var: 'employmentStatus' }, ['Retired', 'Student']] }] }, facts)).toBe(false);
    expect(evaluate({ if: [{ '>': [{ var: 'amount' }, 9000] }, 'big', 'small'] }, facts)).toBe('small');
    expect(evaluate({ '*': [{ var: 'amount' }, 2] }, facts)).toBe(10000);
    expect(evaluate({ var: ['missing.path', 'fallback'] }, facts)).toBe('fallback');
    expect(() => evaluate({ eval: ['1+1'] } as never, facts)).toThrow(/not an expression/);
  });
});

describe('pricing', () => {
  it('amortises an installment loan in cents, splits a promotion, adds a fee', () => {
    const installment = priceProduct({ code: 'I', name: 'I', type: 'Installment', term: 36, apr: 17.99, minAmount: 0, maxAmount: 1e6 }, 480_000, 5);
    expect(installment).toMatchObject({ monthlyPayment: 17_351, discountAmount: 24_000, promoTerm: null });
    // The last payment clears the balance to the cent (core/credit.ts), so the total is within a dollar of 36 × the payment.
    expect(Math.abs(installment.totalCost - 17_351 * 36)).toBeLessThan(100);
    expect(installment.totalInterest).toBe(installment.totalCost - 480_000);
    const promo = priceProduct({ code: 'P', name: 'P', type: 'DeferredInterest', term: 24, promoTerm: 12, promoApr: 0, apr: 26.99, minAmount: 0, maxAmount: 1e6 }, 480_000, 0);
    expect(promo).toMatchObject({ monthlyPayment: 40_000, promoMonthlyPayment: 40_000, totalInterest: 0, promoTerm: 12, noInterestTerm: 12 });
    const plan = priceProduct({ code: 'C', name: 'C', type: 'PaymentPlan', term: 6, apr: 0, originationFeePercent: 2, minAmount: 0, maxAmount: 1e6 }, 60_000, 0);
    expect(plan).toMatchObject({ originationFee: 1_200, monthlyPayment: 10_200, totalInterest: 0 });
  });
});

describe('the sandbox adapter', () => {
  it("declines 'Decline' at every lender and sends 'Pending' to review, whatever else the form says", async () => {
    for (const code of adapters.keys()) {
      expect((await ask(code, applicant({ lastName: 'Decline' }))).status, code).toBe('Declined');
      expect((await ask(code, applicant({ lastName: 'pending', annualIncome: 900_000_00 }))).status, code).toBe('PendingReview');
    }
  });

  it('gives offers from at least three lenders of each demo office to any income of 30,000+ with an amount up to 10,000', async () => {
    const offices = [['ally', 'gsky', 'lpoint', 'lusa', 'powerpay', 'upg'], ['cleargage', 'covered', 'gsky', 'lpoint', 'powerpay', 'upg']];
    const amounts = [25, 99, 300, 999, 1000, 2500, 7300, 10000];
    const incomes = [30000, 45000, 250000];
    const variants: Partial<Applicant>[] = [{}, { employmentStatus: 'UnEmployed', monthlyHousingPayment: 5_000_00 }, { residenceStatus: 'Own', dob: '2000-01-01' }];
    for (const codes of offices) {
      for (const amount of amounts) {
        for (const income of incomes) {
          for (const variant of variants) {
            const who = applicant({ ...variant, amount: amount * 100, annualIncome: income * 100 });
            const answers = await Promise.all(codes.map((code) => ask(code, who)));
            const offering = answers.filter((a) => a.status === 'Approved' && a.offers.length > 0);
            expect(offering.length, `${codes.join(',')} ${amount} ${income} ${JSON.stringify(variant)}`).toBeGreaterThanOrEqual(3);
            for (const answer of offering) for (const offer of answer.offers) expect(offer.amount).toBe(amount * 100);
          }
        }
      }
    }
  });

  it('writes identity questions whose right answers are what the borrower entered, among plausible others', () => {
    const who = applicant();
    const questions = sandboxKba(who);
    expect(questions.map((q) => q.id)).toEqual(['street', 'city', 'birthYear', 'zip']);
    const right = Object.fromEntries(questions.map((q) => [q.id, q.choices.find((c) => c.id === q.answerId)!.text]));
    expect(right).toEqual({ street: 'Cedar Ln', city: 'Austin', birthYear: '1985', zip: '78704' });
    for (const q of questions) {
      expect(q.choices).toHaveLength(4);
      expect(new Set(q.choices.map((c) => c.text.toLowerCase())).size).toBe(4);
    }
    expect(streetName('77B Maple Ave Apt 5')).toBe('Maple Ave Apt 5');
  });

  it("links its answers to its own pages on the portal's site, or to nothing where those are not served", async () => {
    const answer = await ask('upg', applicant());
    expect(answer.lenderAppUrl).toBe(`${SITE}/upg/applications/${answer.lenderAppId}`);
    expect(answer.offers[0]!.url).toBe(`${answer.lenderAppUrl}#${answer.offers[0]!.productCode.toLowerCase()}`);
    const upg = adapters.get('upg')!;
    expect((await upg.esignDocuments({ appId: 1, lenderAppId: null, contractId: 'C', lenderAppUrl: answer.lenderAppUrl })).url).toBe(`${answer.lenderAppUrl}/sign`);
    const siteless = sandboxAdapter({ ...upg.descriptor, sandbox: { ...upg.descriptor.sandbox, latencyMs: 0 } }, null);
    const elsewhere = await siteless.prequalify(applicant(), { signal: signal(), discountRate: null, deadline: Date.now() + 10_000 });
    expect([elsewhere.lenderAppUrl, elsewhere.offers[0]!.url]).toEqual([null, null]);
    expect((await siteless.esignDocuments({ appId: 1, lenderAppId: null, contractId: 'C', lenderAppUrl: null })).url).toBeNull();
    expect(sandboxSiteUrl({ mode: 'demo', publicUrl: 'https://portal.test' })).toBe(SITE);
    expect(sandboxSiteUrl({ mode: 'production', publicUrl: 'https://portal.test' })).toBeNull();
  });

  it('times a slow lender out in the waterfall without waiting for it', async () => {
    const gsky = descriptors.find((d) => d.code === 'gsky')!;
    const slow = sandboxAdapter({ ...gsky, sandbox: { ...gsky.sandbox, latencyMs: 10_000 } }, SITE);
    const failing = sandboxAdapter({ ...gsky, code: 'failing', sandbox: { ...gsky.sandbox, latencyMs: 0, failureRate: 1 } }, SITE);
    const started = performance.now();
    const answers = await askLenders([{ adapter: slow, lenderId: 1, discountRate: null }, { adapter: failing, lenderId: 2, discountRate: null }, { adapter: adapters.get('ally')!, lenderId: 3, discountRate: 4 }], applicant(), 150);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(answers.map((a) => a.status)).toEqual(['TimedOut', 'Error', 'Approved']);
    expect(answers[2]!.offers.every((o) => o.discountRate === 4)).toBe(true);
  });
});

describe('the e-sign audit trail and consent', () => {
  it('chains events by hash so that any change breaks the chain', () => {
    const events: ChainedEvent[] = [];
    for (const type of ['documents-generated', 'opened', 'consented', 'signed'] as const) {
      events.push(chain(events[events.length - 1], { type, at: new Date(1_700_000_000_000 + events.length).toISOString(), ip: '203.0.113.5', userAgent: 'UA', contractId: 'C-1', data: { n: events.length } }));
    }
    expect(events[0]!.prevHash).toBe('0'.repeat(64));
    expect(verifyChain(events)).toBe(true);
    expect(verifyChain([events[0]!, events[2]!, events[1]!, events[3]!])).toBe(false);
    expect(verifyChain(events.map((e, i) => (i === 1 ? { ...e, ip: '198.51.100.1' } : e)))).toBe(false);
    expect(verifyChain(events.slice(1))).toBe(false);
  });

  it('states the 15 USC 7001(c) disclosures and hashes the exact text', () => {
    const text = consentText({ lenderName: 'Ally Lending', lenderPhone: '(800) 555-0101', officeName: 'Bright Smiles', email: 'pat@gmail.com' }, speakerFor(null));
    for (const part of ['paper', 'free of charge', 'withdraw', 'Scope of this consent', 'contact details', 'paper copy', 'Hardware and software', 'pat@gmail.com']) {
      expect(text).toContain(part);
    }
    expect(sha256Hex(text)).toMatch(/^[0-9a-f]{64}$/);
    expect(sha256Hex(text)).toBe(sha256Hex(consentText({ lenderName: 'Ally Lending', lenderPhone: '(800) 555-0101', officeName: 'Bright Smiles', email: 'pat@gmail.com' }, speakerFor(null))));
  });
});
