import { eq } from 'drizzle-orm';
import type { Db } from '../../db/index.ts';
import { applications, appLogs, appLogKind } from '../../db/schema.ts';
import type { Caller } from '../../http/caller.ts';
import { HttpProblem } from '../../http/problem.ts';
import { fromUsDate } from '../values.ts';
import { message } from '../offices/records.ts';

/** Helpers the application writes share: the row lock, the audit log and the date check. */

export type ApplicationRecord = typeof applications.$inferSelect;
type LogKind = (typeof appLogKind.enumValues)[number];

export const applicationNotFound = () => new HttpProblem(404, 'The application could not be found.');

/**
 * The application row, locked until the transaction ends. Every write that checks an amount against
 * the application (finalize, funding, refunds, lender transactions) takes this lock first, so two
 * requests for the same application run one after the other and the second sees what the first wrote.
 */
export async function lockApplication(tx: Db, id: number): Promise<ApplicationRecord> {
  const [row] = await tx.select().from(applications).where(eq(applications.id, id)).for('update');
  if (!row) throw applicationNotFound();
  return row;
}

/** Who did it, as the audit log and the seed write it: the staff e-mail, 'borrower', the office's API key or 'system'. */
export function actorOf(caller: Caller): string {
  if (caller.kind === 'staff') return caller.email;
  if (caller.kind === 'borrower') return 'borrower';
  if (caller.kind === 'partner') return `API key: ${caller.name}`;
  return 'system';
}

export function staffUserId(caller: Caller): string | null {
  return caller.kind === 'staff' ? caller.userId : null;
}

export interface LogEntry {
  kind: LogKind;
  /** What happened, short (the 'action' of an event log line). */
  message: string;
  /** What changed: `before` and `after` of money-changing calls, and the values a log line needs. */
  data?: Record<string, unknown>;
}

/** Writes audit log lines of an application: who (actor, userId), when (created_at) and what (data). */
export async function writeLogs(tx: Db, appId: number, caller: Caller, entries: LogEntry[]): Promise<void> {
  if (entries.length === 0) return;
  const userId = staffUserId(caller);
  await tx.insert(appLogs).values(
    entries.map((entry) => ({
      appId,
      kind: entry.kind,
      message: entry.message,
      data: { ...(entry.data ?? {}), ...(userId ? { userId } : {}) },
      actor: actorOf(caller),
    })),
  );
}

/** A conflict with the application's state: the action its display flag hides (decision 0006). */
export function notAllowedNow(action: string): HttpProblem {
  return HttpProblem.conflict(`The application cannot ${action} in its current state.`);
}

/** A field error with a text of the §5 catalogue. */
export function fieldError(field: string, key: string): HttpProblem {
  return HttpProblem.validation({ [field]: [message(key)] });
}

/**
 * MM/dd/yyyy → yyyy-mm-dd, refusing days that do not exist (the pattern lets 02/31 through), so
 * the database never sees an impossible date.
 */
export function calendarDate(us: string, field: string): string {
  const iso = fromUsDate(us);
  const parsed = new Date(`${iso}T00:00:00Z`);
  if (Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== iso) throw fieldError(field, 'invalidFormat');
  return iso;
}
