/** The paged result of spec §3 that every list call answers. */
export interface Page<T> {
  currentPage: number;
  nextPage: number | null;
  pageSize: number;
  rowCount: number;
  results: T[];
}

export const DEFAULT_PAGE_SIZE = 25;

/**
 * Runs a list's page query and its count together. A page size of -1 means every row (the header's
 * office list), in which case the page query gets no limit.
 */
export async function paged<R, T>(
  request: { page?: number; pageSize?: number },
  rows: (limit: number | undefined, offset: number) => Promise<R[]>,
  count: () => Promise<number>,
  map: (row: R) => T,
): Promise<Page<T>> {
  const pageSize = request.pageSize ?? DEFAULT_PAGE_SIZE;
  const all = pageSize === -1;
  const page = all ? 1 : (request.page ?? 1);
  const [found, rowCount] = await Promise.all([all ? rows(undefined, 0) : rows(pageSize, (page - 1) * pageSize), count()]);
  return {
    currentPage: page,
    nextPage: !all && page * pageSize < rowCount ? page + 1 : null,
    pageSize,
    rowCount,
    results: found.map(map),
  };
}
