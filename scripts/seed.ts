import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { loadSettings } from '../server/config.ts';
import { openDatabase, type Db } from '../server/db/index.ts';
import { seedBulk } from '../server/seed/bulk.ts';
import { seedDemo } from '../server/seed/demo.ts';

/**
 * npm run seed                                      demo data (idempotent)
 * npm run seed -- --apps 100000 --offices 200       demo data, then bulk data for benchmarks
 */
const USAGE = 'usage: npm run seed [-- --apps N --offices M]';

function count(name: string, raw: string | undefined): number {
  if (raw === undefined) return 0;
  if (!/^\d+$/.test(raw)) throw new Error(`--${name} must be a whole number (got '${raw}')\n${USAGE}`);
  return Number(raw);
}

const TABLES = ['config_items', 'lenders', 'offices', 'users', 'user_offices', 'office_lenders', 'applications', 'offers', 'refunds'] as const;

async function rowCounts(db: Db): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of TABLES) {
    const result = await db.execute<{ n: number }>(sql`select count(*)::int n from ${sql.identifier(table)}`);
    counts[table] = Number(result.rows[0]!.n);
  }
  return counts;
}

const { values } = parseArgs({ options: { apps: { type: 'string' }, offices: { type: 'string' } } });
const apps = count('apps', values.apps);
const offices = count('offices', values.offices);
if (apps > 0 && offices === 0) throw new Error(`--apps needs --offices\n${USAGE}`);

const settings = loadSettings();
const started = performance.now();
const database = await openDatabase(settings);
try {
  const opened = performance.now();
  console.log(`${database.kind}: opened and migrated in ${((opened - started) / 1000).toFixed(1)} s`);

  const demo = await seedDemo(database.db, settings);
  const demoDone = performance.now();
  console.log(`demo data: ${demo.created ? 'created' : 'already present'} in ${((demoDone - opened) / 1000).toFixed(1)} s`);

  if (apps > 0 || offices > 0) {
    await seedBulk(database.db, { apps, offices, piiKey: settings.piiKey });
    console.log(`bulk data: ${offices} offices, ${apps} applications in ${((performance.now() - demoDone) / 1000).toFixed(1)} s`);
  }

  console.table(await rowCounts(database.db));
  console.log(`total ${((performance.now() - started) / 1000).toFixed(1)} s`);
} finally {
  await database.close();
}
