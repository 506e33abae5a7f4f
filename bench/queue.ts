import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { openDatabase, openPostgres, type Database } from '../server/db/index.ts';
import { enqueue } from '../server/jobs/queue.ts';
import { createJobRunner, type JobRunner, type QueueWork } from '../server/jobs/runner.ts';
import type { DatabaseKind } from './profiles.ts';
import { percentile } from './stats.ts';

/**
 * The durable queue's cost (issue 38, decision 0262), on a database of its own: jobs per second through the runners
 * (one on PGlite, which belongs to one process; two on PostgreSQL, standing in for two processes), a job's delay from
 * its enqueuer's commit to its work starting when the enqueuer kicks its runner (a request's own work) and when
 * another process's timer finds it, and a bare round trip of the same database beside them, as the floor.
 */
const TIMER_MS = 2_000;
const quiet = { error: (o: object, m: string) => console.error(m, o), warn: () => {} };

/** A database of its own for one measure, dropped after it. */
export async function fresh(kind: DatabaseKind, postgresUrl: string | undefined): Promise<{ open: () => Promise<Database>; drop: () => Promise<void> }> {
  if (kind === 'pglite') {
    const dataDir = mkdtempSync(join(tmpdir(), 'pos-bench-queue-'));
    return { open: () => openDatabase({ dataDir, databaseUrl: undefined }), drop: async () => rmSync(dataDir, { recursive: true, force: true }) };
  }
  const name = `pos_bench_queue_${process.pid}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: postgresUrl });
    await client.connect();
    await client.query(statement);
    await client.end();
  };
  await admin(`drop database if exists ${name} with (force)`);
  await admin(`create database ${name}`);
  const url = Object.assign(new URL(postgresUrl!), { pathname: `/${name}` }).toString();
  return { open: () => openPostgres(url), drop: () => admin(`drop database if exists ${name} with (force)`) };
}

const ms = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;

export async function benchQueue(kind: DatabaseKind, postgresUrl: string | undefined, quick: boolean): Promise<string[]> {
  const jobs = quick ? 1_000 : 4_000;
  const delays = quick ? 100 : 300;
  const timerJobs = quick ? 4 : 10;
  const database = await fresh(kind, postgresUrl);
  const first = await database.open();
  const handles = kind === 'postgres' ? [first, await database.open()] : [first];
  try {
    const db = first.db;
    // The floor: one round trip to this database.
    const trips: number[] = [];
    for (let i = 0; i < 300; i++) {
      const t = process.hrtime.bigint();
      await db.execute(sql`select 1`);
      trips.push(ms(t));
    }
    const trip = percentile(trips, 50);

    // Throughput: enqueued in one transaction, then worked by every runner until none is left.
    const queue = 'bench';
    const t0 = process.hrtime.bigint();
    await db.transaction(async (tx) => {
      for (let i = 0; i < jobs; i++) await enqueue(tx, { queue, payload: { i } });
    });
    const enqueueMs = ms(t0);
    let done = 0;
    const work: Record<string, QueueWork> = { [queue]: { run: async () => ((done += 1), { done: null }), retry: { baseMs: 1_000, capMs: 1_000 } } };
    const runners = handles.map((h) => createJobRunner(h.db, work, quiet));
    const t1 = process.hrtime.bigint();
    while (done < jobs) {
      for (const runner of runners) runner.kick();
      await Promise.all(runners.map((r) => r.idle()));
    }
    const runMs = ms(t1);

    // Delay when the enqueuer kicks its own runner after the commit (a request that enqueued).
    const started = new Map<number, bigint>();
    const timed: Record<string, QueueWork> = { timed: { run: async (job) => (started.set(job.id, process.hrtime.bigint()), { done: null }), retry: { baseMs: 1_000, capMs: 1_000 } } };
    const own = createJobRunner(db, timed, quiet);
    const kicked: number[] = [];
    for (let i = 0; i < delays; i++) {
      const { id } = await enqueue(db, { queue: 'timed', payload: {} });
      const committed = process.hrtime.bigint();
      own.kick();
      await own.idle();
      kicked.push(Number(started.get(id)! - committed) / 1e6);
    }

    // Delay when another process enqueued it: this runner's timer finds it.
    const other = createJobRunner(handles.at(-1)!.db, timed, quiet);
    other.start(TIMER_MS);
    const found: number[] = [];
    for (let i = 0; i < timerJobs; i++) {
      await new Promise((resolve) => setTimeout(resolve, Math.random() * TIMER_MS));
      const { id } = await enqueue(db, { queue: 'timed', payload: {} });
      const committed = process.hrtime.bigint();
      while (!started.has(id)) await new Promise((resolve) => setTimeout(resolve, 5));
      found.push(Number(started.get(id)! - committed) / 1e6);
    }
    await other.stop();
    const stopRunners: JobRunner[] = [own, ...runners];
    await Promise.all(stopRunners.map((r) => r.stop()));

    const perJob = runMs / jobs;
    return [
      `Queue (${kind}): ${Math.round(jobs / (runMs / 1000)).toLocaleString('en-US')} jobs/s worked by ${runners.length} runner${runners.length > 1 ? 's' : ''} ` +
        `(${perJob.toFixed(2)} ms a job, ${(perJob / trip).toFixed(1)} round trips of ${trip.toFixed(2)} ms), ` +
        `${Math.round(jobs / (enqueueMs / 1000)).toLocaleString('en-US')} enqueued/s in one transaction; ${jobs.toLocaleString('en-US')} no-op jobs`,
      `Queue (${kind}): delay from commit to work p50 ${percentile(kicked, 50).toFixed(1)} ms, p95 ${percentile(kicked, 95).toFixed(1)} ms when the enqueuer kicks its runner (${delays} jobs); ` +
        `p50 ${percentile(found, 50).toFixed(0)} ms, max ${Math.max(...found).toFixed(0)} ms when another process's ${TIMER_MS / 1000} s timer finds it (${timerJobs} jobs)`,
    ];
  } finally {
    for (const h of handles) await h.close();
    await database.drop();
  }
}
