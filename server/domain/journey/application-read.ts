import { and, eq } from 'drizzle-orm';
import type { components } from '../../../codegen/generated/api.ts';
import { applicationLenders, applications } from '../../db/schema.ts';
import type { Caller } from '../../http/caller.ts';
import { HttpProblem } from '../../http/problem.ts';
import type { Services } from '../../services.ts';
import { readApplication, type Application } from '../applications/detail.ts';
import { moveApplication } from '../applications/moves.ts';
import { lockApplication } from '../applications/records.ts';
import { contractChange } from './lender-news.ts';
import { catalogueOf } from '../offices/office-lenders.ts';
import { nextRoute } from './routing.ts';
import { journeyStateOf } from './state.ts';

type SubStatus = components['schemas']['ContractSubStatus'];

/**
 * An application as staff and its borrower read it (App_GetApp): the record, with the route of the borrower's next
 * step, which only the journey knows — so it is read here, beside the journey, not among the applications' own rooms.
 */
export async function applicationWithRoute(services: Services, appId: number): Promise<Application> {
  const { application, record } = await readApplication(services.db, services.settings.piiKey, appId);
  return { ...application, nextRoute: nextRoute(catalogueOf(services), await journeyStateOf(services.db, record)) };
}

/** App_GetApp; refreshStatus asks the selected lender for news first (docs/decisions/0103). */
export async function getAppWithRoute(services: Services, caller: Caller, appId: number, refresh: boolean): Promise<Application> {
  if (refresh) {
    const [app] = await services.db.select().from(applications).where(eq(applications.id, appId));
    if (!app) throw new HttpProblem(404, 'The application could not be found.');
    const adapter = app.lenderCode ? catalogueOf(services).get(app.lenderCode) : undefined;
    const [answer] = app.lenderId ? await services.db.select().from(applicationLenders).where(and(eq(applicationLenders.appId, appId), eq(applicationLenders.lenderId, app.lenderId))) : [];
    const effect = adapter ? await adapter.status({ appId, lenderAppId: answer?.lenderAppId ?? null }) : null;
    if (effect && (effect.contractStatus !== undefined || effect.contractSubStatus !== undefined)) {
      await services.db.transaction(async (tx) => {
        const locked = await lockApplication(tx, appId);
        await moveApplication(tx, locked, caller, contractChange(locked, effect.contractStatus, effect.contractSubStatus as SubStatus | undefined), 'Status refreshed from the lender');
      });
    }
  }
  return applicationWithRoute(services, appId);
}
