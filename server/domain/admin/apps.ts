import type { components } from '../../../codegen/generated/api.ts';
import type { Db } from '../../db/index.ts';
import { listApplications, type AppRow } from '../applications/rows.ts';
import { ACTIVE_STAGES, INACTIVE_STAGES } from '../applications/status.ts';
import type { Page } from '../paging.ts';

type ListQuery = components['schemas']['ListQuery'];

/**
 * The platform admin's application lists (decision 0084): the office lists across every office,
 * with the query's officeId as a filter (Apps by office). The funded, funding and refund lists are
 * in server/domain/funding and server/domain/refunds; the admin kanban is App_GetOfficeAppsByStage
 * for one office, or these lists with `stages` for all of them.
 */

/** AdminApps_GetApps: active applications; `stages` may name any stage (the admin search). */
export function adminActiveApps(db: Db, query: ListQuery): Promise<Page<AppRow>> {
  return listApplications(db, { officeId: query.officeId, stages: ACTIVE_STAGES, anyStage: true }, query);
}

/** AdminApps_GetInactiveApps: expired, cancelled and declined applications. */
export function adminInactiveApps(db: Db, query: ListQuery): Promise<Page<AppRow>> {
  return listApplications(db, { officeId: query.officeId, stages: INACTIVE_STAGES }, query);
}
