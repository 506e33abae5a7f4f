import { eq } from 'drizzle-orm';
import type { Db } from '../../db/index.ts';
import { applications, lenders, refunds } from '../../db/schema.ts';
import { enqueue, type ClaimedJob } from '../../jobs/queue.ts';
import type { JobOutcome, QueueWork } from '../../jobs/runner.ts';
import type { Services } from '../../services.ts';
import { writeLogs } from '../applications/records.ts';
import { catalogueOf } from '../journey/office-lenders.ts';

/**
 * A refund the office requests is told to the lender by a job (decision 0262), with the refund's own Idempotency-Key:
 * however often the job is tried (the lender down, the portal restarted), the lender refunds once. The lender's
 * reference goes on the application's log, where the platform admin processing the refund reads it.
 */
export const REFUND_QUEUE = 'lender-refund';

export async function enqueueLenderRefund(tx: Db, refundId: number): Promise<void> {
  await enqueue(tx, { queue: REFUND_QUEUE, key: String(refundId), payload: { refundId }, maxAttempts: 12 });
}

async function tellLender(services: Services, job: ClaimedJob): Promise<JobOutcome> {
  const { db } = services;
  const { refundId } = job.payload as { refundId: number };
  const [row] = await db
    .select({ appId: refunds.appId, amount: refunds.amount, status: refunds.status, contractId: applications.contractId, lenderCode: applications.lenderCode, lenderName: lenders.name })
    .from(refunds)
    .innerJoin(applications, eq(applications.id, refunds.appId))
    .leftJoin(lenders, eq(lenders.id, applications.lenderId))
    .where(eq(refunds.id, refundId));
  const adapter = row?.lenderCode ? catalogueOf(services).get(row.lenderCode) : undefined;
  if (!row || !adapter || !row.contractId) return { done: { outcome: 'no contract at a lender' } };
  if (row.status === 'Cancelled') return { done: { outcome: 'cancelled before the lender was told' } };
  const { accepted, reference } = await adapter.refund({ contractId: row.contractId, amount: row.amount, idempotencyKey: `refund-${refundId}` });
  const lender = row.lenderName ?? adapter.descriptor.name;
  await writeLogs(db, row.appId, { kind: 'anonymous' }, [
    { kind: 'Contract', message: accepted ? `Refund sent to ${lender} (reference ${reference})` : `${lender} did not accept the refund (reference ${reference})`, data: { refundId, lender: adapter.code, accepted, reference } },
  ]);
  return { done: { accepted, reference } };
}

export function lenderRefundQueues(services: Services): Record<string, QueueWork> {
  return { [REFUND_QUEUE]: { run: (job) => tellLender(services, job), retry: { baseMs: 30_000, capMs: 3_600_000 } } };
}
