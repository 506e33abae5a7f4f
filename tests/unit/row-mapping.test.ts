import { PGlite } from '@electric-sql/pglite';
import { eq, getTableColumns, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/index.ts';
import { StatementCache } from '../../server/db/prepared.ts';

/**
 * The statements' own row mapping (server/db/prepared.ts) gives what drizzle's gives, keys in the same order: nested
 * objects, decoders, and a left-joined table's object made null where drizzle makes it null.
 */
const offices = pgTable('offices', { id: integer('id').primaryKey(), name: text('name').notNull() });
const apps = pgTable('apps', {
  id: integer('id').primaryKey(),
  officeId: integer('office_id'),
  name: text('name'),
  data: jsonb('data'),
  at: timestamp('at', { withTimezone: true }),
});

let client: PGlite;
let db: ReturnType<typeof drizzle>;

beforeAll(async () => {
  client = new PGlite();
  db = drizzle({ client });
  await client.exec(`
    create table offices (id integer primary key, name text not null);
    create table apps (id integer primary key, office_id integer, name text, data jsonb, at timestamptz);
    insert into offices values (1, 'Bright Smiles'), (2, 'Lakeside');
    insert into apps values
      (10, 1, 'Ana', '{"a": 1}', '2026-12-03 07:48:32.5+00'),
      (11, null, null, 'null', null),
      (12, 2, 'Ben', null, '2026-01-01 00:00:00+00');
  `);
});
afterAll(() => client.close());

/** The rows drizzle maps itself, and the same query's rows through a statement of the cache. */
async function bothWays<Q extends PromiseLike<unknown> & { prepare(name: string): { execute(values?: Record<string, unknown>): Promise<unknown> } }>(query: () => Q) {
  const theirs = await query();
  const ours = await new StatementCache<unknown>('t_').run(db as unknown as Db, 'shape', {}, query);
  return { theirs, ours };
}

describe("a cached statement's rows (server/db/prepared.ts) are drizzle's own", () => {
  it('maps columns and expressions at the top level through their decoders', async () => {
    const { theirs, ours } = await bothWays(() =>
      db.select({ id: apps.id, name: apps.name, data: apps.data, at: apps.at, upper: sql<string>`upper(${apps.name})`.as('upper') }).from(apps).orderBy(apps.id),
    );
    expect(ours).toEqual(theirs);
    expect(JSON.stringify(ours)).toBe(JSON.stringify(theirs));
    expect((ours as { at: unknown }[])[0]!.at).toBeInstanceOf(Date);
  });

  it("nests objects in the selection's order, and makes a left-joined table's object null where drizzle does", async () => {
    const { theirs, ours } = await bothWays(() =>
      db
        .select({ app: { id: apps.id, name: apps.name }, office: { name: offices.name, id: offices.id }, at: apps.at })
        .from(apps)
        .leftJoin(offices, eq(offices.id, apps.officeId))
        .orderBy(apps.id),
    );
    expect(ours).toEqual(theirs);
    expect(JSON.stringify(ours)).toBe(JSON.stringify(theirs));
    expect((ours as { office: unknown }[])[1]!.office).toBeNull();
  });

  it("keeps an object whose first column is empty when its columns come from two tables, as drizzle does", async () => {
    const { theirs, ours } = await bothWays(() =>
      db
        .select({ mixed: { officeName: offices.name, appName: apps.name }, whole: getTableColumns(offices) })
        .from(apps)
        .leftJoin(offices, eq(offices.id, apps.officeId))
        .orderBy(apps.id),
    );
    expect(ours).toEqual(theirs);
    expect(JSON.stringify(ours)).toBe(JSON.stringify(theirs));
  });
});
