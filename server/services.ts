import type { FastifyBaseLogger } from 'fastify';
import type { Settings } from './config.ts';
import type { Database } from './db/index.ts';

/** What handlers are given to do their work; one instance per process. */
export interface Services {
  settings: Settings;
  db: Database['db'];
  database: Database;
  log: FastifyBaseLogger;
  /**
   * Work that must follow the commit of what a handler wrote (make a publication live in this process, wake the
   * outbox): at once, or, when the handler runs inside the transaction of an Idempotency-Key (decision 0253), once that
   * transaction has committed, and never if it does not.
   */
  afterCommit(work: () => unknown): Promise<void>;
}

/** Services whose `afterCommit` does the work at once: the handler's own transactions have committed by then. */
export const runNow = async (work: () => unknown): Promise<void> => {
  await work();
};
