import { describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/index.ts';
import { Params, StatementCache } from '../../server/db/prepared.ts';

/** A stand-in for a drizzle query: records what was prepared under which name, and what each run received. */
function fakeQueries() {
  const prepared: string[] = [];
  const runs: Array<{ name: string; values: Record<string, unknown> | undefined }> = [];
  const build = () => ({
    prepare(name: string) {
      prepared.push(name);
      return { execute: async (values?: Record<string, unknown>) => (runs.push({ name, values }), [name]) };
    },
  });
  return { prepared, runs, build };
}

describe('statements prepared once per shape (server/db/prepared.ts, decision 0140)', () => {
  it('builds a shape once per database, then only runs it with the new values; a shape has one name on every database', async () => {
    const cache = new StatementCache<string[]>('t_');
    const { prepared, runs, build } = fakeQueries();
    const one = {} as Db;
    const two = {} as Db;
    await cache.run(one, 'a', { x: 1 }, build);
    await cache.run(one, 'a', { x: 2 }, build);
    await cache.run(one, 'b', { y: 3 }, build);
    await cache.run(two, 'a', { x: 4 }, build);
    expect(prepared).toEqual(['t_0', 't_1', 't_0']);
    expect(runs).toEqual([
      { name: 't_0', values: { x: 1 } },
      { name: 't_0', values: { x: 2 } },
      { name: 't_1', values: { y: 3 } },
      { name: 't_0', values: { x: 4 } },
    ]);
  });

  it('past 256 shapes no more are named: a new shape runs unnamed (parsed on each call) and is built again next time', async () => {
    const cache = new StatementCache<string[]>('t_');
    const { prepared, build } = fakeQueries();
    const db = {} as Db;
    for (let i = 0; i < 256; i++) await cache.run(db, `shape ${i}`, {}, build);
    expect(new Set(prepared).size).toBe(256);
    await cache.run(db, 'one more', {}, build);
    await cache.run(db, 'one more', {}, build);
    expect(prepared.slice(256)).toEqual(['', '']);
    await cache.run(db, 'shape 7', {}, build);
    expect(prepared).toHaveLength(258);
  });

  it('Params keeps each bound value under its placeholder name, and the names in binding order', () => {
    const params = new Params();
    const placeholder = params.bind('officeId', 7);
    params.bind('stages', '{New}');
    expect(placeholder.name).toBe('officeId');
    expect(params.values).toEqual({ officeId: 7, stages: '{New}' });
    expect(params.names).toBe('officeId,stages');
  });
});
