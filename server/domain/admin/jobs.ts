import { sql, type SQL } from 'drizzle-orm';
import type { components } from '../../../codegen/generated/api.ts';
import type { Db } from '../../db/index.ts';
import { HttpProblem } from '../../http/problem.ts';
import { reviveJob } from '../../jobs/queue.ts';
import { paged, type Page } from '../paging.ts';
import { toUtc } from '../values.ts';

type Job = components['schemas']['Job'];
type JobQuery = components['schemas']['JobQuery'];

/**
 * The durable queue as platform admins see it (decision 0262): what waits, what runs, what was done, and what gave
 * up, with why; a job that gave up is tried again from here once its cause is mended (a lender's credentials, an
 * SMTP server). The payload stays on the server: a lender's callback carries what it was told about the applicant.
 */

/** What the list shows of a row; the application is the payload's, or the one the lender's callback names. */
const columns = sql`id, queue, key, state, attempts, max_attempts, run_at, created_at, finished_at, last_error,
  coalesce(payload->>'appId', payload->'callback'->>'appId') as app_id`;

type Row = {
  id: string | number; queue: Job['queue']; key: string | null; state: Job['state']; attempts: number; max_attempts: number;
  run_at: string | Date; created_at: string | Date; finished_at: string | Date | null; last_error: string | null; app_id: string | null;
};

function jobOf(row: Row): Job {
  const appId = row.app_id === null ? null : Number(row.app_id);
  return {
    jobId: Number(row.id),
    queue: row.queue,
    key: row.key,
    state: row.state,
    attempts: Number(row.attempts),
    maxAttempts: Number(row.max_attempts),
    runAtUtc: toUtc(row.run_at),
    createdAtUtc: toUtc(row.created_at),
    finishedAtUtc: row.finished_at === null ? null : toUtc(row.finished_at),
    lastError: row.last_error,
    appId: appId !== null && Number.isInteger(appId) && appId > 0 && appId <= 2_147_483_647 ? appId : null,
  };
}

export async function listJobs(db: Db, query: JobQuery): Promise<Page<Job>> {
  const where: SQL[] = [sql`true`];
  if (query.states?.length) where.push(sql`state in (${sql.join(query.states.map((s) => sql`${s}`), sql`, `)})`);
  if (query.queues?.length) where.push(sql`queue in (${sql.join(query.queues.map((q) => sql`${q}`), sql`, `)})`);
  if (query.appId) where.push(sql`coalesce(payload->>'appId', payload->'callback'->>'appId') = ${String(query.appId)}`);
  const condition = sql.join(where, sql` and `);
  const order = sql.raw(`${query.sortBy === 'runAtUtc' ? 'run_at' : 'created_at'} ${query.sortDesc === false ? 'asc' : 'desc'}, id ${query.sortDesc === false ? 'asc' : 'desc'}`);
  return paged<Row, Job>(
    query,
    async (limit, offset) =>
      (await db.execute<Row & { total: number }>(sql`select ${columns}, count(*) over () as total from jobs where ${condition} order by ${order} limit ${limit ?? null} offset ${offset}`)).rows.map((row) => ({ ...row, total: Number(row.total) })),
    async () => Number((await db.execute<{ n: number }>(sql`select count(*) as n from jobs where ${condition}`)).rows[0]!.n),
    jobOf,
  );
}

/** More attempts for a job that gave up: as many as a lender order gets at first is more than an operator waits for. */
const REVIVED_ATTEMPTS = 5;

export async function retryDeadJob(db: Db, jobId: number): Promise<Job> {
  const revived = await reviveJob(db, jobId, REVIVED_ATTEMPTS);
  if (!revived) {
    const exists = await db.execute(sql`select 1 from jobs where id = ${jobId}`);
    if (exists.rows.length === 0) throw new HttpProblem(404, 'There is no job with that id.');
    throw HttpProblem.conflict('Only a job that gave up is tried again; this one is waiting, running or done.');
  }
  const [row] = (await db.execute<Row>(sql`select ${columns} from jobs where id = ${jobId}`)).rows;
  return jobOf(row!);
}
