import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import { migrate as migratePostgres } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { postgresListener, type OnNotice } from './listen.ts';
import { PreparingClient } from './statements.ts';
import type { Settings } from '../config.ts';
import * as schema from './schema.ts';

/**
 * What both drivers return from `db.execute()`: PGlite's `Results` and pg's `QueryResult` both
 * carry `rows`, so callers of raw SQL get one result type whichever database runs underneath.
 */
export interface QueryResultHKT extends PgQueryResultHKT {
  type: QueryRows<this['row']>;
}

export interface QueryRows<Row> {
  rows: Row[];
}

/**
 * The one database type for every caller. A transaction (`db.transaction(async (tx) => ...)`) is a
 * `Db` too, so functions taking a `Db` run inside or outside one.
 */
export type Db = PgDatabase<QueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Hears the NOTIFYs of a channel, whichever process's commit sent them; an undefined payload means 'look': some may be lost. */
  listen(channel: string, onNotice: OnNotice): Promise<() => void>;
  close(): Promise<void>;
}

const MIGRATIONS_FOLDER = fileURLToPath(new URL('./migrations', import.meta.url));
const POOL_SIZE = 10;
/** Any constant; it keeps two processes starting together from migrating at the same time. */
const MIGRATION_LOCK = 7_326_410_001;

/** PostgreSQL when `databaseUrl` is set, otherwise embedded PGlite under `${dataDir}/pglite`. */
export async function openDatabase(settings: Pick<Settings, 'dataDir' | 'databaseUrl'>): Promise<Database> {
  if (settings.databaseUrl) return openPostgres(settings.databaseUrl);
  const folder = join(settings.dataDir, 'pglite');
  mkdirSync(folder, { recursive: true });
  return openPglite(new PGlite(folder));
}

/** Migrates and wraps a PGlite instance; tests pass an in-memory `new PGlite()`. */
export async function openPglite(client: PGlite): Promise<Database> {
  try {
    const db = drizzlePglite({ client, schema });
    await migratePglite(db, { migrationsFolder: MIGRATIONS_FOLDER });
    const listen = async (channel: string, onNotice: OnNotice) => {
      const stop = await client.listen(channel, onNotice);
      return () => void stop().catch(() => {});
    };
    return { db, kind: 'pglite', listen, close: () => client.close() };
  } catch (error) {
    await client.close();
    throw error;
  }
}

/**
 * PostgreSQL compiles a statement it expects to be costly to machine code first (JIT): on the reports' statements over
 * 100,000 applications that took 300 ms of a 480 ms answer, and the portal's statements never run long enough to win
 * it back (decision 0277).
 */
const SESSION_OPTIONS = '-c jit=off';

export async function openPostgres(url: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: POOL_SIZE, Client: PreparingClient, options: SESSION_OPTIONS });
  try {
    await migrateLocked(pool);
    const db = drizzlePostgres({ client: pool, schema });
    const listener = postgresListener(url);
    return { db, kind: 'postgres', listen: listener.listen, close: async () => void (await Promise.all([listener.close(), pool.end()])) };
  } catch (error) {
    await pool.end();
    throw error;
  }
}

async function migrateLocked(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    const db = drizzlePostgres({ client, schema });
    await db.execute(sql`select pg_advisory_lock(${MIGRATION_LOCK})`);
    try {
      await migratePostgres(db, { migrationsFolder: MIGRATIONS_FOLDER });
    } finally {
      await db.execute(sql`select pg_advisory_unlock(${MIGRATION_LOCK})`);
    }
  } finally {
    client.release();
  }
}
