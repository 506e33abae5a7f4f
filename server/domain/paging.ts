import { sql, type SQLWrapper } from 'drizzle-orm';
import type { PagedResult } from '../../codegen/generated/schemas.ts';

/** The paged result of spec §3 that every list call answers. */
/** A page of a list (the contract's PagedResult) with its rows typed. */
export type Page<T> = Omit<PagedResult, 'results'> & { results: T[] };

export const DEFAULT_PAGE_SIZE = 25;

/**
 * The count of every row the page query matched, selected beside each row: the page and its count
 * in one round trip to the database, which is what a list's throughput is bound by.
 */
export const totalRows = () => sql<number>`count(*) over ()`.mapWith(Number).as('total_rows');

/**
 * The count as a subquery of its own, selected beside each row like `totalRows()`: for a list whose conditions leave
 * many rows, which `count(*) over ()` would all read and join to show one page, while an index answers the count
 * alone (decision 0144).
 */
export const totalApart = (count: SQLWrapper) => sql<number>`(${count})`.mapWith(Number).as('total_rows');

/**
 * Runs a list's page query, whose rows carry `totalRows()` or `totalApart()` as `total`. A page past the end has no row
 * to carry it, so only then `count` runs. A page size of -1 means every row (the header's office
 * list), in which case the page query gets no limit.
 */
export async function paged<R, T>(
  request: { page?: number; pageSize?: number },
  rows: (limit: number | undefined, offset: number) => Promise<(R & { total: number })[]>,
  count: () => Promise<number>,
  map: (row: R) => T,
): Promise<Page<T>> {
  const pageSize = request.pageSize ?? DEFAULT_PAGE_SIZE;
  const all = pageSize === -1;
  const page = all ? 1 : (request.page ?? 1);
  const found = await (all ? rows(undefined, 0) : rows(pageSize, (page - 1) * pageSize));
  const rowCount = found[0]?.total ?? (page > 1 ? await count() : 0);
  return {
    currentPage: page,
    nextPage: !all && page * pageSize < rowCount ? page + 1 : null,
    pageSize,
    rowCount,
    results: found.map(map),
  };
}
