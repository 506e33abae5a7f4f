import { randomBytes } from 'node:crypto';
// The descriptors' one expression language, the same interpreter the web app runs (docs/decisions/0040).
import { condition } from '../expressions.ts';
import type { SandboxProduct } from '../../codegen/generated/descriptors.ts';
import type { LenderDescriptor, SandboxSettings } from './descriptor.ts';
import { priceProduct, type PricedTerms } from './payments.ts';
import type { Applicant, CreditScoreUsed, OfferTerms, PrequalAnswer } from './terms.ts';

/**
 * The sandbox lenders' underwriting: every answer comes from the lender's JSON (screens/lenders/<code>.json,
 * `sandbox`). Rules decide, products are priced for the requested amount. The in-process sandbox adapter
 * (server/lenders/sandbox.ts) and the lender service (lender-service/, decision 0259) both decide here, so a lender
 * answers the same whichever plays it; how long it takes and how it fails is each player's own.
 */

function ageOn(dob: string, today: Date): number {
  const [year, month, day] = dob.split('-').map(Number) as [number, number, number];
  let age = today.getUTCFullYear() - year;
  if (today.getUTCMonth() + 1 < month || (today.getUTCMonth() + 1 === month && today.getUTCDate() < day)) age -= 1;
  return age;
}

/** The facts a rule may test (dollars, as people write rules). */
function applicantFacts(applicant: Applicant): Record<string, unknown> {
  const annualIncome = applicant.annualIncome / 100;
  const additionalIncome = (applicant.additionalIncome ?? 0) / 100;
  const monthlyIncome = (annualIncome + additionalIncome) / 12;
  const housing = (applicant.monthlyHousingPayment ?? 0) / 100;
  return {
    firstName: applicant.firstName,
    lastName: applicant.lastName,
    lastNameLower: applicant.lastName.trim().toLowerCase(),
    age: ageOn(applicant.dob, new Date()),
    state: applicant.address.state,
    annualIncome,
    additionalIncome,
    monthlyIncome,
    monthlyHousingPayment: housing,
    housingRatio: monthlyIncome > 0 ? housing / monthlyIncome : 1,
    employmentStatus: applicant.employmentStatus,
    residenceStatus: applicant.residenceStatus,
    isActiveMilitary: applicant.isActiveMilitary,
    amount: applicant.amount / 100,
  };
}

/** A lender's own id for a new application. */
export const newLenderAppId = (code: string) => `${code.toUpperCase()}-${randomBytes(5).toString('hex').toUpperCase()}`;

/** A simulated lender latency of the file: fixed, or drawn from its range. */
export function latencyOf(settings: SandboxSettings): number {
  const latency = settings.latencyMs;
  if (typeof latency === 'number') return latency;
  return latency.min + Math.floor(Math.random() * (latency.max - latency.min + 1));
}

const roundUpTo = (cents: number, step: number) => Math.ceil(cents / step) * step;

/** What the decision of one application needs besides the applicant: its id at the lender and the lender's page of it. */
export interface DecisionContext {
  lenderAppId: string;
  /** The lender's page of the application, if it has pages; offers link into it. */
  lenderAppUrl: string | null;
  /** The office's merchant discount rate with this lender; null: each product's own. */
  discountRate: number | null;
}

export function declinedAnswer(lenderAppId: string | null, reason: string, reasonCode?: string): PrequalAnswer {
  return { status: 'Declined', lenderAppId, lenderAppUrl: null, adverseActionReason: reason, reasonCodes: reasonCode ? [reasonCode] : [], approvedAmount: null, offers: [], expiresAt: null };
}

const discountOf = (product: SandboxProduct, officeRate: number | null) => officeRate ?? product.discountRate ?? 0;

/**
 * The plans for the amount asked, or, with `counter` (a rule's approvedAmount, cents) below it, for that amount: a
 * counteroffer, whose `reason` the adverse-action notice quotes if it is not taken.
 */
