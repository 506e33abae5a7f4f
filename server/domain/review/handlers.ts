import type { Handlers } from '../../http/handler-types.ts';
import { HttpProblem } from '../../http/problem.ts';
import { mailContext } from '../offices/office-mail.ts';
import { getOffice } from '../offices/reads.ts';
import { staffId } from '../offices/records.ts';
import { changeOfficeStatus, officeHistory } from '../offices/review-status.ts';

/** Platform admin review of offices (decisions 0150, 0151); who may call is the contract's x-access. */
export const reviewHandlers: Pick<Handlers, 'AdminOffices_UpdateOfficeStatus' | 'AdminOffices_GetOfficeHistory'> = {
  async AdminOffices_UpdateOfficeStatus({ body, caller, services }) {
    const changedBy = staffId(caller);
    if (!changedBy) throw new HttpProblem(401, 'Sign-in is required.');
    await changeOfficeStatus(services.db, { ...body, changedBy }, mailContext(services));
    return { status: 200, body: await getOffice(services.db, services.settings.piiKey, body.officeId) };
  },
  async AdminOffices_GetOfficeHistory({ params, services }) {
    return { status: 200, body: await officeHistory(services.db, params.officeId) };
  },
};
