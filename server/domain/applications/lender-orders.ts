import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/index.ts';
import { applicationLenders, applications, lenders, refunds } from '../../db/schema.ts';
import { enqueue, type ClaimedJob } from '../../jobs/queue.ts';
import type { JobOutcome, QueueWork } from '../../jobs/runner.ts';
import type { LenderOrderAnswer } from '../../lenders/types.ts';
import type { Services } from '../../services.ts';
import { writeLogs } from './records.ts';
import { catalogueOf } from '../offices/office-lenders.ts';
import type { JobQueue } from '../../../codegen/generated/schemas.ts';

/**
 * What the office does to a loan, told to its lender by jobs of the durable queue (decision 0262): the office
 * finalizes (the lender closes the contract, then is asked to fund it), and requests refunds. Money carries its own
 * Idempotency-Key — `fund-application-<id>`, `refund-request-<id>` — so however often a job is tried (the lender down, the
 * portal restarted) the lender moves money once. The lender's reference, or its refusal in its words, goes on the
 * application's log. What the lender then tells of the money (its callback) moves the platform's records halfway
 * (lender-money.ts).
 */
type Kind = 'finalize' | 'fund' | 'refund';
const QUEUES: Record<Kind, JobQueue> = { finalize: 'lender-finalize', fund: 'lender-fund', refund: 'lender-refund' };
const ATTEMPTS = 12;
type Payload = { appId: number; refundId?: number };

/** In the transaction of the office's action: finalize and fund once per application, refund once per refund. */
export async function enqueueLenderOrder(tx: Db, kind: Kind, payload: Payload): Promise<void> {
  await enqueue(tx, { queue: QUEUES[kind], key: String(payload.refundId ?? payload.appId), payload, maxAttempts: ATTEMPTS });
}

const WORDS: Record<Kind, { done: (lender: string, reference: string) => string; noun: string }> = {
  finalize: { done: (lender, reference) => `Finalized at ${lender} (contract ${reference})`, noun: 'finalization' },
  fund: { done: (lender, reference) => `Funding requested from ${lender} (reference ${reference})`, noun: 'funding' },
  refund: { done: (lender, reference) => `Refund sent to ${lender} (reference ${reference})`, noun: 'refund' },
};

async function give(services: Services, kind: Kind, job: ClaimedJob): Promise<JobOutcome> {
  const { db } = services;
  const { appId, refundId } = job.payload as Payload;
  const [app] = await db
    .select({ lenderCode: applications.lenderCode, lenderId: applications.lenderId, contractId: applications.contractId, amount: applications.amount, lenderName: lenders.name })
    .from(applications)
    .leftJoin(lenders, eq(lenders.id, applications.lenderId))
    .where(eq(applications.id, appId));
  const adapter = app?.lenderCode ? catalogueOf(services).get(app.lenderCode) : undefined;
  if (!app || !adapter || !app.contractId || app.lenderId === null) return { done: { outcome: 'no contract at a lender' } };
  const [answer] = await db.select({ lenderAppId: applicationLenders.lenderAppId }).from(applicationLenders).where(and(eq(applicationLenders.appId, appId), eq(applicationLenders.lenderId, app.lenderId)));
  const order = { appId, lenderAppId: answer?.lenderAppId ?? null, contractId: app.contractId };
  let result: LenderOrderAnswer;
  if (kind === 'refund') {
    const [refund] = await db.select({ amount: refunds.amount, status: refunds.status }).from(refunds).where(eq(refunds.id, refundId!));
    if (!refund || refund.status === 'Cancelled') return { done: { outcome: 'cancelled before the lender was told' } };
    result = await adapter.refund({ ...order, amount: refund.amount, idempotencyKey: `refund-request-${refundId}` });
  } else if (kind === 'fund') {
    result = await adapter.fund({ ...order, amount: app.amount, idempotencyKey: `fund-application-${appId}` });
  } else {
    result = await adapter.finalize(order);
  }
  const lender = app.lenderName ?? adapter.descriptor.name;
  const message = result.accepted ? WORDS[kind].done(lender, result.reference) : `${lender} refused the ${WORDS[kind].noun}: ${result.reason}`;
  await db.transaction(async (tx) => {
    await writeLogs(tx, appId, { kind: 'anonymous' }, [{ kind: 'Event', message, data: { lender: adapter.code, ...(refundId ? { refundId } : {}), ...result } }]);
    // A contract the lender closed is then funded: the next order, in the same commit as this one's record.
    if (kind === 'finalize' && result.accepted) await enqueueLenderOrder(tx, 'fund', { appId });
  });
  return { done: { ...result } };
}

export function lenderOrderQueues(services: Services): Record<string, QueueWork> {
  const work = (kind: Kind): QueueWork => ({ run: (job) => give(services, kind, job), retry: { baseMs: 30_000, capMs: 3_600_000 } });
  return { [QUEUES.finalize]: work('finalize'), [QUEUES.fund]: work('fund'), [QUEUES.refund]: work('refund') };
}
