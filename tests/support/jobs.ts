import type { Db } from '../../server/db/index.ts';
import { jobRunnersIdle } from '../../server/jobs/runner.ts';

/**
 * Until the servers' job runners are idle: what a request enqueued (a lender told of a finalization, a message) has
 * been done, the request having kicked its server's runner after its commit, before it answered.
 */
export async function jobsSettled(db: Db): Promise<void> {
  await jobRunnersIdle(db);
}
