import type { Db } from '../../db/index.ts';
import type { applications } from '../../db/schema.ts';
import type { Caller } from '../../http/caller.ts';
import { HttpProblem } from '../../http/problem.ts';
import { updateRefund } from '../refunds/refunds.ts';
import type { ApplicationRecord } from '../applications/records.ts';
import { depositAfterLenderPaid } from '../applications/funding-steps.ts';

/**
 * Money a lender says it moved, by its callback (decision 0272). The lender pays the platform and the platform pays
 * the office (Office Funding's file); a refund is taken back by the lender and debited from the office by the
 * platform. So the lender's word moves the platform's record to its middle step — the funding Processing, the refund
 * Processing — and the platform's own transfer with the office completes it, as before.
 */

/** A lender's callback or the portal's poll of a lender, verified by its signature, acts for no person. */
export const LENDER: Caller = { kind: 'anonymous' };

/** Stages in which the office's payout is still to come. */
const AWAITING_PAYOUT = new Set(['Finalized', 'SubmittedForFunding']);

/** What a lender's funding changes on the application: the office's payout is on its way, expected the next business day. */
export function fundedByLender(app: ApplicationRecord, lenderName: string): Partial<typeof applications.$inferInsert> {
  if (!AWAITING_PAYOUT.has(app.stage) || (app.fundingStatus !== null && app.fundingStatus !== 'Initiated')) return {};
  const now = new Date();
  return {
    fundingStatus: 'Processing',
    statusText: `Funded by ${lenderName}: the payout to the office is on its way`,
    fundingInitiatedAt: now,
    expectedDepositOn: depositAfterLenderPaid(now),
  };
}

/** The refund a lender's refund callback is about: the Idempotency-Key of the portal's order, which the lender sends back. */
const REFUND_ORDER = /^refund-request-(\d{1,15})$/;

/**
 * The lender took a refund back: the refund is Processing (the platform's debit of the office completes it). A
 * callback that names no refund of the portal, or a refund already further on, is only recorded; the answer says which.
 */
export async function refundTakenByLender(tx: Db, app: ApplicationRecord, lenderName: string, data: Record<string, unknown> | undefined): Promise<string> {
  const order = typeof data?.orderKey === 'string' ? REFUND_ORDER.exec(data.orderKey) : null;
  if (!order) return 'Recorded: the callback names no refund of the portal (data.orderKey).';
  const refundId = Number(order[1]);
  const reference = typeof data?.reference === 'string' ? ` (reference ${data.reference})` : '';
  try {
    await updateRefund(tx, LENDER, { appId: app.id, refundId, status: 'Processing', notes: `Taken back by ${lenderName}${reference}` });
    return 'Processed.';
  } catch (error) {
    if (error instanceof HttpProblem && (error.status === 404 || error.status === 409)) return `Recorded: ${error.detail ?? error.message}`;
    throw error;
  }
}
