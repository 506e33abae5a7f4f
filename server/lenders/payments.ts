/**
 * Pricing of a lender product in integer cents (docs/decisions/0010: no arithmetic on binary floats
 * for money beyond the one rounding of a payment). Rates are percents, terms months.
 */
export type ProductType = 'Installment' | 'DeferredInterest' | 'PaymentPlan';

export interface ProductDefinition {
  code: string;
  name: string;
  type: ProductType;
  term: number;
  apr: number;
  promoTerm?: number;
  promoApr?: number;
  originationFeePercent?: number;
  minAmount: number;
  maxAmount: number;
  discountRate?: number;
  messages?: string[];
}

/** What an offer row holds (cents, percents, months). */
export interface PricedTerms {
  productCode: string;
  productName: string;
  productType: ProductType;
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

/** The level monthly payment, in cents, of `principal` cents at `aprPercent` over `months`. */
export function amortizedPayment(principal: number, aprPercent: number, months: number): number {
  if (months <= 0) throw new RangeError('a term is at least one month');
  if (aprPercent === 0) return Math.ceil(principal / months);
  const r = aprPercent / 100 / 12;
  return Math.round((principal * r) / (1 - (1 + r) ** -months));
}

const percentOf = (cents: number, percent: number) => Math.round((cents * percent) / 100);

/**
 * Installment: the amount plus the origination fee, amortised at the APR. PaymentPlan: the same with
 * (usually) no interest. DeferredInterest: the payment that clears the amount within the promotion,
 * no interest when it is paid so; the APR applies from the purchase date otherwise (shown in the
 * messages and the agreement).
 */
export function priceProduct(product: ProductDefinition, amountCents: number, discountRate: number): PricedTerms {
  const fee = percentOf(amountCents, product.originationFeePercent ?? 0);
  const discountAmount = percentOf(amountCents, discountRate);
  const base = {
    productCode: product.code,
    productName: product.name,
    productType: product.type,
    apr: product.apr,
    interestRate: product.apr,
    amount: amountCents,
    originationFee: fee,
    discountRate,
    discountAmount,
    messages: product.messages ?? [],
  };
  if (product.type === 'DeferredInterest' && product.promoTerm) {
    const payment = Math.ceil((amountCents + fee) / product.promoTerm);
    return {
      ...base,
      promoTerm: product.promoTerm,
      promoApr: product.promoApr ?? 0,
      noInterestTerm: product.promoTerm,
      term: product.term,
      monthlyPayment: payment,
      promoMonthlyPayment: payment,
      totalInterest: 0,
      totalCost: amountCents + fee,
    };
  }
  const financed = amountCents + fee;
  const payment = amortizedPayment(financed, product.apr, product.term);
  const totalCost = payment * product.term;
  return {
    ...base,
    promoTerm: null,
    promoApr: null,
    noInterestTerm: product.apr === 0 ? product.term : null,
    term: product.term,
    monthlyPayment: payment,
    promoMonthlyPayment: null,
    totalInterest: Math.max(0, totalCost - financed),
    totalCost,
  };
}
