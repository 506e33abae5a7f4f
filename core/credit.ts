/**
 * The one credit calculation (issue 19, docs/decisions/0211): every figure a borrower or an office is shown — the
 * offer cards, the federal (Truth in Lending) box before signing, the examples on landing pages — comes from here, in
 * integer cents. Rates are percents a year, terms months; the unit period is the month (Reg Z Appendix J (b)(4)).
 */
import type { SandboxProduct } from '../codegen/generated/descriptors.ts';

/** The kinds of plan, as the lender files' products name them (screens/_meta/lender.schema.json). */
export type PlanKind = SandboxProduct['type'];
const PLAN_KINDS = { Installment: true, DeferredInterest: true, PaymentPlan: true } satisfies Record<PlanKind, true>;
export const isPlanKind = (kind: string | null): kind is PlanKind => kind !== null && Object.hasOwn(PLAN_KINDS, kind);

export interface CreditTerms {
  kind: PlanKind;
  /** The treatment's cost the borrower finances, in cents: the amount financed. */
  amountCents: number;
  /** A prepaid finance charge added to the loan (the origination fee), in cents. */
  feeCents: number;
  /** The note rate, percent a year. For deferred interest, the regular rate charged from the start if unpaid. */
  aprPercent: number;
  termMonths: number;
  /** Deferred interest: the months within which paying in full costs no interest. */
  promoMonths?: number | null;
}

/**
 * The terms of an offer as stored (cents, percents, months); null for a plan kind the calculation does not know or
 * an offer without its terms.
 */
export function creditTermsOf(offer: { productType: string | null; amountCents: number | null; feeCents: number | null; apr: number | null; term: number | null; promoTerm: number | null }): CreditTerms | null {
  const { productType, amountCents, apr, term } = offer;
  if (amountCents === null || apr === null || !term || !isPlanKind(productType)) return null;
  return { kind: productType, amountCents, feeCents: offer.feeCents ?? 0, aprPercent: apr, termMonths: term, promoMonths: offer.promoTerm };
}

/** `count` payments of `amountCents`, the first of them due at the end of month `firstMonth`. */
export interface PaymentRun {
  count: number;
  amountCents: number;
  firstMonth: number;
}

export interface Promotion {
  months: number;
  /** What pays the loan in full within the promotion, each month (the last payment may be smaller). */
  monthlyCents: number;
  /** Interest charged from the start date if the loan is not paid in full within the promotion. */
  interestIfUnpaidCents: number;
}

/** Reg Z §1026.18: what the borrower is told before signing. */
export interface Disclosure {
  amountFinancedCents: number;
  financeChargeCents: number;
  totalOfPaymentsCents: number;
  /** Percent, to two decimals, by the actuarial method (Appendix J). */
  apr: number;
  payments: PaymentRun[];
  promotion: Promotion | null;
}

/** Half up to the cent; money never rides on more than one rounding per step (docs/decisions/0010). */
const cents = (value: number) => Math.round(value);

/** The level monthly payment, in cents, that repays `principalCents` at `aprPercent` over `months`. */
export function levelPayment(principalCents: number, aprPercent: number, months: number): number {
  if (!Number.isInteger(months) || months <= 0) throw new RangeError('a term is a whole number of months, at least one');
  if (aprPercent === 0) return Math.ceil(principalCents / months);
  const r = aprPercent / 1200;
  return cents((principalCents * r) / (1 - (1 + r) ** -months));
}

/**
 * The schedule of a loan: level payments, interest on the balance each month rounded to the cent, and a last payment
 * that clears what is left (so the total of payments is exact, not payment × term).
 */
export function amortize(principalCents: number, aprPercent: number, months: number): { payments: PaymentRun[]; interestCents: number[] } {
  const level = levelPayment(principalCents, aprPercent, months);
  const r = aprPercent / 1200;
  const interestCents: number[] = [];
  let balance = principalCents;
  let last = 0;
  for (let month = 1; month <= months; month++) {
    const interest = cents(balance * r);
    interestCents.push(interest);
    const payment = month === months ? balance + interest : Math.min(level, balance + interest);
    balance += interest - payment;
    if (month === months) last = payment;
  }
  const regular = months - 1;
  const payments =
    regular === 0 || last === level
      ? [{ count: months, amountCents: level, firstMonth: 1 }]
      : [
          { count: regular, amountCents: level, firstMonth: 1 },
          { count: 1, amountCents: last, firstMonth: months },
        ];
  return { payments: payments.filter((p) => p.amountCents > 0), interestCents };
}

/** What the payments are worth at the start, discounted at `monthlyRate` (Appendix J (b)(8), single advance). */
function presentValue(payments: readonly PaymentRun[], monthlyRate: number): number {
  let total = 0;
  for (const run of payments) {
    for (let k = 0; k < run.count; k++) total += run.amountCents / (1 + monthlyRate) ** (run.firstMonth + k);
  }
  return total;
}

/**
 * The annual percentage rate of a single advance repaid by `payments`: the monthly rate at which the payments are
 * worth the amount financed, times 12 (Appendix J (b)(1)), found by halving an interval to well within the 1/8 of a
 * point §1026.22(a)(2) allows. Percent, unrounded.
 */
export function actuarialApr(amountFinancedCents: number, payments: readonly PaymentRun[]): number {
  const total = payments.reduce((sum, run) => sum + run.count * run.amountCents, 0);
  if (amountFinancedCents <= 0 || total <= amountFinancedCents) return 0;
  let low = 0;
  let high = 1;
  while (presentValue(payments, high) > amountFinancedCents) high *= 2;
  for (let i = 0; i < 80; i++) {
    const mid = (low + high) / 2;
    if (presentValue(payments, mid) > amountFinancedCents) low = mid;
    else high = mid;
  }
  return ((low + high) / 2) * 1200;
}

/** Rounded to two decimals, as disclosed. */
const twoDecimals = (value: number) => Math.round(value * 100) / 100;

/**
 * The disclosure of a plan. The fee is financed with the loan and is part of the finance charge. A deferred-interest
 * plan is disclosed by its legal obligation — the regular rate from the start over the whole term — with the
 * promotion beside it: what pays it off within the promotion, and the interest charged from the start if it is not.
 */
export function disclose(terms: CreditTerms): Disclosure {
  const principal = terms.amountCents + terms.feeCents;
  const { payments, interestCents } = amortize(principal, terms.aprPercent, terms.termMonths);
  const totalOfPaymentsCents = payments.reduce((sum, run) => sum + run.count * run.amountCents, 0);
  const promoMonths = terms.kind === 'DeferredInterest' ? (terms.promoMonths ?? null) : null;
  return {
    amountFinancedCents: terms.amountCents,
    financeChargeCents: totalOfPaymentsCents - terms.amountCents,
    totalOfPaymentsCents,
    apr: twoDecimals(actuarialApr(terms.amountCents, payments)),
    payments,
    promotion: promoMonths
      ? {
          months: promoMonths,
          monthlyCents: Math.ceil(principal / promoMonths),
          interestIfUnpaidCents: interestCents.slice(0, promoMonths).reduce((sum, c) => sum + c, 0),
        }
      : null,
  };
}
