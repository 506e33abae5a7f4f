import type { Db } from '../../db/index.ts';
import { enqueue } from '../../jobs/queue.ts';
import type { JobQueue } from '../../../codegen/generated/schemas.ts';

/**
 * A lender's decision still under review is asked for again on a schedule (lender-news.ts runs the polls): a lender
 * without callbacks, or whose callback was lost, is heard too. First after a minute, then doubling to an hour, for
 * about a day.
 */
export const DECISION_POLL_QUEUE = 'lender-decision-poll' satisfies JobQueue;
export const DECISION_POLL = { firstMs: 60_000, capMs: 3_600_000, attempts: 30 };

export async function enqueueDecisionPoll(tx: Db, appId: number, lenderId: number, lenderAppId: string): Promise<void> {
  await enqueue(tx, {
    queue: DECISION_POLL_QUEUE,
    key: `${appId}:${lenderId}:${lenderAppId}`,
    payload: { appId, lenderId, lenderAppId },
    delayMs: DECISION_POLL.firstMs,
    maxAttempts: DECISION_POLL.attempts,
  });
}
