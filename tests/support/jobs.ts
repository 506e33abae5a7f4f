import { sql } from 'drizzle-orm';
import type { Db } from '../../server/db/index.ts';

/**
 * Until no job is due or running: what a request enqueued (a lender told of a finalization, a message) has been done by
 * the server's runner, which the request kicked after its commit. Jobs due later (a decision poll) do not count.
 */
export async function jobsSettled(db: Db, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  const busy = async () => (await db.execute<{ n: number }>(sql`select count(*)::int as n from jobs where state = 'Running' or (state = 'Queued' and run_at <= now())`)).rows[0]!.n;
  while ((await busy()) > 0) {
    if (Date.now() > deadline) throw new Error('jobs are still due or running');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
