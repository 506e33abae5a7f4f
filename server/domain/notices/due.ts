import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/index.ts';
import { applications, files } from '../../db/schema.ts';
import type { LenderCatalogue } from '../../lenders/registry.ts';
import { writeLogs } from '../applications/records.ts';
import { ADVERSE_ACTION_KIND, bestLine, sendAdverseActionNotice } from '../applications/adverse-action.ts';

/**
 * Reg B §1002.9(a)(1)(i) gives a declining lender 30 days from its decision; §1002.9(g) excuses the notice only when
 * the applicant takes another lender's credit. Days after the first decline when the notice goes if no offer was
 * chosen: 25, so that it arrives within the 30 (decision 0222).
 */
export const NOTICE_AFTER_DAYS = 25;

/** Stages in which no offer is taken: none chosen yet, or the offers expired untaken (decision 0233). */
const UNTAKEN: readonly string[] = ['NotApplicable', 'Expired'];

/** How often a server looks for notices that fall due. */
export const DUE_NOTICES_EVERY_MS = 3_600_000;

/**
 * Sends the adverse-action notice of each application where a lender declined, others made offers, none was taken,
 * and the first decline is NOTICE_AFTER_DAYS old; or whose offers expired untaken where a lender approved less than was
 * asked (a counteroffer, decision 0237). Each application in its own transaction, locked and checked again,
 * so that servers sweeping at the same time send each notice once. Answers how many were sent.
 */
export async function sendDueNotices(db: Db, catalogue: LenderCatalogue, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - NOTICE_AFTER_DAYS * 86_400_000);
  const due = await db.execute<{ id: number }>(sql`
    select a.id from applications a
    where a.stage in (${sql.join(UNTAKEN.map((stage) => sql`${stage}`), sql`, `)})
      and (
        exists (select 1 from application_lenders l where l.app_id = a.id and l.status = 'Declined' and l.responded_at < ${cutoff})
        -- A counteroffer left to expire is due at once (decision 0237).
        or (a.stage = 'Expired' and exists (
          select 1 from application_lenders l
          where l.app_id = a.id and l.status = 'Approved'
            and ${bestLine(sql`a.id`, sql`l.lender_id`)} < a.amount))
      )
      and not exists (select 1 from files f where f.app_id = a.id and f.kind = ${ADVERSE_ACTION_KIND})
    order by a.id
    limit 200`);
  let sent = 0;
  for (const { id } of due.rows) {
    sent += await db.transaction(async (tx) => {
      const [app] = await tx.select().from(applications).where(eq(applications.id, Number(id))).for('update', { skipLocked: true });
      // Taken by another server, or an offer chosen since the list was read.
      if (!app || !UNTAKEN.includes(app.stage)) return 0;
      const [kept] = await tx.select({ id: files.id }).from(files).where(and(eq(files.appId, app.id), eq(files.kind, ADVERSE_ACTION_KIND))).limit(1);
      if (kept) return 0;
      await writeLogs(tx, app.id, { kind: 'anonymous' }, [await sendAdverseActionNotice(tx, catalogue, app)]);
      return 1;
    });
  }
  return sent;
}
