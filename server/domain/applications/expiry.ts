import { and, eq, inArray, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/index.ts';
import { applications } from '../../db/schema.ts';
import { writeLogs, type ApplicationRecord } from './records.ts';
import { BEFORE_SIGNING } from './status.ts';

/** Whether the offers of an application have run out with no agreement signed (decision 0233). */
export function offersExpired(app: Pick<ApplicationRecord, 'stage' | 'isOfferMatch' | 'expiration' | 'contractStatus'>, now: Date): boolean {
  return (
    BEFORE_SIGNING.includes(app.stage) &&
    app.isOfferMatch &&
    app.expiration !== null &&
    app.expiration <= now &&
    app.contractStatus !== 'Signed'
  );
}

/**
 * Moves each application whose offers expired untaken to the stage Expired, with a line in its log. Each in its own
 * transaction, locked (SKIP LOCKED) and checked again, so that servers sweeping at once move it once. Answers how
 * many moved.
 */
export async function expireOffers(db: Db, now = new Date()): Promise<number> {
  const due = await db
    .select({ id: applications.id })
    .from(applications)
    .where(
      and(
        inArray(applications.stage, [...BEFORE_SIGNING]),
        eq(applications.isOfferMatch, true),
        lte(applications.expiration, now),
        sql`${applications.contractStatus} is distinct from 'Signed'`,
      ),
    )
    .orderBy(applications.id)
    .limit(500);
  let moved = 0;
  for (const { id } of due) {
    moved += await db.transaction(async (tx) => {
      const [app] = await tx.select().from(applications).where(eq(applications.id, id)).for('update', { skipLocked: true });
      if (!app || !offersExpired(app, now)) return 0;
      await tx
        .update(applications)
        .set({ stage: 'Expired', isExpired: true, statusText: 'The offers expired', updatedAt: sql`now()` })
        .where(eq(applications.id, app.id));
      await writeLogs(tx, app.id, { kind: 'anonymous' }, [
        { kind: 'Event', message: 'Offers expired', data: { before: { stage: app.stage }, after: { stage: 'Expired' } } },
      ]);
      return 1;
    });
  }
  return moved;
}
