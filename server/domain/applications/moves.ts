import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/index.ts';
import { applications } from '../../db/schema.ts';
import type { Caller } from '../../http/caller.ts';
import { writeLogs, type ApplicationRecord, type LogEntry } from './records.ts';
import { recordApplicationChange } from '../../events/application-events.ts';

type AppChange = Partial<typeof applications.$inferInsert>;

/**
 * Writes a change of the application with its audit lines: an Event line saying what happened, and a
 * Contract line whenever the stage or the sub-status moves (what the office's lists and detail read).
 */
export async function moveApplication(tx: Db, app: ApplicationRecord, caller: Caller, change: AppChange, event: string, data: Record<string, unknown> = {}): Promise<void> {
  await tx.update(applications).set({ ...change, updatedAt: sql`now()` }).where(eq(applications.id, app.id));
  await recordApplicationChange(tx, app, change);
  const entries: LogEntry[] = [{ kind: 'Event', message: event, data }];
  const stage = change.stage ?? app.stage;
  const subStatus = change.contractSubStatus ?? app.contractSubStatus;
  const contractStatus = change.contractStatus === undefined ? app.contractStatus : change.contractStatus;
  if (stage !== app.stage || subStatus !== app.contractSubStatus || contractStatus !== app.contractStatus) {
    entries.push({
      kind: 'Contract',
      message: event,
      data: {
        stage,
        contractSubStatus: subStatus,
        contractStatus,
        before: { stage: app.stage, contractSubStatus: app.contractSubStatus, contractStatus: app.contractStatus },
        ...(app.lenderCode || change.lenderCode ? { lender: change.lenderCode ?? app.lenderCode } : {}),
      },
    });
  }
  await writeLogs(tx, app.id, caller, entries);
}
