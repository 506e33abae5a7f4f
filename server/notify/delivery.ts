import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/index.ts';
import { outbox } from '../db/schema.ts';
import type { ClaimedJob } from '../jobs/queue.ts';
import type { JobOutcome, QueueWork } from '../jobs/runner.ts';
import type { JobQueue } from '../../codegen/generated/schemas.ts';

/** What a message is delivered through: SMTP (nodemailer) and an HTTP SMS gateway (transports.ts). */
export interface Transport {
  channel: 'Email' | 'Sms';
  deliver(message: { recipient: string; subject: string | null; body: string }): Promise<void>;
}

/**
 * Every queued message is a job of the durable queue (decisions 0066, 0262), enqueued with its outbox row: delivered
 * outside any transaction, so a slow SMTP server never holds a database connection, by whichever process claims it.
 * A failed delivery is tried again after 2 minutes, then doubling, and its row becomes Failed after MESSAGE_ATTEMPTS.
 * A channel without a transport keeps its rows Pending: in demo mode they are read on /dev/outbox.
 */
export const MESSAGE_QUEUE = 'message' satisfies JobQueue;
export const MESSAGE_ATTEMPTS = 5;

type Transports = Partial<Record<'Email' | 'Sms', Transport>>;

async function deliver(db: Db, transports: Transports, job: ClaimedJob): Promise<JobOutcome> {
  const { outboxId } = job.payload as { outboxId: number };
  const [row] = await db.select().from(outbox).where(eq(outbox.id, outboxId));
  if (!row || row.status !== 'Pending') return { done: { outcome: 'not pending' } };
  const transport = transports[row.channel];
  if (!transport) return { done: { outcome: 'kept in the outbox: no transport for its channel' } };
  try {
    await transport.deliver({ recipient: row.recipient, subject: row.subject, body: row.body });
  } catch (error) {
    const last = job.attempts >= job.maxAttempts;
    await db
      .update(outbox)
      .set({ status: last ? 'Failed' : 'Pending', attempts: job.attempts, sentAt: sql`now()`, lastError: String((error as Error).message).slice(0, 500) })
      .where(eq(outbox.id, outboxId));
    throw error;
  }
  await db.update(outbox).set({ status: 'Sent', attempts: job.attempts, sentAt: sql`now()`, lastError: null }).where(eq(outbox.id, outboxId));
  return { done: { outcome: 'sent' } };
}

export function messageQueues(db: Db, transports: Transports): Record<string, QueueWork> {
  return { [MESSAGE_QUEUE]: { run: (job) => deliver(db, transports, job), retry: { baseMs: 120_000, capMs: 1_800_000 } } };
}
