import type { LenderDescriptor } from '../../core/lenders/descriptor.ts';
import type { PricedTerms } from '../../core/lenders/payments.ts';
import type { Applicant, CreditScoreUsed, KbaQuestionDraft, LenderDecision, OfferTerms, PrequalAnswer } from '../../core/lenders/terms.ts';

/**
 * The lender adapter interface (docs/decisions/0101). One adapter per lender; the sandbox adapter
 * (sandbox.ts) implements it from the lender's JSON alone. A real lender's adapter implements the
 * same methods over that lender's API; nothing else in the server names a lender.
 *
 * Money is integer cents, rates percents, terms months, dates yyyy-mm-dd.
 */

export type { Applicant, CreditScoreUsed, KbaQuestionDraft, LenderDecision, OfferTerms, PrequalAnswer };

export interface ESignSession {
  /** platform: the borrower signs on our pages; lender: at `url`, and the outcome arrives by callback. */
  hostedBy: 'platform' | 'lender';
  url: string | null;
  /** Lender-specific clauses printed in the agreement. */
  clauses: { title: string; text: string }[];
}

/**
 * A quiz's questions: with their right answers when the portal checks them (the sandbox writes them from the
 * application, and the portal keeps only their hashes), without when the lender checks the answers (`checkIdentity`).
 */
export type IdentityQuiz = { checkedBy: 'portal'; questions: KbaQuestionDraft[] } | { checkedBy: 'lender'; questions: Omit<KbaQuestionDraft, 'answerId'>[] };

/** A verified callback, as the contract's lender-callback body carries it. */
export interface LenderEvent {
  eventType: 'Decision' | 'OfferUpdate' | 'ContractStatus' | 'Funding' | 'Refund';
  lenderAppId: string;
  decisionStatus?: LenderDecision | 'Pending';
  contractStatus?: string | null;
  contractSubStatus?: string;
  approvedAmount?: number;
  fundedAmount?: number;
  data?: Record<string, string | number | boolean | null>;
}

/** An offer as the portal keeps it (the offers table), to be priced again for another amount. */
export interface StoredOffer {
  productCode: string;
  productName: string | null;
  productType: PricedTerms['productType'] | null;
  term: number | null;
  apr: number | null;
  promoTerm: number | null;
  promoApr: number | null;
  noInterestTerm: number | null;
  originationFee: number | null;
  amount: number | null;
  minLine: number | null;
  maxLine: number | null;
  messages: string[];
}

/** What a callback changes; the domain writes it. */
export interface LenderEventEffect {
  decision?: PrequalAnswer;
  contractStatus?: string | null;
  contractSubStatus?: string;
}

/** The contract an order of the portal is about (finalize, fund, refund). */
export interface LenderOrder {
  appId: number;
  lenderAppId: string | null;
  contractId: string;
}

/**
 * A lender's answer to an order: its reference, or its refusal in its words (a refusal is final; a lender that cannot
 * be reached throws, and the order's job tries again).
 */
export type LenderOrderAnswer = { accepted: true; reference: string } | { accepted: false; reason: string };

export interface LenderAdapter {
  readonly code: string;
  readonly descriptor: LenderDescriptor;
  /**
   * Pre-qualification: a decision and, when approved, offers priced for the requested amount. `deadline` (epoch ms) is
   * when the waterfall stops waiting: a lender still deciding then answers PendingReview, and tells later by callback.
   */
  prequalify(applicant: Applicant, context: { signal: AbortSignal; discountRate: number | null; deadline: number }): Promise<PrequalAnswer>;
  /** An offer's product priced again for another amount within the line (GetOffers?amount=); null when the product does not cover it. */
  reprice(offer: StoredOffer, amount: number, discountRate: number): PricedTerms | null;
  /**
   * The borrower picked an offer: the lender opens the contract. A lender that hosts the signing answers where the
   * borrower signs (`lenderAppUrl`), and sends them back to `returnUrl` when done.
   */
  select(input: { appId: number; lenderAppId: string | null; productCode: string; amount: number; returnUrl: string }): Promise<{ contractId: string; lenderAppUrl: string | null }>;
  /** Identity questions (knowledge-based authentication) about the applicant, and who checks the answers. */
  kba(input: { applicant: Applicant; lenderAppId: string | null }): Promise<IdentityQuiz>;
  /** The lender checks the borrower's answers itself (an `IdentityQuiz` checked by the lender); true when they pass. */
  checkIdentity?(input: { appId: number; lenderAppId: string | null; answers: Record<string, string> }): Promise<boolean>;
  /** Where and how the loan documents are signed. */
  esignDocuments(input: { appId: number; lenderAppId: string | null; contractId: string | null; lenderAppUrl: string | null }): Promise<ESignSession>;
  /** Anything the lender changed since (GetApp with refreshStatus); null when nothing did. */
  status(input: { appId: number; lenderAppId: string | null }): Promise<LenderEventEffect | null>;
  /** Interprets a verified callback; `applicant` lets a review that turns into an approval come with offers. */
  callback(event: LenderEvent, applicant: Applicant, context: { discountRate: number | null }): Promise<LenderEventEffect>;
  /** Tells the lender the office finalized the loan (App_FinalizeApp): the contract is closed for changes. */
  finalize(input: LenderOrder): Promise<LenderOrderAnswer>;
  /** Asks the lender to fund a finalized loan; `idempotencyKey` is the application's, the same on every attempt. */
  fund(input: LenderOrder & { amount: number; idempotencyKey: string }): Promise<LenderOrderAnswer>;
  /** Asks the lender to refund part of a funded loan; `idempotencyKey` is the refund's, the same on every attempt. */
  refund(input: LenderOrder & { amount: number; idempotencyKey: string }): Promise<LenderOrderAnswer>;
}
