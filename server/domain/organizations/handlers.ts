import type { Handlers } from '../../http/handler-types.ts';
import { HttpProblem } from '../../http/problem.ts';
import { getOffice } from '../offices/reads.ts';
import { addLocation, organizationOf, setOrganization } from './locations.ts';

/** Organizations: practice groups of several locations (issue 40, decision 0281). */
export const organizationHandlers: Pick<Handlers, 'Office_GetOrganization' | 'Office_AddLocation' | 'AdminOffices_SetOrganization'> = {
  async Office_GetOrganization({ params, caller, services }) {
    return { status: 200, body: await organizationOf(services.db, caller, params.officeId) };
  },
  async Office_AddLocation({ body, caller, services }) {
    if (caller.kind !== 'staff') throw new HttpProblem(401, 'Sign-in is required.');
    const officeId = await addLocation(services.db, caller, body);
    return { status: 201, body: await getOffice(services.db, services.settings.piiKey, officeId) };
  },
  async AdminOffices_SetOrganization({ body, services }) {
    await setOrganization(services.db, body);
    return { status: 200, body: await getOffice(services.db, services.settings.piiKey, body.officeId) };
  },
};
