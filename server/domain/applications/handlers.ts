import type { Handlers } from '../../http/handler-types.ts';
import { getApplication } from './detail.ts';
import { applicationsByStage, listApplications } from './rows.ts';
import { ACTIVE_STAGES, INACTIVE_STAGES } from './status.ts';

type ApplicationReads = 'App_GetApp' | 'App_GetOfficeApps' | 'App_GetOfficeAppsByStage' | 'App_GetOfficeInactiveApps';

/** Lanes of the kanban hold this many cards each; the lane header shows the full count. */
const KANBAN_LANE_SIZE = 25;

export const applicationHandlers: Pick<Handlers, ApplicationReads> = {
  async App_GetApp({ params, services }) {
    return { status: 200, body: await getApplication(services.db, services.settings.piiKey, params.id) };
  },
  async App_GetOfficeApps({ body, services }) {
    return { status: 200, body: await listApplications(services.db, { officeId: body.officeId, stages: ACTIVE_STAGES }, body) };
  },
  async App_GetOfficeInactiveApps({ body, services }) {
    return { status: 200, body: await listApplications(services.db, { officeId: body.officeId, stages: INACTIVE_STAGES }, body) };
  },
  async App_GetOfficeAppsByStage({ body, services }) {
    const stages = body.stages?.length ? ACTIVE_STAGES.filter((s) => body.stages!.includes(s)) : ACTIVE_STAGES;
    return { status: 200, body: await applicationsByStage(services.db, body.officeId, stages, body.search, body.pageSize ?? KANBAN_LANE_SIZE) };
  },
};
