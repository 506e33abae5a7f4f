import { sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';

/**
 * Conversions at the API boundary. Money is integer cents inside (database and arithmetic) and a
 * dollar number with at most two decimals on the wire; people's dates are MM/dd/yyyy on the wire and
 * yyyy-mm-dd in the database.
 */

export function toDollars(cents: number): number;
export function toDollars(cents: number | null): number | null;
export function toDollars(cents: number | null): number | null {
  return cents === null ? null : cents / 100;
}

/** Exact for any dollar amount with at most two decimals (the contract's x-money rule). */
export function toCents(dollars: number): number {
  const cents = Math.round(dollars * 100);
  if (!Number.isSafeInteger(cents)) throw new RangeError(`amount out of range: ${dollars}`);
  return cents;
}

/** yyyy-mm-dd → MM/dd/yyyy */
export function toUsDate(iso: string | null): string | null {
  if (!iso) return null;
  const [year, month, day] = iso.slice(0, 10).split('-');
  return `${month}/${day}/${year}`;
}

/** MM/dd/yyyy → yyyy-mm-dd */
export function fromUsDate(us: string): string {
  return `${us.slice(6, 10)}-${us.slice(0, 2)}-${us.slice(3, 5)}`;
}

/**
 * An instant as `toUtc` writes it ('2026-12-03T07:48:32.500Z', milliseconds cut as a Date cuts them), written by the
 * database as it selects the column. For the lists that send hundreds of instants: the database formats each one for
 * the wire anyway, and the server's Date parse and toISOString cost about 0.8 µs each, about a ninth of the kanban's time
 * on the server (decision 0307).
 */
export function utcText<C extends PgColumn>(column: C, alias: string): SQL.Aliased<C['_']['notNull'] extends true ? string : string | null> {
  return sql<C['_']['notNull'] extends true ? string : string | null>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`.as(alias);
}

export function toUtc(at: Date | string): string;
export function toUtc(at: Date | string | null): string | null;
export function toUtc(at: Date | string | null): string | null {
  if (at === null) return null;
  return (at instanceof Date ? at : new Date(at)).toISOString();
}
