import { disclose, type PlanKind } from '../credit.ts';
import type { SandboxProduct } from '../../codegen/generated/descriptors.ts';

/**
 * Pricing of a lender product (its file's `sandbox.products`) in integer cents, by the one credit calculation
 * (core/credit.ts, docs/decisions/0211). Rates are percents, terms months.
 */

/** What an offer row holds (cents, percents, months). */
export interface PricedTerms {
  productCode: string;
  productName: string;
  productType: PlanKind;
  promoTerm: number | null;
  promoApr: number | null;
  noInterestTerm: number | null;
  term: number;
  apr: number;
  interestRate: number;
  amount: number;
  monthlyPayment: number;
  promoMonthlyPayment: number | null;
  originationFee: number;
  totalInterest: number;
  totalCost: number;
  discountRate: number;
  discountAmount: number;
  messages: string[];
}

const percentOf = (cents: number, percent: number) => Math.round((cents * percent) / 100);

/**
 * Installment: the amount plus the origination fee, amortised at the APR. PaymentPlan: the same with
 * (usually) no interest. DeferredInterest: the payment that clears the amount within the promotion,
 * no interest when it is paid so; the APR applies from the purchase date otherwise (the disclosure
 * before signing says how much).
 */
export function priceProduct(product: SandboxProduct, amountCents: number, discountRate: number): PricedTerms {
  const fee = percentOf(amountCents, product.originationFeePercent ?? 0);
  const financed = amountCents + fee;
  const disclosure = disclose({ kind: product.type, amountCents, feeCents: fee, aprPercent: product.apr, termMonths: product.term, promoMonths: product.promoTerm ?? null });
  const base = {
    productCode: product.code,
    productName: product.name,
    productType: product.type,
    apr: product.apr,
    interestRate: product.apr,
    amount: amountCents,
    originationFee: fee,
    discountRate,
    discountAmount: percentOf(amountCents, discountRate),
    term: product.term,
    messages: product.messages ?? [],
  };
  if (disclosure.promotion) {
    return {
      ...base,
      promoTerm: disclosure.promotion.months,
      promoApr: product.promoApr ?? 0,
      noInterestTerm: disclosure.promotion.months,
      monthlyPayment: disclosure.promotion.monthlyCents,
      promoMonthlyPayment: disclosure.promotion.monthlyCents,
      totalInterest: 0,
      totalCost: financed,
    };
  }
  return {
    ...base,
    promoTerm: null,
    promoApr: null,
    noInterestTerm: product.apr === 0 ? product.term : null,
    monthlyPayment: disclosure.payments[0]!.amountCents,
    promoMonthlyPayment: null,
    totalInterest: Math.max(0, disclosure.totalOfPaymentsCents - financed),
    totalCost: disclosure.totalOfPaymentsCents,
  };
}

/**
 * An offer a lender made, priced again for another amount within its line by the same calculation (GetOffers?amount=):
 * its plan, rate, terms and fee share are the lender's; only the amount changes. Null outside the line.
 */
export function repriceTerms(offer: PricedTerms & { minLine: number; maxLine: number }, amountCents: number, discountRate: number): PricedTerms | null {
  if (amountCents < offer.minLine || amountCents > offer.maxLine || offer.amount <= 0) return null;
  const product: SandboxProduct = {
    code: offer.productCode,
    name: offer.productName,
    type: offer.productType,
    term: offer.term,
    apr: offer.apr,
    ...(offer.promoTerm === null ? {} : { promoTerm: offer.promoTerm }),
    ...(offer.promoApr === null ? {} : { promoApr: offer.promoApr }),
    originationFeePercent: (offer.originationFee * 100) / offer.amount,
    minAmount: 0,
    maxAmount: offer.maxLine / 100,
    messages: offer.messages,
  };
  return priceProduct(product, amountCents, discountRate);
}
