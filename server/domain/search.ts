import { and, gte, lt, type Placeholder, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { fromUsDate } from './values.ts';

/** LIKE treats % and _ as wildcards; a search for them means the characters themselves. */
export const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

const DAY_MS = 86_400_000;

/** How a condition takes a value: inline, or as a placeholder of a prepared statement (`Params.bind`). */
export type Bind = <T>(name: string, value: T) => T | Placeholder<string, T>;
export const inline: Bind = (_name, value) => value;

/** A list query's fromDate / toDate (MM/dd/yyyy, both days included) on a timestamp column. */
export function withinDates(column: PgColumn, query: { fromDate?: string; toDate?: string }, bind: Bind = inline): SQL | undefined {
  const start = (us: string) => new Date(`${fromUsDate(us)}T00:00:00Z`);
  return and(
    query.fromDate ? gte(column, bind('fromDate', start(query.fromDate))) : undefined,
    query.toDate ? lt(column, bind('toDate', new Date(start(query.toDate).getTime() + DAY_MS))) : undefined,
  );
}
