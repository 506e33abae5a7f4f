import type { Handlers } from '../../http/handler-types.ts';
import { decideRefund, listRefunds, officeRefunds, refundRequestOf, setRefundApproval, submitRefund, updateRefund } from './refunds.ts';

type Refunds = 'App_SubmitRefund' | 'App_ApproveRefund' | 'App_GetRefundRequest' | 'App_GetOfficeRefunds' | 'AdminApps_GetRefunds' | 'AdminApps_UpdateRefund' | 'Office_SetRefundApproval';

/** Refund requests of offices, their second approval above the office's amount (decision 0280) and their processing by the platform (decision 0083). */
export const refundHandlers: Pick<Handlers, Refunds> = {
  async App_SubmitRefund({ body, caller, services }) {
    const refund = await submitRefund(services.db, caller, body);
    return { status: 200, body: refund };
  },
  async App_ApproveRefund({ body, caller, services }) {
    return { status: 200, body: await decideRefund(services.db, caller, body) };
  },
  async Office_SetRefundApproval({ body, services }) {
    return { status: 200, body: { success: true, message: await setRefundApproval(services.db, body) } };
  },
  async App_GetRefundRequest({ params, services }) {
    return { status: 200, body: await refundRequestOf(services.db, params.officeId, params.appId) };
  },
  async App_GetOfficeRefunds({ body, services }) {
    return { status: 200, body: await officeRefunds(services.db, body.officeId, body) };
  },
  async AdminApps_GetRefunds({ body, services }) {
    return { status: 200, body: await listRefunds(services.db, body) };
  },
  async AdminApps_UpdateRefund({ body, caller, services }) {
    return { status: 200, body: await updateRefund(services.db, caller, body) };
  },
};
