import type { PricedTerms } from './payments.ts';
import type { Address } from '../../codegen/generated/schemas.ts';

/**
 * What a lender is asked and answers, whoever plays it: the server's adapters (server/lenders/types.ts) and the lender
 * service (lender-service/, decision 0259) speak these types.
 *
 * Money is integer cents, rates percents, terms months, dates yyyy-mm-dd.
 */

export type LenderDecision = 'Approved' | 'Declined' | 'PendingReview' | 'Error' | 'TimedOut';

/** What a lender is told about the borrower (the full personal data: adapters run server-side only). */
export interface Applicant {
  appId: number;
  firstName: string;
  lastName: string;
  email: string | null;
  mobilePhone: string | null;
  homePhone: string | null;
  address: Required<Address>;
  /** yyyy-mm-dd */
  dob: string;
  /** Nine digits. */
  ssn: string;
  annualIncome: number;
  additionalIncome: number | null;
  monthlyHousingPayment: number | null;
  employmentStatus: string | null;
  employerName: string | null;
  monthsEmployed: number | null;
  residenceStatus: string | null;
  isActiveMilitary: boolean;
  amount: number;
  serviceDate: string | null;
}

export interface OfferTerms extends PricedTerms {
  minLine: number;
  maxLine: number;
  url: string | null;
  isDefault: boolean;
}

/** The credit score a lender used in its decision, as the adverse-action notice states it (FCRA §615(a)(1)(B)). */
export interface CreditScoreUsed {
  value: number;
  low: number;
  high: number;
  /** The scoring model's name. */
  model: string;
  /** Who provided the score: the consumer reporting agency. */
  source: string;
  /** The day the score was created, yyyy-mm-dd. */
  date: string;
  /** The key factors that adversely affected it, in the lender's words. */
  factors: string[];
}

export interface PrequalAnswer {
  status: Exclude<LenderDecision, 'TimedOut'>;
  lenderAppId: string | null;
  lenderAppUrl: string | null;
  adverseActionReason: string | null;
  reasonCodes: string[];
  /** The approved line, cents. */
  approvedAmount: number | null;
  offers: OfferTerms[];
  expiresAt: Date | null;
  /** When the lender used a credit score for its decision. */
  creditScore?: CreditScoreUsed;
}

export interface KbaQuestionDraft {
  id: string;
  text: string;
  choices: { id: string; text: string }[];
  /** The id of the right choice; stored only as a hash. */
  answerId: string;
}
