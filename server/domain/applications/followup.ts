import { asc, count, eq, sql } from 'drizzle-orm';
import type { components } from '../../../codegen/generated/api.ts';
import type { Db } from '../../db/index.ts';
import { applicationLenders, applications, lenders, offers, stipulations } from '../../db/schema.ts';
import type { Caller } from '../../http/caller.ts';
import { displayFlags } from './status.ts';
import { lockApplication, notAllowedNow, writeLogs } from './records.ts';

type Schemas = components['schemas'];

/** App_GetAppStips: what the lenders require before funding, in the order they asked. */
export async function appStipulations(db: Db, appId: number): Promise<Schemas['Stipulation'][]> {
  const rows = await db.select().from(stipulations).where(eq(stipulations.appId, appId)).orderBy(asc(stipulations.createdAt), asc(stipulations.id));
  return rows.map((row) => ({
    id: row.id,
    name: row.name.slice(0, 100),
    explanation: row.explanation,
    isRequired: row.isRequired,
    documentId: row.documentId,
    isPhotoIdUploaded: row.isPhotoIdUploaded,
  }));
}

/** App_GetAppLenders: each lender's answer to the application, with how many offers it made. */
export async function appLenderAnswers(db: Db, appId: number): Promise<Schemas['AppLenderResult'][]> {
  const offerCount = db
    .select({ lenderId: offers.lenderId, n: count().as('n') })
    .from(offers)
    .where(eq(offers.appId, appId))
    .groupBy(offers.lenderId)
    .as('offer_count');
  const rows = await db
    .select({ code: lenders.code, name: lenders.name, status: applicationLenders.status, reason: applicationLenders.adverseActionReason, offers: sql<number>`coalesce(${offerCount.n}, 0)`.mapWith(Number) })
    .from(applicationLenders)
    .innerJoin(lenders, eq(lenders.id, applicationLenders.lenderId))
    .leftJoin(offerCount, eq(offerCount.lenderId, applicationLenders.lenderId))
    .where(eq(applicationLenders.appId, appId))
    .orderBy(asc(lenders.name));
  return rows.map((row) => ({ code: row.code, name: row.name, status: row.status, adverseActionReason: row.reason, offerCount: row.offers }));
}

/**
 * App_AddReferenceCode: the office's own reference for an open application, once (the action the
 * showAddReferenceCodeButton flag offers). The code's rule (3–25 word characters) is the contract's.
 */
export async function addReferenceCode(db: Db, caller: Caller, body: Schemas['ReferenceCode']): Promise<void> {
  await db.transaction(async (tx) => {
    const app = await lockApplication(tx, body.appId);
    if (!displayFlags(app).showAddReferenceCodeButton) throw notAllowedNow('take a reference code');
    await tx.update(applications).set({ referenceCode: body.referenceCode, updatedAt: sql`now()` }).where(eq(applications.id, app.id));
    await writeLogs(tx, app.id, caller, [
      { kind: 'Event', message: 'Reference code added', data: { before: { referenceCode: app.referenceCode }, after: { referenceCode: body.referenceCode } } },
    ]);
  });
}
