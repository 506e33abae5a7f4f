/**
 * A lender's mapped answer read into the adapter's types (issue 38): the file's `answer` template has made an object
 * of plain names; here every value is checked for the kind the portal needs — money in integer cents, rates, months,
 * dates — and a value that does not fit is a MappingError naming its place in the mapping.
 */
import type { CreditScoreUsed, KbaQuestionDraft, OfferTerms, PrequalAnswer } from '../../../core/lenders/terms.ts';
import { MappingError, read } from './mapping.ts';

const DECISIONS = ['Approved', 'Declined', 'PendingReview', 'Error'] as const;
const PLAN_KINDS = ['Installment', 'DeferredInterest', 'PaymentPlan'] as const;

type Fields = Record<string, unknown>;

function fields(value: unknown, place: string): Fields {
  if (value && typeof value === 'object' && !Array.isArray(value)) return value as Fields;
  throw new MappingError(place, 'expected an object');
}

const optionalNumber = (value: unknown, place: string) => (value === null || value === undefined ? null : read.number(value, place));

function offerOf(value: unknown, place: string, discountRate: number | null): OfferTerms {
  const o = fields(value, place);
  const at = (name: string) => `${place}/${name}`;
  const amount = read.cents(o.amount, at('amount'));
  const discount = o.discountRate === undefined || o.discountRate === null ? (discountRate ?? 0) : read.number(o.discountRate, at('discountRate'));
  return {
    productCode: read.text(o.productCode, at('productCode')),
    productName: read.text(o.productName, at('productName')),
    productType: read.oneOf(o.productType, PLAN_KINDS, at('productType')),
    amount,
    apr: read.number(o.apr, at('apr')),
    interestRate: o.interestRate === undefined ? read.number(o.apr, at('apr')) : read.number(o.interestRate, at('interestRate')),
    term: read.number(o.term, at('term')),
    promoTerm: optionalNumber(o.promoTerm, at('promoTerm')),
    promoApr: optionalNumber(o.promoApr, at('promoApr')),
    noInterestTerm: optionalNumber(o.noInterestTerm, at('noInterestTerm')),
    monthlyPayment: read.cents(o.monthlyPayment, at('monthlyPayment')),
    promoMonthlyPayment: read.optionalCents(o.promoMonthlyPayment, at('promoMonthlyPayment')),
    originationFee: read.optionalCents(o.originationFee, at('originationFee')) ?? 0,
    totalInterest: read.optionalCents(o.totalInterest, at('totalInterest')) ?? 0,
    totalCost: read.cents(o.totalCost, at('totalCost')),
    discountRate: discount,
    discountAmount: read.optionalCents(o.discountAmount, at('discountAmount')) ?? Math.round((amount * discount) / 100),
    messages: read.list(o.messages, at('messages')).map((m, i) => read.text(m, `${at('messages')}/${i}`)),
    minLine: read.cents(o.minLine, at('minLine')),
    maxLine: read.cents(o.maxLine, at('maxLine')),
    url: read.optionalText(o.url, at('url')),
    isDefault: o.isDefault === true,
  };
}

function creditScoreOf(value: unknown, place: string): CreditScoreUsed | undefined {
  if (value === null || value === undefined) return undefined;
  const s = fields(value, place);
  const at = (name: string) => `${place}/${name}`;
  return {
    value: read.number(s.value, at('value')),
    low: read.number(s.low, at('low')),
    high: read.number(s.high, at('high')),
    model: read.text(s.model, at('model')),
    source: read.text(s.source, at('source')),
    date: read.text(s.date, at('date')),
    factors: read.list(s.factors, at('factors')).map((f, i) => read.text(f, `${at('factors')}/${i}`)),
  };
}

/** A pre-qualification's mapped answer as the waterfall takes it. */
export function prequalAnswerOf(mapped: unknown, place: string, discountRate: number | null): PrequalAnswer {
  const a = fields(mapped, place);
  const at = (name: string) => `${place}/${name}`;
  const creditScore = creditScoreOf(a.creditScore, at('creditScore'));
  return {
    status: read.oneOf(a.status, DECISIONS, at('status')),
    lenderAppId: read.optionalText(a.lenderAppId, at('lenderAppId')),
    lenderAppUrl: read.optionalText(a.lenderAppUrl, at('lenderAppUrl')),
    adverseActionReason: read.optionalText(a.reason, at('reason')),
    reasonCodes: read.list(a.reasonCodes, at('reasonCodes')).map((c, i) => read.text(c, `${at('reasonCodes')}/${i}`)),
    approvedAmount: read.optionalCents(a.approvedAmount, at('approvedAmount')),
    offers: read.list(a.offers, at('offers')).map((offer, i) => offerOf(offer, `${at('offers')}/${i}`, discountRate)),
    expiresAt: read.optionalDate(a.expiresAt, at('expiresAt')),
    ...(creditScore ? { creditScore } : {}),
  };
}

/** The identity questions a lender asks, as its mapped answer lists them ({questions: [{id, text, choices: [{id, text}]}]}). */
export function identityQuestionsOf(mapped: unknown, place: string): Omit<KbaQuestionDraft, 'answerId'>[] {
  const questions = read.list(fields(mapped, place).questions, `${place}/questions`);
  if (questions.length === 0) throw new MappingError(`${place}/questions`, 'expected at least one question');
  return questions.map((value, i) => {
    const at = `${place}/questions/${i}`;
    const q = fields(value, at);
    const choices = read.list(q.choices, `${at}/choices`).map((choice, j) => {
      const c = fields(choice, `${at}/choices/${j}`);
      return { id: read.text(c.id, `${at}/choices/${j}/id`), text: read.text(c.text, `${at}/choices/${j}/text`) };
    });
    if (choices.length < 2) throw new MappingError(`${at}/choices`, 'expected at least two choices');
    return { id: read.text(q.id, `${at}/id`), text: read.text(q.text, `${at}/text`), choices };
  });
}
