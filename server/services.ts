import type { FastifyBaseLogger } from 'fastify';
import type { Settings } from './config.ts';
import type { Database } from './db/index.ts';

/** What handlers are given to do their work; one instance per process. */
export interface Services {
  settings: Settings;
  db: Database['db'];
  database: Database;
  log: FastifyBaseLogger;
}
