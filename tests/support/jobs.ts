import type { Db } from '../../server/db/index.ts';
import { jobRunnerOf } from '../../server/jobs/runner.ts';

/**
 * Until the server's job runner is idle: what a request enqueued (a lender told of a finalization, a message) has been
 * done, the request having kicked the runner after its commit, before it answered.
 */
export async function jobsSettled(db: Db): Promise<void> {
  await jobRunnerOf(db)?.idle();
}
