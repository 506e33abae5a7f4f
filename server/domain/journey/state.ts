import { eq } from 'drizzle-orm';
import type { Db } from '../../db/index.ts';
import { applications } from '../../db/schema.ts';
import type { Services } from '../../services.ts';
import type { ApplicationRecord } from '../applications/records.ts';
import { esignEvents } from './esign-events.ts';
import { kbaSummary } from './kba-records.ts';
import { catalogueOf } from '../offices/office-lenders.ts';
import { nextRoute, type JourneyState } from './routing.ts';

/** What decides the borrower's next page: the stage, the lender's answer, the ceremony's events so far. */
export async function journeyStateOf(db: Db, app: ApplicationRecord): Promise<JourneyState> {
  const events = app.stage === 'SigningRequired' ? await esignEvents(db, app.id, app.contractId) : [];
  const kba = app.stage === 'SigningRequired' ? await kbaSummary(db, app.id) : { status: null };
  return {
    id: app.id,
    stage: app.stage,
    decisionStatus: app.decisionStatus,
    isOfferMatch: app.isOfferMatch,
    lenderCode: app.lenderCode,
    lenderAppUrl: app.lenderAppUrl,
    consented: events.some((e) => e.type === 'consented'),
    kbaPassed: kba.status === 'Passed',
  };
}

export async function nextRouteOf(services: Services, appId: number): Promise<string | null> {
  const [app] = await services.db.select().from(applications).where(eq(applications.id, appId));
  if (!app) return null;
  return nextRoute(catalogueOf(services), await journeyStateOf(services.db, app));
}
