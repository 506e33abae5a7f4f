import { describe, expect, it } from 'vitest';
import { actuarialApr, amortize, creditTermsOf, disclose, levelPayment } from '../../core/credit.ts';

/** Reg Z §1026.22(a)(2): a regular transaction's APR is accurate within 1/8 of a percentage point. */
const EIGHTH = 0.125;

describe('the annual percentage rate (Reg Z Appendix J, actuarial method, monthly unit period)', () => {
  it('finds the rate of a single advance with an odd last payment: $5,000, 23 × $230 and 1 × $280 → 10.50 %', () => {
    const apr = actuarialApr(500_000, [
      { count: 23, amountCents: 23_000, firstMonth: 1 },
      { count: 1, amountCents: 28_000, firstMonth: 24 },
    ]);
    expect(apr).toBeCloseTo(10.5005, 3);
  });

  it("gives back the note rate of a loan amortised at it (cent rounding moves a small loan's rate, within 1/8 of a point)", () => {
    for (const [principal, rate, months] of [[500_000, 12, 36], [450_000, 26.99, 24], [100_000, 9.99, 60], [30_000, 35.99, 3], [4_000_000, 4.5, 84]] as const) {
      const { payments } = amortize(principal, rate, months);
      const tolerance = principal >= 100_000 ? 0.01 : EIGHTH;
      expect(Math.abs(actuarialApr(principal, payments) - rate), `${principal} at ${rate} % over ${months}`).toBeLessThan(tolerance);
    }
  });

  it('is 0 when the payments repay no more than was advanced', () => {
    expect(actuarialApr(60_000, [{ count: 6, amountCents: 10_000, firstMonth: 1 }])).toBe(0);
  });

  it('counts a financed fee: $4,800 with a 5 % fee at 17.99 % over 36 months is above the note rate', () => {
    const d = disclose({ kind: 'Installment', amountCents: 480_000, feeCents: 24_000, aprPercent: 17.99, termMonths: 36 });
    expect(d.apr).toBeGreaterThan(17.99 + 3 - EIGHTH);
    expect(d.apr).toBeLessThan(17.99 + 4);
    expect(d.financeChargeCents).toBe(d.totalOfPaymentsCents - 480_000);
  });
});

describe('payments in exact cents', () => {
  it('amortises level payments with a last payment that clears the balance', () => {
    expect(levelPayment(1_000_000, 12, 12)).toBe(88_849);
    const { payments, interestCents } = amortize(1_000_000, 12, 12);
    expect(payments[0]).toEqual({ count: 11, amountCents: 88_849, firstMonth: 1 });
    const total = payments.reduce((s, p) => s + p.count * p.amountCents, 0);
    // Principal plus every month's interest, cent for cent.
    expect(total).toBe(1_000_000 + interestCents.reduce((s, c) => s + c, 0));
    expect(Math.abs(payments[1]!.amountCents - 88_849)).toBeLessThan(12);
  });

  it('splits an interest-free plan so the payments add up to the amount', () => {
    expect(amortize(100_000, 0, 3).payments).toEqual([
      { count: 2, amountCents: 33_334, firstMonth: 1 },
      { count: 1, amountCents: 33_332, firstMonth: 3 },
    ]);
    expect(disclose({ kind: 'PaymentPlan', amountCents: 100_000, feeCents: 0, aprPercent: 0, termMonths: 3 })).toMatchObject({ financeChargeCents: 0, totalOfPaymentsCents: 100_000, apr: 0 });
  });

  it('refuses a term that is not a whole number of months', () => {
    expect(() => levelPayment(100, 10, 0)).toThrow(RangeError);
    expect(() => levelPayment(100, 10, 1.5)).toThrow(RangeError);
  });
});

describe('deferred interest', () => {
  it('discloses the regular terms and the promotion beside them: $4,500, 12 months no interest, 26.99 % over 24 months', () => {
    const d = disclose({ kind: 'DeferredInterest', amountCents: 450_000, feeCents: 0, aprPercent: 26.99, termMonths: 24, promoMonths: 12 });
    expect(d.promotion).toMatchObject({ months: 12, monthlyCents: 37_500 });
    // Interest from the start date over the 12 months, on the balance the scheduled payments leave.
    expect(d.promotion!.interestIfUnpaidCents).toBe(amortize(450_000, 26.99, 24).interestCents.slice(0, 12).reduce((s, c) => s + c, 0));
    expect(d.promotion!.interestIfUnpaidCents).toBeGreaterThan(70_000);
    expect(d.apr).toBe(26.99);
    expect(d.payments[0]).toMatchObject({ count: 23, firstMonth: 1 });
    expect(d.amountFinancedCents).toBe(450_000);
  });

  it('has no promotion on other plans', () => {
    expect(disclose({ kind: 'Installment', amountCents: 450_000, feeCents: 0, aprPercent: 9.99, termMonths: 24, promoMonths: 12 }).promotion).toBeNull();
  });
});

describe('an offer as the calculation reads it', () => {
  const offer = { productType: 'Installment', amountCents: 450_000, feeCents: null, apr: 9.99, term: 24, promoTerm: null };
  it('takes the kinds of plan the lender files name, with a missing fee as none', () => {
    expect(creditTermsOf(offer)).toEqual({ kind: 'Installment', amountCents: 450_000, feeCents: 0, aprPercent: 9.99, termMonths: 24, promoMonths: null });
  });
  it('has nothing to disclose for an unknown plan or missing terms', () => {
    expect(creditTermsOf({ ...offer, productType: 'Lease' })).toBeNull();
    expect(creditTermsOf({ ...offer, productType: null })).toBeNull();
    expect(creditTermsOf({ ...offer, apr: null })).toBeNull();
    expect(creditTermsOf({ ...offer, term: 0 })).toBeNull();
  });
});
