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
  Otp_SendOtp: 'borrower sign-in',
  Otp_VerifyOtp: 'borrower sign-in',
  // After the signature: finalize, funding, refunds, notes, files (issue 6).
  App_AddReferenceCode: 'application follow-up',
  App_FinalizeApp: 'finalize and funding',
  App_SubmitRefund: 'refunds',
  App_UpsertAppNote: 'application follow-up',
  App_GetAppNotes: 'application follow-up',
  App_GetAppFiles: 'application follow-up',
  App_SubmitTrans: 'lender transactions',
  App_GetLenderTrans: 'lender transactions',
  App_CancelTrans: 'lender transactions',
  App_GetAppLenders: 'application follow-up',
  App_SubmitToLender: 'application follow-up',
  App_GetAppStips: 'application follow-up',
  App_GetOfficeFundedApps: 'finalize and funding',
  App_GetOfficeFundedAppsCSV: 'finalize and funding',
  App_GetRefundRequest: 'refunds',
  App_GetOfficeRefunds: 'refunds',
  App_UploadFile: 'application follow-up',
  AdminApps_GetApps: 'the admin application area',
  AdminApps_GetInactiveApps: 'the admin application area',
  AdminApps_GetFundedApps: 'finalize and funding',
  AdminApps_GetRefunds: 'refunds',
  AdminApps_UpdateRefund: 'refunds',
  AdminApps_GetAppAuditLogs: 'the admin application area',
  AdminApps_MarkAppsFunded: 'finalize and funding',
  // Identity and access: users, invites (issue 4).
  Users_GetUserInfo: 'identity and users',
  Users_GetUsers: 'identity and users',
  Users_UpsertUser: 'identity and users',
  Users_DeleteUser: 'identity and users',
  Users_GetInviteInfo: 'identity and users',
  Users_ProcessInvite: 'identity and users',
  AdminUsers_GetAllUsers: 'identity and users',
  AdminUsers_GetUserDetails: 'identity and users',
  AdminUsers_UpsertUsers: 'identity and users',
  AdminOffices_GetUsers: 'identity and users',
  AdminOffices_UpsertUsers: 'identity and users',
  AdminOffices_UpsertUser: 'identity and users',
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
