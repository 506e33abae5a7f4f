import { randomBytes, randomInt } from 'node:crypto';
import type { LenderDescriptor, SandboxSettings } from './descriptor.ts';
// The descriptors' one expression language, the same interpreter the web app runs (docs/decisions/0040).
import { condition } from '../../core/expressions.ts';
import type { SandboxProduct } from '../../codegen/generated/descriptors.ts';
import { priceProduct } from './payments.ts';
import type { Applicant, CreditScoreUsed, KbaQuestionDraft, LenderAdapter, LenderEventEffect, OfferTerms, PrequalAnswer } from './types.ts';

/**
 * The sandbox lender: every answer comes from the lender's JSON (screens/lenders/<code>.json,
 * `sandbox`). Rules decide, products are priced for the requested amount, latency and failures are
 * simulated so that the waterfall's timeouts are real. Nothing is stored here: the domain keeps the
 * answers (application_lenders, offers).
 */

/** The sandbox lenders' own pages (server/lenders/site.ts, docs/decisions/0191), under the portal's address. */
export const SITE_PATH = '/sandbox/lenders';

/** Where the sandbox lenders' pages are: served in demo mode only, so elsewhere a sandbox lender has no site (null). */
export function sandboxSiteUrl(settings: { mode: string; publicUrl: string }): string | null {
  return settings.mode === 'demo' ? `${settings.publicUrl}${SITE_PATH}` : null;
}

/** A sandbox lender's page of one application: the lenderAppUrl it answers. */
export const sandboxAppUrl = (site: string, code: string, lenderAppId: string) => `${site}/${encodeURIComponent(code)}/applications/${encodeURIComponent(lenderAppId)}`;

export class SandboxFailure extends Error {}

function abortable(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0) return signal.aborted ? Promise.reject(signal.reason) : Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
}

function latencyOf(settings: SandboxSettings): number {
  const latency = settings.latencyMs;
  if (typeof latency === 'number') return latency;
  return latency.min + Math.floor(Math.random() * (latency.max - latency.min + 1));
}

function ageOn(dob: string, today: Date): number {
  const [year, month, day] = dob.split('-').map(Number) as [number, number, number];
  let age = today.getUTCFullYear() - year;
  if (today.getUTCMonth() + 1 < month || (today.getUTCMonth() + 1 === month && today.getUTCDate() < day)) age -= 1;
  return age;
}