export function offersFor(descriptor: LenderDescriptor, applicant: Applicant, context: DecisionContext, counter?: { cents: number; reason: string | null }): PrequalAnswer {
  const settings = descriptor.sandbox;
  const { lenderAppId, lenderAppUrl } = context;
  const asked = applicant.amount;
  const range = descriptor.eligibility.amount;
  if (asked < Math.round(range.min * 100) || asked > Math.round(range.max * 100)) {
    return declinedAnswer(lenderAppId, `Requested amount outside the lender's range ($${range.min}–$${range.max})`, 'AMOUNT');
  }
  const countered = counter !== undefined && counter.cents < asked;
  const amount = countered ? counter.cents : asked;
  const line = countered ? amount : Math.min(Math.round(range.max * 100), Math.max(amount, roundUpTo(applicant.annualIncome * (settings.lineToIncome ?? 0.2), 10_000)));
  const fitting = settings.products.filter((p) => amount >= Math.round(p.minAmount * 100) && amount <= Math.round(p.maxAmount * 100));
  if (fitting.length === 0) return declinedAnswer(lenderAppId, 'No plan is available for the amount requested', 'PRODUCT');
  const offers: OfferTerms[] = fitting.map((product, index) => ({
    ...priceProduct(product, amount, discountOf(product, context.discountRate)),
    minLine: Math.round(product.minAmount * 100),
    maxLine: Math.min(line, Math.round(product.maxAmount * 100)),
    // The offer on the lender's page of the application (its row there has the product's code as id).
    url: lenderAppUrl && `${lenderAppUrl}#${product.code.toLowerCase()}`,
    isDefault: index === 0,
  }));
  return {
    status: 'Approved',
    lenderAppId,
    lenderAppUrl,
    adverseActionReason: countered ? counter.reason : null,
    reasonCodes: [],
    approvedAmount: line,
    offers,
    expiresAt: new Date(Date.now() + (settings.offerDays ?? 30) * 86_400_000),
  };
}

/** The score a rule says was used, on the scale of the lender's bureau (none without one). */
function scoreUsed(descriptor: LenderDescriptor, score: { value: number; factors: string[] } | undefined): { creditScore?: CreditScoreUsed } {
  const bureau = descriptor.eligibility.creditBureau;
  if (!score || !bureau?.scoreModel) return {};
  const { low, high, name: model } = bureau.scoreModel;
  return { creditScore: { value: score.value, low, high, model, source: bureau.name, date: new Date().toISOString().slice(0, 10), factors: score.factors } };
}

/** The lender's pre-qualification answer: the first rule that holds decides; without one, or with an approval, its plans are priced. */
export function sandboxDecision(descriptor: LenderDescriptor, applicant: Applicant, context: DecisionContext): PrequalAnswer {
  const { lenderAppId } = context;
  const rule = descriptor.sandbox.rules.find((candidate) => condition(candidate.when, applicantFacts(applicant), false));
  if (rule && rule.decision !== 'Approved') {
    if (rule.decision === 'Declined') return { ...declinedAnswer(lenderAppId, rule.reason ?? 'Declined by the lender', rule.reasonCode), ...scoreUsed(descriptor, rule.score) };
    return {
      status: rule.decision,
      lenderAppId,
      lenderAppUrl: context.lenderAppUrl,
      adverseActionReason: rule.reason ?? null,
      reasonCodes: rule.reasonCode ? [rule.reasonCode] : [],
      approvedAmount: null,
      offers: [],
      expiresAt: null,
    };
  }
  const counter = rule?.approvedAmount === undefined ? undefined : { cents: Math.round(rule.approvedAmount * 100), reason: rule.reason ?? null };
  return offersFor(descriptor, applicant, context, counter);
}

/** An offer's product priced again for another amount within the line; null when the product does not cover it. */
export function repriceOffer(descriptor: LenderDescriptor, offer: { productCode: string; minLine: number; maxLine: number }, amount: number, discountRate: number): PricedTerms | null {
  const product = descriptor.sandbox.products.find((candidate) => candidate.code === offer.productCode);
  if (!product || amount < Math.max(offer.minLine, Math.round(product.minAmount * 100)) || amount > offer.maxLine) return null;
  return priceProduct(product, amount, discountRate);
}
