import type { EventType } from '../../codegen/generated/schemas.ts';
import type { applications } from '../db/schema.ts';
import type { Db } from '../db/index.ts';
import { recordEvent } from './record.ts';

/**
 * The events of an application's lifecycle, read from how its record changes (issue 39; decision 0266): wherever the
 * portal moves an application — the journey, a lender's news, the office's finalizing, funding, refunds — the same
 * table says what happened, so no path can move it without its event. Creation and the link's sending and opening are
 * recorded where they happen (they change no stage), and so is each refund (one application has several).
 */

type Record = typeof applications.$inferSelect;
type Change = Partial<typeof applications.$inferInsert>;
type Snapshot = Pick<Record, 'stage' | 'decisionStatus' | 'contractSubStatus' | 'productCode' | 'statusText'>;

const entered = <K extends keyof Snapshot>(key: K, value: Snapshot[K]) => (before: Snapshot, after: Snapshot) => after[key] === value && before[key] !== value;
const FINALIZED = new Set<Snapshot['stage']>(['Finalized', 'SubmittedForFunding']);
const PAST_FINALIZING = new Set<Snapshot['stage']>(['Finalized', 'SubmittedForFunding', 'Funded', 'Refund']);

export const APPLICATION_CHANGES: readonly { type: EventType; when: (before: Snapshot, after: Snapshot) => boolean }[] = [
  { type: 'application.prequalified', when: entered('decisionStatus', 'Approved') },
  { type: 'application.declined', when: entered('stage', 'Declined') },
  // Choosing another plan while an offer is chosen is a new choice.
  { type: 'application.offer_selected', when: (b, a) => a.stage === 'OfferSelected' && (b.stage !== 'OfferSelected' || a.productCode !== b.productCode) },
  { type: 'application.identity_passed', when: entered('contractSubStatus', 'KBAPassed') },
  { type: 'application.signed', when: entered('stage', 'ReadyToFinalize') },
  { type: 'application.finalized', when: (b, a) => FINALIZED.has(a.stage) && !PAST_FINALIZING.has(b.stage) },
  { type: 'application.funded', when: (b, a) => a.stage === 'Funded' && b.stage !== 'Funded' && b.stage !== 'Refund' },
  { type: 'application.cancelled', when: entered('stage', 'Cancelled') },
];

/**
 * The named events of a change; a change of the status text that none of them names (the borrower shown the identity
 * questions, reading the agreement, sent to the lender's site) is `application.status_changed`, so the office's
 * screens and software follow every step the application page shows.
 */
export function applicationEventsOf(before: Snapshot, change: Change): EventType[] {
  const after = { ...before, ...Object.fromEntries(Object.entries(change).filter(([, value]) => value !== undefined)) } as Snapshot;
  const named = APPLICATION_CHANGES.filter((rule) => rule.when(before, after)).map((rule) => rule.type);
  return named.length === 0 && after.statusText !== before.statusText ? ['application.status_changed'] : named;
}

/** What a receiver needs of the application: ids, where it stands, its lender and amounts in dollars. */
function dataOf(app: Record, change: Change) {
  const after = { ...app, ...change } as Record;
  return {
    stage: after.stage,
    decisionStatus: after.decisionStatus ?? null,
    contractSubStatus: after.contractSubStatus,
    statusText: after.statusText ?? null,
    lenderCode: after.lenderCode ?? null,
    amount: after.amount / 100,
    ...(after.fundedAmount === null || after.fundedAmount === undefined ? {} : { fundedAmount: after.fundedAmount / 100 }),
    ...(after.refundedAmount ? { refundedAmount: after.refundedAmount / 100 } : {}),
  };
}

/** In the transaction of the change: its events, if it makes any. */
export async function recordApplicationChange(tx: Db, app: Record, change: Change): Promise<void> {
  for (const type of applicationEventsOf(app, change)) {
    await recordEvent(tx, { type, officeId: app.officeId, appId: app.id, subject: { kind: 'application', id: app.id }, data: dataOf(app, change) });
  }
}

/** An event of an application that changes none of its record: created, its link sent or opened. */
export async function recordApplicationEvent(tx: Db, app: { id: number; officeId: number }, type: EventType, data: { [key: string]: string | number | boolean | null } = {}): Promise<void> {
  await recordEvent(tx, { type, officeId: app.officeId, appId: app.id, subject: { kind: 'application', id: app.id }, data });
}