/** The facts a rule may test (dollars, as people write rules). */
export function applicantFacts(applicant: Applicant): Record<string, unknown> {
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

const roundUpTo = (cents: number, step: number) => Math.ceil(cents / step) * step;

// ---- identity questions, from the applicant's own data ------------------------------------------

const STREET_NAMES = [
  'Oak St', 'Maple Ave', 'Cedar Ln', 'Elm Dr', 'Pine Ct', 'Willow Way', 'Birch Rd', 'Lakeview Dr', 'Sunset Blvd', 'Park Ave',
  'Hillcrest Rd', 'Ridge Rd', 'Meadow Ln', 'River Rd', 'Forest Dr', 'Highland Ave', 'Church St', 'Mill St', 'Spring St', 'Valley View Dr',
];
const CITIES = [
  'Austin', 'Dallas', 'Houston', 'San Antonio', 'Denver', 'Phoenix', 'Tucson', 'Orlando', 'Tampa', 'Miami', 'Atlanta', 'Nashville',
  'Boise', 'Portland', 'Seattle', 'Chicago', 'Columbus', 'Charlotte', 'Raleigh', 'Omaha', 'Honolulu', 'Sacramento', 'Reno', 'Tulsa',
];

function shuffle<T>(items: T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

const choiceId = () => randomBytes(6).toString('base64url');

/** A question whose right answer is `right` among `wrong` plausible others, in random order. */
function question(id: string, text: string, right: string, wrong: string[]): KbaQuestionDraft {
  const seen = new Set([right.toLowerCase()]);
  const others: string[] = [];
  for (const candidate of shuffle(wrong)) {
    if (others.length === 3) break;
    if (seen.has(candidate.toLowerCase())) continue;
    seen.add(candidate.toLowerCase());
    others.push(candidate);
  }
  const choices = shuffle([right, ...others]).map((text) => ({ id: choiceId(), text }));
  const answer = choices.find((choice) => choice.text === right)!;
  return { id, text, choices, answerId: answer.id };
}

/** The street part of an address line: '1234 Oak St Apt 5' → 'Oak St Apt 5'. */
export function streetName(line: string): string {
  return line.trim().replace(/^\d+[A-Za-z]?\s+/, '').replace(/\s+/g, ' ');
}

function nearbyZips(zip: string): string[] {
  const base = Number(zip.slice(0, 5));
  const out: string[] = [];
  for (const delta of [3, -5, 11, -17, 23, 41]) {
    const value = base + delta;
    if (value > 500 && value < 99_999) out.push(String(value).padStart(5, '0'));
  }
  return out;
}

export function sandboxKba(applicant: Applicant): KbaQuestionDraft[] {
  const street = streetName(applicant.address.streetAddress);
  const birthYear = Number(applicant.dob.slice(0, 4));
  const zip = applicant.address.zipCode.slice(0, 5);
  return [
    question('street', 'Which of these streets is part of an address you have lived at?', street, STREET_NAMES),
    question('city', 'In which of these cities have you had an address?', applicant.address.city, CITIES),
    question('birthYear', 'In which year were you born?', String(birthYear), [1, 2, 3, -1, -2, -4].map((d) => String(birthYear + d))),
    question('zip', 'Which of these ZIP codes is associated with your address?', zip, nearbyZips(zip)),
  ];
}

// ---- the adapter --------------------------------------------------------------------------------

/** `site`: where this lender's pages are (sandboxSiteUrl); null when they are not served, and its answers link nowhere. */
export function sandboxAdapter(descriptor: LenderDescriptor, site: string | null): LenderAdapter {
  const settings = descriptor.sandbox;
  const code = descriptor.code;
  const appUrl = (lenderAppId: string | null) => (site && lenderAppId ? sandboxAppUrl(site, code, lenderAppId) : null);
  const products = new Map(settings.products.map((product) => [product.code, product]));

  const discountOf = (product: SandboxProduct, officeRate: number | null) => officeRate ?? product.discountRate ?? 0;

  /**
   * The plans for the amount asked, or, with `counter` (a rule's approvedAmount, cents) below it, for that amount: a
   * counteroffer, whose `reason` the adverse-action notice quotes if it is not taken.
   */
  function offersFor(applicant: Applicant, lenderAppId: string, officeRate: number | null, counter?: { cents: number; reason: string | null }): { answer: PrequalAnswer } {
    const asked = applicant.amount;
    const range = descriptor.eligibility.amount;
    if (asked < Math.round(range.min * 100) || asked > Math.round(range.max * 100)) {
      return { answer: declined(lenderAppId, `Requested amount outside the lender's range ($${range.min}–$${range.max})`, 'AMOUNT') };
    }
    const countered = counter !== undefined && counter.cents < asked;
    const amount = countered ? counter.cents : asked;
    const line = countered ? amount : Math.min(Math.round(range.max * 100), Math.max(amount, roundUpTo(applicant.annualIncome * (settings.lineToIncome ?? 0.2), 10_000)));
    const fitting = settings.products.filter((p) => amount >= Math.round(p.minAmount * 100) && amount <= Math.round(p.maxAmount * 100));
    if (fitting.length === 0) return { answer: declined(lenderAppId, 'No plan is available for the amount requested', 'PRODUCT') };
    const lenderAppUrl = appUrl(lenderAppId);
    const offers: OfferTerms[] = fitting.map((product, index) => ({
      ...priceProduct(product, amount, discountOf(product, officeRate)),
      minLine: Math.round(product.minAmount * 100),
      maxLine: Math.min(line, Math.round(product.maxAmount * 100)),
      // The offer on the lender's page of the application (its row there has the product's code as id).
      url: lenderAppUrl && `${lenderAppUrl}#${product.code.toLowerCase()}`,
      isDefault: index === 0,
    }));
    return {
      answer: {
        status: 'Approved',
        lenderAppId,
        lenderAppUrl,
        adverseActionReason: countered ? counter.reason : null,
        reasonCodes: [],
        approvedAmount: line,
        offers,
        expiresAt: new Date(Date.now() + (settings.offerDays ?? 30) * 86_400_000),
      },
    };
  }

  /** The score a rule says was used, on the scale of the lender's bureau (none without one). */
  function scoreUsed(score: { value: number; factors: string[] } | undefined): { creditScore?: CreditScoreUsed } {
    const bureau = descriptor.eligibility.creditBureau;
    if (!score || !bureau?.scoreModel) return {};
    const { low, high, name: model } = bureau.scoreModel;
    return { creditScore: { value: score.value, low, high, model, source: bureau.name, date: new Date().toISOString().slice(0, 10), factors: score.factors } };
  }

  function declined(lenderAppId: string | null, reason: string, reasonCode?: string): PrequalAnswer {
    return { status: 'Declined', lenderAppId, lenderAppUrl: null, adverseActionReason: reason, reasonCodes: reasonCode ? [reasonCode] : [], approvedAmount: null, offers: [], expiresAt: null };
  }

  return {
    code,
    descriptor,

    async prequalify(applicant, { signal, discountRate }) {
      await abortable(latencyOf(settings), signal);
      if (settings.failureRate > 0 && Math.random() < settings.failureRate) throw new SandboxFailure(`${code}: simulated failure`);
      const lenderAppId = `${code.toUpperCase()}-${randomBytes(5).toString('hex').toUpperCase()}`;
      const facts = applicantFacts(applicant);
      const rule = settings.rules.find((candidate) => condition(candidate.when, facts, false));
      if (rule && rule.decision !== 'Approved') {
        if (rule.decision === 'Declined') return { ...declined(lenderAppId, rule.reason ?? 'Declined by the lender', rule.reasonCode), ...scoreUsed(rule.score) };
        return {
          status: rule.decision,
          lenderAppId,
          lenderAppUrl: appUrl(lenderAppId),
          adverseActionReason: rule.reason ?? null,
          reasonCodes: rule.reasonCode ? [rule.reasonCode] : [],
          approvedAmount: null,
          offers: [],
          expiresAt: null,
        };
      }
      const counter = rule?.approvedAmount === undefined ? undefined : { cents: Math.round(rule.approvedAmount * 100), reason: rule.reason ?? null };
      return offersFor(applicant, lenderAppId, discountRate, counter).answer;
    },

    reprice(offer, amount, discountRate) {
      const product = products.get(offer.productCode);
      if (!product || amount < Math.max(offer.minLine, Math.round(product.minAmount * 100)) || amount > offer.maxLine) return null;
      return priceProduct(product, amount, discountRate);
    },

    async select({ appId, lenderAppId }) {
      return {
        contractId: `${code.toUpperCase()}-C${appId}-${randomBytes(3).toString('hex').toUpperCase()}`,
        lenderAppUrl: appUrl(lenderAppId),
      };
    },

    async kba(applicant) {
      return sandboxKba(applicant);
    },

    async esignDocuments({ lenderAppUrl }) {
      const hostedBy = descriptor.journey.esign;
      const clauses = descriptor.disclosures
        .filter((d) => (d.showWith ?? 'both') !== 'offers')
        .map((d) => ({ title: d.title, text: d.text }));
      return { hostedBy, url: hostedBy === 'lender' && lenderAppUrl ? `${lenderAppUrl}/sign` : null, clauses };
    },

    async status() {
      return null;
    },

    async callback(event, applicant, { discountRate }): Promise<LenderEventEffect> {
      const effect: LenderEventEffect = {};
      if (event.eventType === 'Decision' && event.decisionStatus) {
        if (event.decisionStatus === 'Approved') {
          // A review that ends in an approval: the lender prices its products as for any approval.
          effect.decision = offersFor(applicant, event.lenderAppId, discountRate).answer;
          if (event.approvedAmount !== undefined && effect.decision.status === 'Approved') {
            effect.decision.approvedAmount = Math.max(Math.round(event.approvedAmount * 100), applicant.amount);
          }
        } else if (event.decisionStatus === 'Declined') {
          effect.decision = declined(event.lenderAppId, typeof event.data?.adverseActionReason === 'string' ? event.data.adverseActionReason : 'Declined by the lender after review');
        } else {
          const status = event.decisionStatus === 'TimedOut' ? 'Error' : event.decisionStatus === 'Pending' ? 'PendingReview' : event.decisionStatus;
          effect.decision = { ...declined(event.lenderAppId, ''), status, adverseActionReason: null, reasonCodes: [] };
        }
      }
      if (event.contractStatus !== undefined) effect.contractStatus = event.contractStatus;
      if (event.contractSubStatus !== undefined) effect.contractSubStatus = event.contractSubStatus;
      return effect;
    },

    async refund({ contractId }) {
      return { accepted: true, reference: `${contractId}-R${randomBytes(3).toString('hex').toUpperCase()}` };
    },
  };
}
