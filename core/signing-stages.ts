import type { Stage } from '../codegen/generated/schemas.ts';

/**
 * Where an application stands with its signature, as the portal's journey and a lender's own signing pages both read
 * it: the pages of a lender that hosts the signing are served beside the portal and must agree with it.
 */

/** Stages in which the borrower may still sign. */
export const SIGNING_OPEN: ReadonlySet<Stage> = new Set(['OfferSelected', 'SigningRequired']);

/** Stages an application reaches once the borrower has signed. */
export const AFTER_SIGNING: readonly Stage[] = ['ReadyToFinalize', 'Finalized', 'SubmittedForFunding', 'Funded', 'Refund'];
