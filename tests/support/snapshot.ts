import { sql } from 'drizzle-orm';
import type { Db } from '../../server/db/index.ts';

/** A fingerprint of every table's full contents, to prove that a refused request changed nothing. */
export async function databaseFingerprint(db: Db): Promise<Record<string, string>> {
  const tables = await db.execute<{ tablename: string }>(sql`select tablename from pg_tables where schemaname = 'public' order by tablename`);
  const result: Record<string, string> = {};
  for (const { tablename } of tables.rows) {
    const table = sql.identifier(tablename);
    const rows = await db.execute<{ digest: string | null; total: number }>(
      sql`select md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as digest, count(*)::int as total from ${table} t`,
    );
    result[tablename] = `${rows.rows[0]?.total}:${rows.rows[0]?.digest}`;
  }
  return result;
}

/** The number of rows of every table: what a call added or removed, table by table. */
export async function rowCounts(db: Db): Promise<Record<string, number>> {
  const tables = await db.execute<{ tablename: string }>(sql`select tablename from pg_tables where schemaname = 'public' order by tablename`);
  const counts = sql.join(
    tables.rows.map(({ tablename }) => sql`select ${tablename}::text as name, count(*)::int as total from ${sql.identifier(tablename)}`),
    sql` union all `,
  );
  const rows = await db.execute<{ name: string; total: number }>(counts);
  return Object.fromEntries(rows.rows.map((row) => [row.name, Number(row.total)]));
}
