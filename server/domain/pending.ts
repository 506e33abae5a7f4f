import { HttpProblem } from '../http/problem.ts';
import type { Handler, OperationId } from '../http/handler-types.ts';

/**
 * Operations whose feature belongs to an open issue answer 501 until it lands. The API test keeps
 * the same list by name, so it can only shrink.
 */
export const PENDING = {
  // Borrower journey: sending, pre-qualification, lenders, KBA, e-sign (issue 5).
  App_SendApp: 'the borrower journey',
  App_GetSendAppInfo: 'the borrower journey',
  App_SubmitApp: 'the borrower journey',
  App_GetOffers: 'the borrower journey',
  App_SelectOffer: 'the borrower journey',
  App_GetDownloadUrl: 'the borrower journey',
  App_SubmitForESign: 'the borrower journey',
  App_SendESignLink: 'the borrower journey',
  App_ValidateBorrower: 'the borrower journey',
  App_GetSendAppLogs: 'the borrower journey',
  App_CheckBorrowerEmail: 'the borrower journey',
  App_GetLoanAgreement: 'the borrower journey',
  App_GetKBA: 'the borrower journey',
  App_SubmitKBA: 'the borrower journey',
  App_GetLenderApp: 'the borrower journey',
  App_ProcessLenderCallback: 'the borrower journey',
  App_UpdateContractStatus: 'the borrower journey',
  // After the signature (issue 6): submitting to more lenders needs the lender adapters.
  App_SubmitToLender: 'application follow-up',
} as const satisfies Partial<Record<OperationId, string>>;

export type PendingId = keyof typeof PENDING;

export function pendingHandlers(): { [K in PendingId]: Handler<K> } {
  const entries = Object.entries(PENDING).map(([id, feature]) => [
    id,
    async () => {
      throw new HttpProblem(501, `${id} is not available yet: it arrives with ${feature}.`);
    },
  ]);
  return Object.fromEntries(entries) as { [K in PendingId]: Handler<K> };
}
