/**
 * A cached statement maps its rows with its own mapper (server/db/prepared.ts, decision 0202): the same objects as
 * drizzle's own mapping — nested selections, decoded columns (dates, numbers), a left-joined table that matched
 * nothing as null, and a lateral join of a subquery's fields as the kanban reads its lanes.
 */
import { PGlite } from '@electric-sql/pglite';
import { eq, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { integer, numeric, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/index.ts';
import { StatementCache } from '../../server/db/prepared.ts';

const offices = pgTable('offices_t', { id: integer('id').primaryKey(), name: text('name').notNull() });
const apps = pgTable('apps_t', {
  id: integer('id').primaryKey(),
  officeId: integer('office_id'),
  amount: numeric('amount', { mode: 'number' }),
  stage: text('stage').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
});

const client = new PGlite();
const db = drizzle({ client });

beforeAll(async () => {
  await db.execute(sql`create table offices_t (id integer primary key, name text not null)`);
  await db.execute(sql`create table apps_t (id integer primary key, office_id integer, amount numeric, stage text not null, created_at timestamptz not null)`);
  await db.insert(offices).values([{ id: 1, name: 'Bright Smiles' }]);
  await db.insert(apps).values([
    { id: 10, officeId: 1, amount: 1250.5, stage: 'Review', createdAt: new Date('2026-11-20T09:30:00Z') },
    { id: 11, officeId: null, amount: null, stage: 'Review', createdAt: new Date('2026-11-21T10:00:00Z') },
    { id: 12, officeId: 1, amount: 300, stage: 'Funded', createdAt: new Date('2026-11-22T11:15:00Z') },
  ]);
}, 60_000);

afterAll(async () => {
  await client.close();
});

type Prepared = { execute(values?: Record<string, unknown>): Promise<unknown>; customResultMapper?: unknown };

/**
 * The same query through drizzle's own mapping and through a cached statement, whose mapper must be its own (drizzle
 * keeps its rows' mapping where the cache sets it; were that to move, the rows would still be drizzle's, only slower).
 */
async function bothWays(name: string, build: () => { execute(): Promise<unknown>; prepare(name: string): Prepared }) {
  const cache = new StatementCache<unknown>(`${name}_`);
  let prepared: Prepared | undefined;
  const cached = await cache.run(db as unknown as Db, name, {}, () => {
    const query = build();
    return { prepare: (statement: string) => (prepared = query.prepare(statement)) };
  });
  expect(prepared?.customResultMapper).toBeTypeOf('function');
  return { drizzle: await build().execute(), cached };
}

describe('the rows of a cached statement', () => {
  it('are what drizzle makes of a nested selection with a left join, matched and not', async () => {
    const { drizzle: expected, cached } = await bothWays('joined', () =>
      db
        .select({ id: apps.id, amount: apps.amount, createdAt: apps.createdAt, office: { id: offices.id, name: offices.name }, twice: sql<number>`${apps.amount} * 2`.mapWith(Number) })
        .from(apps)
        .leftJoin(offices, eq(offices.id, apps.officeId))
        .orderBy(apps.id),
    );
    expect(cached).toEqual(expected);
    expect((cached as { office: unknown; createdAt: unknown }[])[1]!.office).toBeNull();
    expect((cached as { createdAt: unknown }[])[0]!.createdAt).toBeInstanceOf(Date);
  });

  it('are what drizzle makes of a lateral join of a subquery, a lane with cards and one without', async () => {
    const { drizzle: expected, cached } = await bothWays('lanes', () => {
      const cards = db.select({ id: apps.id, amount: apps.amount, createdAt: apps.createdAt }).from(apps).where(eq(apps.stage, sql`lane.stage`)).orderBy(apps.id).limit(2).as('cards');
      return db
        .select({ stage: sql<string>`lane.stage`.as('lane_stage'), card: cards._.selectedFields })
        .from(sql`unnest(array['Review', 'Funded', 'Expired']) as lane(stage)`)
        .leftJoinLateral(cards, sql`true`);
    });
    expect(cached).toEqual(expected);
    expect(cached).toContainEqual({ stage: 'Expired', card: null });
  });
});
