import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/index.ts';
import { appLogs } from '../../db/schema.ts';
import type { Caller } from '../../http/caller.ts';
import { HttpProblem } from '../../http/problem.ts';
import { chain, type ChainedEvent, type ESignEventType } from '../../esign/audit.ts';
import { writeLogs, type ApplicationRecord } from '../applications/records.ts';

/** The ceremony's events for the application's current contract, in order. */
export async function esignEvents(db: Db, appId: number, contractId: string | null): Promise<ChainedEvent[]> {
  if (!contractId) return [];
  const rows = await db
    .select({ data: appLogs.data })
    .from(appLogs)
    .where(and(eq(appLogs.appId, appId), sql`${appLogs.data} -> 'esign' ->> 'contractId' = ${contractId}`))
    .orderBy(asc(appLogs.id));
  return rows.map((row) => (row.data as { esign: ChainedEvent }).esign);
}

const EVENT_MESSAGES: Record<ESignEventType, string> = {
  'documents-generated': 'Loan documents generated',
  'link-sent': 'Signing link sent to the borrower',
  opened: 'Borrower opened the loan documents',
  consented: 'Borrower gave the ESIGN consent',
  'kba-passed': 'Borrower passed the identity questions',
  'kba-failed': 'Borrower failed the identity questions',
  'document-viewed': 'Borrower viewed the loan agreement',
  signed: 'Borrower signed the loan agreement',
  completed: 'Signed loan agreement stored',
};

/** Appends an event to the ceremony's hash chain (the caller holds the application's row lock). */
export async function appendESignEvent(
  tx: Db,
  app: Pick<ApplicationRecord, 'id' | 'contractId'>,
  caller: Caller,
  client: { ip: string | null; userAgent: string | null },
  type: ESignEventType,
  data: Record<string, string | number | boolean | null> = {},
): Promise<ChainedEvent> {
  if (!app.contractId) throw HttpProblem.conflict('No offer has been selected for this application yet.');
  const events = await esignEvents(tx, app.id, app.contractId);
  const event = chain(events[events.length - 1], { type, at: new Date().toISOString(), ip: client.ip, userAgent: client.userAgent, contractId: app.contractId, data });
  await writeLogs(tx, app.id, caller, [{ kind: 'Event', message: EVENT_MESSAGES[type], data: { esign: event } }]);
  return event;
}
