import type { Db } from '../db/index.ts';
import { backoffMs, claimDue, claimJob, finishJob, retryJob, type ClaimedJob, type JobPayload } from './queue.ts';

/**
 * A process's worker of the durable queue (queue.ts): `kick()` after a commit that enqueued, and a timer for jobs
 * that fall due later, jobs enqueued by other processes, and leases of workers that died. Several processes run one
 * each; SKIP LOCKED gives every job to one of them at a time.
 */

/** What a job's work came to: done (with what the enqueuer may read back), or to be tried again later. */
export type JobOutcome = { done: JobPayload | null } | { later: { delayMs: number; reason: string } };

export interface QueueWork {
  run(job: ClaimedJob): Promise<JobOutcome>;
  /** Backoff after a failure (a thrown error): from `baseMs`, doubling, at most `capMs`. */
  retry: { baseMs: number; capMs: number };
  /** After the last attempt failed: the job is Dead, and whoever waits for its work should hear of it. */
  gaveUp?(job: ClaimedJob, reason: string): Promise<void>;
}

export interface JobRunner {
  kick(): void;
  /** Runs one job now in this process (its enqueuer answering with its result); undefined when another process has it. */
  runNow(id: number): Promise<JobOutcome | undefined>;
  start(intervalMs?: number): void;
  stop(): Promise<void>;
  /** Resolves once the work under way (and what it enqueued, and what came due meanwhile) is done. */
  idle(): Promise<void>;
}

interface Log {
  error(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

const LEASE_MS = 60_000;
/**
 * Jobs a process runs at once. A job that ends frees its place for the next due one at once: a slow one (a lender that
 * takes its timeout, a webhook address that never answers) holds one place, not the texts and deliveries behind it.
 */
const SLOTS = 5;

export function createJobRunner(db: Db, queues: Record<string, QueueWork>, log: Log): JobRunner {
  const names = Object.keys(queues);

  async function execute(job: ClaimedJob): Promise<JobOutcome> {
    const work = queues[job.queue]!;
    let outcome: JobOutcome;
    try {
      outcome = await work.run(job);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const delayMs = backoffMs(job.attempts, work.retry.baseMs, work.retry.capMs);
      const state = await retryJob(db, job, delayMs, reason);
      if (state === 'Dead') await died(job, reason);
      else log.warn({ job: job.id, queue: job.queue, attempts: job.attempts, reason }, 'a job failed and will be tried again');
      return { later: { delayMs, reason } };
    }
    if ('done' in outcome) {
      if (!(await finishJob(db, job, outcome.done))) log.warn({ job: job.id, queue: job.queue }, "a job's lease ran out before it finished; another worker has it");
      return outcome;
    }
    const state = await retryJob(db, job, outcome.later.delayMs, outcome.later.reason);
    if (state === 'Dead') await died(job, outcome.later.reason);
    else if (state === 'lost') log.warn({ job: job.id, queue: job.queue }, "a job's lease ran out before it finished; another worker has it");
    return outcome;
  }

  async function died(job: ClaimedJob, reason: string): Promise<void> {
    log.error({ job: job.id, queue: job.queue, attempts: job.attempts, reason }, 'a job failed its last attempt');
    try {
      await queues[job.queue]!.gaveUp?.(job, reason);
    } catch (error) {
      log.error({ job: job.id, queue: job.queue, err: error }, 'what follows a job that gave up failed');
    }
  }

  let running: Promise<void> | undefined;
  let again = false;
  const inFlight = new Set<Promise<unknown>>();
  const drain = async () => {
    do {
      again = false;
      const free = SLOTS - inFlight.size;
      if (free <= 0) break;
      try {
        const claimed = await claimDue(db, names, free, LEASE_MS);
        for (const job of claimed) {
          const work: Promise<unknown> = execute(job).finally(() => {
            inFlight.delete(work);
            // Its place is free, and its work may have enqueued more (a finalization, its funding).
            kick();
          });
          inFlight.add(work);
        }
        // Until a claim finds nothing or every place is taken: more may be due.
        if (claimed.length > 0) again = true;
      } catch (error) {
        log.error({ err: error }, 'the job queue could not be read');
      }
    } while (again);
  };
  let stopped = false;
  const kick = () => {
    if (names.length === 0 || stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = drain().finally(() => {
      running = undefined;
      // A kick that came after the last claim found nothing, before this ran, would be lost.
      if (again) kick();
    });
  };
  /** The claiming under way and every job running, until none is left: what they start is waited for too. */
  const settled = async () => {
    while (running || inFlight.size > 0) await Promise.allSettled([running, ...inFlight]);
  };

  let timer: NodeJS.Timeout | undefined;
  return {
    kick,
    async runNow(id) {
      const job = await claimJob(db, id, LEASE_MS);
      return job ? execute(job) : undefined;
    },
    start(intervalMs = 2_000) {
      stopped = false;
      if (timer) return;
      timer = setInterval(kick, intervalMs);
      timer.unref();
      kick();
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = undefined;
      await settled();
    },
    idle: settled,
  };
}

/**
 * The runners of each database's jobs in this process, in the order their servers were built. A process serves one
 * database with one server; the tests build more on the suite's database (with other settings), each of which kicks
 * its own runner after its writes (bind.ts), and leaves this list when it closes.
 */
const runners = new WeakMap<Db, JobRunner[]>();

/** Registers a server's runner of a database's jobs (server/domain/jobs.ts); answers its removal. */
export function registerJobRunner(db: Db, runner: JobRunner): () => void {
  runners.set(db, [...(runners.get(db) ?? []), runner]);
  return () => runners.set(db, (runners.get(db) ?? []).filter((other) => other !== runner));
}

/** The process's runner of a database's jobs: its first server's (server/main.ts starts its timer). */
export function jobRunnerOf(db: Db): JobRunner | undefined {
  return runners.get(db)?.[0];
}

/** Until every runner of the database in this process is idle: what any of its servers' requests enqueued is done. */
export async function jobRunnersIdle(db: Db): Promise<void> {
  for (const runner of runners.get(db) ?? []) await runner.idle();
}
