import { sql } from 'drizzle-orm';
import type { Db } from '../db/index.ts';

/**
 * The durable queue (the `jobs` table, decision 0262): work that must survive a restart and run once across every
 * process on the database. Enqueue inside the transaction whose change asks for the work, so the work exists exactly
 * when the change does. A worker claims due jobs with SKIP LOCKED for a lease; a job whose worker died is claimed
 * again when the lease runs out (at least once), and finishing is fenced by the claim's attempt number (the work's
 * effect is made once by its own key: a callback's id, a refund's Idempotency-Key).
 */
export type JobPayload = Record<string, unknown>;

export interface NewJob {
  queue: string;
  payload: JobPayload;
  /** Once per queue: enqueuing the same key again finds the first job. */
  key?: string;
  /** Not before this many milliseconds from now. */
  delayMs?: number;
  maxAttempts?: number;
}

export type ClaimedJob = {
  id: number;
  queue: string;
  key: string | null;
  payload: JobPayload;
  /** This claim's attempt, from 1: the fence of its completion. */
  attempts: number;
  maxAttempts: number;
};

export interface StoredJob {
  id: number;
  state: 'Queued' | 'Running' | 'Done' | 'Dead';
  result: JobPayload | null;
  created: boolean;
}

/**
 * How many jobs due at once this process has written (enqueued or revived). A request that wrote one kicks its runner
 * after the commit; one that wrote none, or only jobs for later, leaves the claim to the runner's timer. A claim per
 * write was most of what a lender's callback cost the embedded database, which works in the server's own thread.
 */
let dueWritten = 0;
export const dueJobsWritten = (): number => dueWritten;

export async function enqueue(db: Db, job: NewJob): Promise<StoredJob> {
  if (!job.delayMs || job.delayMs <= 0) dueWritten += 1;
  const inserted = await db.execute<{ id: number }>(sql`
    insert into jobs (queue, key, payload, run_at, max_attempts)
    values (${job.queue}, ${job.key ?? null}, ${JSON.stringify(job.payload)}::jsonb, now() + ${job.delayMs ?? 0} * interval '1 millisecond', ${job.maxAttempts ?? 10})
    on conflict (queue, key) do nothing
    returning id`);
  if (inserted.rows[0]) return { id: Number(inserted.rows[0].id), state: 'Queued', result: null, created: true };
  const found = await db.execute<{ id: number; state: StoredJob['state']; result: JobPayload | null }>(
    sql`select id, state, result from jobs where queue = ${job.queue} and key = ${job.key ?? null}`,
  );
  const first = found.rows[0]!;
  return { id: Number(first.id), state: first.state, result: first.result, created: false };
}

const claimedColumns = sql`id, queue, key, payload, attempts, max_attempts as "maxAttempts"`;
const asClaimed = (row: ClaimedJob): ClaimedJob => ({ ...row, id: Number(row.id), attempts: Number(row.attempts), maxAttempts: Number(row.maxAttempts) });

/** Due jobs of these queues (or a worker's lapsed lease), oldest first, leased for `leaseMs`. */
export async function claimDue(db: Db, queues: readonly string[], limit: number, leaseMs: number): Promise<ClaimedJob[]> {
  if (queues.length === 0) return [];
  const claimed = await db.execute<ClaimedJob>(sql`
    update jobs set state = 'Running', attempts = attempts + 1, locked_until = now() + ${leaseMs} * interval '1 millisecond'
    where id in (
      select id from jobs
      where state in ('Queued', 'Running') and queue in (${sql.join(queues.map((q) => sql`${q}`), sql`, `)})
        and ((state = 'Queued' and run_at <= now()) or (state = 'Running' and locked_until < now()))
      order by run_at, id limit ${limit} for update skip locked)
    returning ${claimedColumns}`);
  return claimed.rows.map(asClaimed);
}

/** One job now, whatever its time (the request that enqueued it runs it at once); undefined when another has it. */
export async function claimJob(db: Db, id: number, leaseMs: number): Promise<ClaimedJob | undefined> {
  const claimed = await db.execute<ClaimedJob>(sql`
    update jobs set state = 'Running', attempts = attempts + 1, locked_until = now() + ${leaseMs} * interval '1 millisecond'
    where id = (select id from jobs where id = ${id} and (state = 'Queued' or (state = 'Running' and locked_until < now())) for update skip locked)
    returning ${claimedColumns}`);
  return claimed.rows[0] ? asClaimed(claimed.rows[0]) : undefined;
}

/** The job's work is done; false when this claim had lost its lease to another worker. */
export async function finishJob(db: Db, job: ClaimedJob, result: JobPayload | null): Promise<boolean> {
  const done = await db.execute<{ id: number }>(sql`
    update jobs set state = 'Done', result = ${result === null ? null : JSON.stringify(result)}::jsonb, finished_at = now(), locked_until = null, last_error = null
    where id = ${job.id} and state = 'Running' and attempts = ${job.attempts}
    returning id`);
  return done.rows.length === 1;
}

/** The job runs again after `delayMs`, or is Dead when it has had its attempts; `error` is kept for the operator. */
export async function retryJob(db: Db, job: ClaimedJob, delayMs: number, error: string): Promise<'Queued' | 'Dead' | 'lost'> {
  const moved = await db.execute<{ state: 'Queued' | 'Dead' }>(sql`
    update jobs set state = case when attempts >= max_attempts then 'Dead'::job_state else 'Queued'::job_state end,
      run_at = now() + ${Math.max(0, Math.round(delayMs))} * interval '1 millisecond', locked_until = null, last_error = ${error.slice(0, 500)},
      finished_at = case when attempts >= max_attempts then now() end
    where id = ${job.id} and state = 'Running' and attempts = ${job.attempts}
    returning state`);
  return moved.rows[0]?.state ?? 'lost';
}

/**
 * A Dead job runs again at once with `moreAttempts` attempts beyond those it had (its attempt count goes on rising, so a
 * claim from before it died can never finish it); false when the job is not Dead.
 */
export async function reviveJob(db: Db, id: number, moreAttempts: number): Promise<boolean> {
  dueWritten += 1;
  const revived = await db.execute(sql`
    update jobs set state = 'Queued', run_at = now(), max_attempts = attempts + ${moreAttempts}, finished_at = null
    where id = ${id} and state = 'Dead'
    returning id`);
  return revived.rows.length === 1;
}

/** Exponential backoff from `baseMs`, at most `capMs`, with a tenth of jitter so that retries of one outage spread. */
export function backoffMs(attempt: number, baseMs: number, capMs: number): number {
  const plain = Math.min(capMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(plain * (0.9 + Math.random() * 0.2));
}

/** Finished jobs are kept a week: long enough for a repeated key to find its first job (callbacks are signed for 5 minutes). */
export async function forgetFinishedJobs(db: Db): Promise<void> {
  await db.execute(sql`delete from jobs where state = 'Done' and finished_at < now() - interval '7 days'`);
}
