import type { Handlers } from '../../http/handler-types.ts';
import { getOffice, officeLenderList } from '../offices/reads.ts';
import { submitOfficeToLender } from '../offices/lenders.ts';
import { upsertAchInfo } from './ach.ts';
import { listOffices, upsertOfficeLenders } from './offices.ts';

type AdminOffices =
  | 'AdminAch_UpsertAchInfo' | 'AdminOffices_GetOffices' | 'AdminOffices_GetLenders' | 'AdminOffices_UpsertLenders'
  | 'AdminOffices_SubmitOfficeToLender';

/** Platform admin: offices, their lenders and ACH details (access: x-access internal roles). */
export const adminOfficeHandlers: Pick<Handlers, AdminOffices> = {
  async AdminAch_UpsertAchInfo({ query, body, services }) {
    await upsertAchInfo(services.db, services.settings.piiKey, query.officeId, body);
    return { status: 200, body: await getOffice(services.db, services.settings.piiKey, query.officeId) };
  },
  async AdminOffices_GetOffices({ body, services }) {
    return { status: 200, body: await listOffices(services.db, body) };
  },
  async AdminOffices_GetLenders({ params, services }) {
    return { status: 200, body: await officeLenderList(services.db, params.officeId, false) };
  },
  async AdminOffices_UpsertLenders({ body, services }) {
    return { status: 200, body: await upsertOfficeLenders(services.db, body) };
  },
  async AdminOffices_SubmitOfficeToLender({ body, services }) {
    return { status: 200, body: await submitOfficeToLender(services.db, body) };
  },
};
