import type { components } from '../../../codegen/generated/api.ts';

type Schemas = components['schemas'];
export type Stage = Schemas['Stage'];
export type StatusChip = Schemas['StatusChip'];

/** The state a list row or a detail view is derived from. */
export interface AppState {
  stage: Stage;
  /** Null until the application was submitted to the lenders (a link sent, not yet filled in by the borrower). */
  decisionStatus: string | null;
  isOfferMatch: boolean;
  isFinalized: boolean;
  isExpired: boolean;
  referenceCode: string | null;
  fundedAmount: number | null;
  refundedAmount: number;
}

/** Stages that leave the active lists (Home, kanban) for Inactive Apps. */
export const INACTIVE_STAGES: readonly Stage[] = ['Expired', 'Cancelled', 'Declined'];
/** Stages in which the borrower may (still) choose an offer: offers shown, one chosen, documents not yet signed. */
export const BEFORE_SIGNING: readonly Stage[] = ['NotApplicable', 'OfferSelected', 'SigningRequired'];
/** Stages shown under Funded Apps and Refunds rather than among the active applications. */
export const FUNDED_STAGES: readonly Stage[] = ['Funded', 'Refund'];
export const ACTIVE_STAGES: readonly Stage[] = [
  'NotApplicable', 'OfferSelected', 'SigningRequired', 'ReadyToFinalize', 'Finalized', 'SubmittedForFunding', 'NeedsAttention', 'Review',
];

/**
 * The list status chip of spec §4, from the office's point of view (docs/decisions/0006-status-chip-and-actions.md):
 * green while the borrower moves through offers, red when the office must act, blue once done.
 */
export function statusChip(app: Pick<AppState, 'stage' | 'isOfferMatch' | 'decisionStatus'>): StatusChip {
  switch (app.stage) {
    case 'NotApplicable':
      if (app.decisionStatus === null) return 'AwaitingBorrower';
      if (app.isOfferMatch) return 'OffersAvailable';
      // 'No Offers' while a lender still decides would tell the office a patient was turned down before they were.
      return app.decisionStatus === 'Pending' ? 'AwaitingLenders' : 'NoOffers';
    case 'OfferSelected':
    case 'SigningRequired':
      return 'OffersAvailable';
    case 'ReadyToFinalize':
    case 'NeedsAttention':
    case 'Review':
      return 'ActionRequired';
    case 'Finalized':
    case 'SubmittedForFunding':
      return 'Completed';
    case 'Funded':
      return 'Funded';
    case 'Refund':
      return 'Refund';
    case 'Expired':
      return 'Expired';
    case 'Cancelled':
    case 'Declined':
      return 'Inactive';
  }
}

export type DisplayFlags = Pick<
  Schemas['AppRow'],
  'showViewOffersButton' | 'showSignDocsButton' | 'showFinalizeButton' | 'showResubmitButton' | 'showAddReferenceCodeButton' | 'showRefundButton' | 'showSubmitToLendersButton'
>;

/**
 * Whether the office may send the borrower's link again: an application sent by link (not filled in at the desk) and
 * not yet signed. App_ResendLink refuses the others with the same rule.
 */
export function mayResendLink(app: Pick<AppState, 'stage'> & { inOfficeApply: boolean; email: string | null; mobilePhone: string | null }): boolean {
  return BEFORE_SIGNING.includes(app.stage) && !app.inOfficeApply && Boolean(app.email || app.mobilePhone);
}

/** Which row actions the application's state allows; the server refuses the same actions otherwise. */
export function displayFlags(app: AppState): DisplayFlags {
  const { stage } = app;
  const open = !INACTIVE_STAGES.includes(stage) && !FUNDED_STAGES.includes(stage);
  const refundable = app.fundedAmount !== null && app.fundedAmount - app.refundedAmount > 0;
  // Submitted to the lenders at least once: before that there is nothing to submit again (the borrower has not filled
  // in the form the office sent).
  const submitted = app.decisionStatus !== null;
  return {
    showViewOffersButton: (stage === 'NotApplicable' && app.isOfferMatch) || stage === 'OfferSelected',
    showSignDocsButton: stage === 'SigningRequired',
    showFinalizeButton: stage === 'ReadyToFinalize' && !app.isFinalized,
    showResubmitButton: stage === 'Declined' || stage === 'Expired' || (stage === 'NotApplicable' && submitted && !app.isOfferMatch),
    showAddReferenceCodeButton: open && app.referenceCode === null,
    showRefundButton: FUNDED_STAGES.includes(stage) && refundable,
    showSubmitToLendersButton: (stage === 'NotApplicable' && submitted) || stage === 'Declined',
  };
}
