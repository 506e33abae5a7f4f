import { and, eq, gte, lt, or, sql, type Placeholder, type SQL, type SQLWrapper } from 'drizzle-orm';
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

/** Where a list finds an applicant: lower('first last'), lower(last) and the application's id. */
export interface NameColumns {
  fullName: SQLWrapper;
  lastName: SQLWrapper;
  id: PgColumn;
}

/**
 * 'Applicant Name or ID': an id matches exactly, a name matches from the start of 'first last' or of the last name
 * alone ('smi' finds John Smith). Both name tests are prefix ranges, which an index on the expression
 * (text_pattern_ops) answers (decisions 0080, 0144).
 */
export function nameOrIdSearch(search: string | undefined, columns: NameColumns, bind: Bind = inline): SQL | undefined {
  const text = search?.trim().toLowerCase().replace(/\s+/g, ' ');
  if (!text) return undefined;
  const range = prefixRange(text);
  const from = bind('nameFrom', range.from);
  const to = bind('nameTo', range.to);
  const startsWith = (column: SQLWrapper) => sql`(${column} ~>=~ ${from} and ${column} ~<~ ${to})`;
  const byName = or(startsWith(columns.fullName), startsWith(columns.lastName))!;
  return /^\d{1,15}$/.test(text) ? or(eq(columns.id, bind('searchId', Number(text))), byName) : byName;
}

/** A list query's fromDate / toDate (MM/dd/yyyy, both days included) on a timestamp column. */
export function withinDates(column: PgColumn, query: { fromDate?: string; toDate?: string }, bind: Bind = inline): SQL | undefined {
  const start = (us: string) => new Date(`${fromUsDate(us)}T00:00:00Z`);
  return and(
    query.fromDate ? gte(column, bind('fromDate', start(query.fromDate))) : undefined,
    query.toDate ? lt(column, bind('toDate', new Date(start(query.toDate).getTime() + DAY_MS))) : undefined,
  );
}
