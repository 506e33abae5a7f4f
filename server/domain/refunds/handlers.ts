import type { Handlers } from '../../http/handler-types.ts';
import { eq, sql } from 'drizzle-orm';
import { offices } from '../../db/schema.ts';
import { toCents } from '../values.ts';
import { decideRefund, listRefunds, officeRefunds, refundRequestOf, submitRefund, updateRefund } from './refunds.ts';

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
    const cents = body.approvalAbove === undefined || body.approvalAbove === null ? null : toCents(body.approvalAbove);
    await services.db.update(offices).set({ refundApprovalAbove: cents, updatedAt: sql`now()` }).where(eq(offices.id, body.officeId));
    const message = cents === null ? 'Refunds no longer need a second approval.' : `Refunds above $${(cents / 100).toFixed(2)} now need a second person's approval.`;
    return { status: 200, body: { success: true, message } };
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
