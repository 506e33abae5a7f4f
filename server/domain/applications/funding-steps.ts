import { addBusinessDays } from '../../../core/business-days.ts';

/**
 * The funding tracker's arithmetic (issue 40, decision 0278). A finalized loan is paid by its lender to the platform in
 * the lender's own business days (`fundingDays` of its file), and the platform pays the office the business day after:
 * that is the deposit an office waits for. Days are the banks' days, counted in Eastern time, where ACH runs.
 */

/** Business days between the lender paying the platform and the deposit in the office's account. */
export const PAYOUT_BUSINESS_DAYS = 1;

/** A lender file without `fundingDays` pays in two business days (the meta-schema's default). */
export const DEFAULT_FUNDING_DAYS = 2;

const easternDay = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York', year: 'numeric', month: '2-digit', day: '2-digit' });

/** The banks' day of an instant (ISO). */
export const bankDay = (at: Date): string => easternDay.format(at);

/** The deposit expected for a loan requested at `requestedAt` from a lender that pays in `fundingDays` business days. */
export function depositAfterRequest(requestedAt: Date, fundingDays: number | undefined): string {
  return addBusinessDays(bankDay(requestedAt), (fundingDays ?? DEFAULT_FUNDING_DAYS) + PAYOUT_BUSINESS_DAYS);
}

/** The deposit expected once the lender has paid the platform at `initiatedAt`. */
export function depositAfterLenderPaid(initiatedAt: Date): string {
  return addBusinessDays(bankDay(initiatedAt), PAYOUT_BUSINESS_DAYS);
}
