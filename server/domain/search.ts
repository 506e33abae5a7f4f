import { and, gte, lt, type Placeholder, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { fromUsDate } from './values.ts';

/** LIKE treats % and _ as wildcards; a search for them means the characters themselves. */
export const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Text that starts with `prefix`, as the range [from, to) in PostgreSQL's byte order (`~>=~` and `~<~`, the
 * text_pattern_ops operators): `to` is the prefix with its last code point raised by one, since UTF-8 orders bytes
 * as code points. Unlike LIKE with a placeholder, a prepared statement's generic plan can scan an index over this
 * range (decision 0144). U+10FFFF, a noncharacter that no name holds, is dropped first, so there is always a next code
 * point; an empty prefix matches nothing.
 */
export function prefixRange(prefix: string): { from: string; to: string } {
  const points = Array.from(prefix.replace(/\u{10FFFF}/gu, ''));
  const last = points.pop()?.codePointAt(0);
  if (last === undefined) return { from: '', to: '' };
  const stem = points.join('');
  return { from: stem + String.fromCodePoint(last), to: stem + String.fromCodePoint(last + 1 === 0xd800 ? 0xe000 : last + 1) };
}

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
