import { useMemo, useState } from 'react';
import { Box, Button, chakra, Flex, Table, Text } from '@chakra-ui/react';
import { rowPaginationFeature, rowSortingFeature, tableFeatures, useTable, type ColumnDef, type PaginationState, type SortingState } from '@tanstack/react-table';
import type { Column, TableScreen as TableDescriptor } from '../../../codegen/generated/descriptors.ts';
import type { ScreenProps } from '../screen-props.ts';
import { condition, evaluate, getPath, text } from '../../../core/expressions.ts';
import { useActionRuntime } from '../action-runtime.ts';
import { useExprContext } from '../use-context.ts';
import { useOperationQuery } from '../queries.ts';
import { useEngine } from '../services.ts';
import { loadWidgets, read } from '../preload.ts';
import { ActionButton, Loading, ScreenTitle, useReadyMark } from '../ui.tsx';
import { ScrollRegion } from '../scroll-region.tsx';
import { tr } from '../../../core/current-language.ts';
import { fill } from '../../../core/i18n.ts';
import { Filters, filterDefaults } from './filters.tsx';
import { Cell, CELLS } from './cell.tsx';

const features = tableFeatures({ rowPaginationFeature, rowSortingFeature });
type Row = Record<string, unknown>;
const NO_ROWS: Row[] = [];

/**
 * `narrow: "cards"`: under 600px each row is a card of 'header: value' lines (the header comes from the cell's
 * data-label), its buttons on a line of their own. A borrower comparing offers on a phone then sees every term and
 * the button without scrolling sideways (decision 0141). The header row is only hidden from sight, and the labels
 * drawn in the cards have empty alternative text, so a screen reader keeps reading the table as a table.
 */
const CARDS = {
  ...CELLS,
  display: { base: 'block', sm: 'table' },
  '& thead': {
    position: { base: 'absolute', sm: 'static' },
    width: { base: '1px', sm: 'auto' },
    height: { base: '1px', sm: 'auto' },
    overflow: { base: 'hidden', sm: 'visible' },
    clipPath: { base: 'inset(50%)', sm: 'none' },
  },
  '& tbody': { display: { base: 'block', sm: 'table-row-group' } },
  '& tr': { display: { base: 'block', sm: 'table-row' }, py: { base: '2', sm: '0' }, borderBottomWidth: { base: '1px', sm: '0' } },
  '& td': {
    display: { base: 'flex', sm: 'table-cell' },
    justifyContent: 'space-between',
    gap: '4',
    textAlign: { base: 'end', sm: 'inherit' },
    whiteSpace: 'normal',
    borderBottomWidth: { base: '0', sm: '1px' },
  },
  '& td::before': { content: { base: 'attr(data-label) / ""', sm: 'none' }, color: 'fg.muted', textAlign: 'start' },
  '& td[data-label=""]::before': { display: 'none' },
  '& .cell-prose': { minWidth: { base: '0', sm: '12rem' } },
  '& .cell-buttons': { flexWrap: 'wrap' },
} as const;
/**
 * A table wider than its place scrolls sideways; its last column, when it holds the rows' buttons, stays at the right
 * edge meanwhile, on the row's own background: an office's screen 1,280 px wide cut the home page's Finalize in half.
 * Not on a phone, where the buttons would cover every other column.
 */
const PINNED_BUTTONS = {
  '[data-scrolls] & .cell-pinned': { position: { md: 'sticky' }, insetInlineEnd: { md: 0 }, zIndex: { md: 1 }, bg: 'inherit', boxShadow: { md: '-1px 0 0 {colors.border}' } },
} as const;
/**
 * A table whose every header is for screen readers only (a list whose heading names what it lists) draws no header
 * row at any width: an empty band above the first row would say nothing to the eye.
 */
const HEADERS_UNSEEN = { '& thead': { position: 'absolute', width: '1px', height: '1px', overflow: 'hidden', clipPath: 'inset(50%)', whiteSpace: 'nowrap' } } as const;
/** A native checkbox (no state machine) in the brand colour, for row selection. */
function SelectBox({ label, checked, onChange, disabled, indeterminate }: { label: string; checked: boolean; onChange(checked: boolean): void; disabled?: boolean; indeterminate?: boolean }) {
  return (
    <chakra.input
      type="checkbox"
      aria-label={label}
      checked={checked}
      disabled={disabled}
      ref={(el: HTMLInputElement | null) => {
        if (el) el.indeterminate = !!indeterminate;
      }}
      onChange={(e) => onChange(e.target.checked)}
      w="4"
      h="4"
      verticalAlign="middle"
      cursor={disabled ? 'not-allowed' : 'pointer'}
      css={{ accentColor: 'var(--chakra-colors-brand-solid)' }}
    />
  );
}

/** table: server paging and sorting over the paged result (spec §3), status chips, the filter button. */
export default function TableScreen({ screen }: ScreenProps<TableDescriptor>) {
  const services = useEngine();
  const widgets = read(loadWidgets(services));
  const context = useExprContext();
  const source = screen.source;
  const [filter, setFilter] = useState<Row>(() => filterDefaults(screen.filters));
  const [showFilters, setShowFilters] = useState(false);
  const [pagination, setPagination] = useState<PaginationState>({ pageIndex: 0, pageSize: source.pageSize ?? 25 });
  const [sorting, setSorting] = useState<SortingState>(() => {
    const col = screen.columns.find((c) => c.sortBy === source.sortBy);
    return col ? [{ id: col.id, desc: source.sortDesc ?? false }] : [];
  });
  const ctx = useMemo(() => ({ ...context, filter }), [context, filter]);
  const sortColumn = screen.columns.find((c) => c.id === sorting[0]?.id);
  const paging = useMemo(
    () =>
      source.paged
        ? {
            page: pagination.pageIndex + 1,
            pageSize: pagination.pageSize,
            ...(sortColumn?.sortBy ? { sortBy: sortColumn.sortBy, sortDesc: sorting[0]?.desc ?? false } : source.sortBy ? { sortBy: source.sortBy, sortDesc: source.sortDesc ?? false } : {}),
          }
        : undefined,
    [source, pagination, sorting, sortColumn],
  );
  const query = useOperationQuery(source, ctx, paging);
  const refetch = query.refetch;
  const reload = useMemo(() => ({ reload: () => void refetch() }), [refetch]);
  const runtime = useActionRuntime(reload);
  const answer = query.data as Row | Row[] | undefined;
  const rowsPath = source.rows ?? (source.paged ? 'results' : '');
  const found = rowsPath ? getPath(answer, rowsPath) : answer;
  const rows = useMemo(() => {
    const all = Array.isArray(found) ? (found as Row[]) : NO_ROWS;
    return source.filter === undefined ? all : all.filter((row) => condition(source.filter, { ...ctx, row }, true));
  }, [found, source.filter, ctx]);
  useReadyMark('table', !query.isLoading && !query.isFetching);

  // Row selection: picked keys, of which only rows still listed count (a refetch drops rows that left the list).
  const select = screen.select && condition(screen.select.visible, ctx, true) ? screen.select : undefined;
  const keyPath = screen.rowKey ?? 'id';
  const keyOf = (row: Row) => String(getPath(row, keyPath) ?? '');
  const [picked, setPicked] = useState<ReadonlySet<string>>(() => new Set());
  const selectable = (row: Row) => !select || condition(select.enabled, { ...ctx, row }, true);
  const selectedRows = select ? rows.filter((row) => picked.has(keyOf(row)) && selectable(row)) : NO_ROWS;
  const selection = selectedRows.map((row) => evaluate(select?.value ?? { var: `row.${keyPath}` }, { ...ctx, row }));
  const toolbarCtx = select ? { ...ctx, selection, selectedRows } : ctx;
  const pageSelectable = select ? rows.filter(selectable) : NO_ROWS;
  const allPicked = pageSelectable.length > 0 && pageSelectable.every((row) => picked.has(keyOf(row)));
  const pickRows = (list: readonly Row[], on: boolean) =>
    setPicked((p) => {
      const next = new Set(p);
      for (const row of list) {
        if (on) next.add(keyOf(row));
        else next.delete(keyOf(row));
      }
      return next;
    });
  const rowCount = source.paged && answer && !Array.isArray(answer) && typeof answer.rowCount === 'number' ? answer.rowCount : rows.length;
  // Columns from the context (a flow's own columns) come before the screen's own.
  const extra = screen.columnsFrom === undefined ? undefined : evaluate(screen.columnsFrom, ctx);
  const allColumns = Array.isArray(extra) ? [...(extra as Column[]), ...screen.columns] : screen.columns;
  const visibleColumns = allColumns.filter((c) => condition(c.visible, ctx, true));
  const columns = useMemo<ColumnDef<typeof features, Row>[]>(
    () =>
      visibleColumns.map((column) => ({
        id: column.id,
        header: () => (column.headerHidden ? <Text as="span" srOnly>{text(column.header, ctx)}</Text> : text(column.header, ctx)),
        accessorFn: (row: Row) => evaluate(column.value ?? { var: `row.${column.id}` }, { ...ctx, row }),
        cell: (info) => <Cell column={column} row={info.row.original} context={ctx} runtime={runtime} widgets={widgets} />,
        enableSorting: !!column.sortBy,
        sortDescFirst: false,
      })),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [visibleColumns.map((c) => c.id).join(), ctx, runtime, widgets],
  );
  const table = useTable({
    features,
    columns,
    data: rows,
    rowCount,
    state: { pagination, sorting },
    onPaginationChange: setPagination,
    onSortingChange: (updater) => {
      setSorting(updater);
      setPagination((p) => ({ ...p, pageIndex: 0 }));
    },
    manualPagination: true,
    manualSorting: true,
    enableSortingRemoval: false,
    getRowId: (row, index) => String(row[screen.rowKey ?? 'id'] ?? index),
  });
  const pageCount = source.paged ? Math.max(1, Math.ceil(rowCount / pagination.pageSize)) : 1;
  const cards = screen.narrow === 'cards';
  const headersUnseen = !select && visibleColumns.every((c) => c.headerHidden);
  const pinned = visibleColumns.at(-1)?.buttons ? visibleColumns.at(-1)!.id : undefined;
  const filterCount = Object.values(filter).filter((v) => v !== undefined && v !== '').length;
  return (
    <Box data-screen="table" data-ready={!query.isLoading || undefined}>
      <Flex justify="space-between" align="flex-start" gap="3" wrap="wrap">
        <ScreenTitle>{text(screen.title, ctx)}</ScreenTitle>
        <Flex gap="2" wrap="wrap">
          {screen.filters?.length ? (
            <Button size="sm" variant="outline" aria-expanded={showFilters} aria-controls="table-filters" onClick={() => setShowFilters((s) => !s)}>
              {tr('Filter')}{filterCount ? ` (${filterCount})` : ''}
            </Button>
          ) : null}
          {(screen.toolbar ?? []).map((b, i) => (
            <ActionButton key={b.id ?? i} button={b} context={toolbarCtx} runtime={runtime} size="sm" />
          ))}
        </Flex>
      </Flex>
      {screen.intro ? <Text mb="4">{text(screen.intro, ctx)}</Text> : null}
      {showFilters && screen.filters ? (
        <Filters
          filters={screen.filters}
          values={filter}
          context={ctx}
          onApply={(v) => {
            setFilter(v);
            setPagination((p) => ({ ...p, pageIndex: 0 }));
          }}
        />
      ) : null}
      <ScrollRegion label={text(screen.title, ctx) || tr('Table')} bg="bg" borderWidth="1px" borderColor="border" borderRadius="lg">
        <Table.Root size="sm" interactive css={[cards ? CARDS : CELLS, PINNED_BUTTONS, headersUnseen ? HEADERS_UNSEEN : {}]}>
          <Table.Header>
            {table.getHeaderGroups().map((group) => (
              <Table.Row key={group.id}>
                {select ? (
                  <Table.ColumnHeader w="1">
                    <SelectBox
                      label={select.allLabel === undefined ? tr('Select all rows on this page') : text(select.allLabel, ctx)}
                      checked={allPicked}
                      indeterminate={!allPicked && selectedRows.length > 0}
                      disabled={pageSelectable.length === 0}
                      onChange={(on) => pickRows(pageSelectable, on)}
                    />
                  </Table.ColumnHeader>
                ) : null}
                {group.headers.map((header) => {
                  const column = visibleColumns.find((c) => c.id === header.column.id);
                  const sorted = header.column.getIsSorted();
                  return (
                    <Table.ColumnHeader
                      key={header.id}
                      className={header.column.id === pinned ? 'cell-pinned' : undefined}
                      textAlign={column?.align === 'end' ? 'end' : undefined}
                      aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined}
                      verticalAlign="bottom"
                    >
                      {header.column.getCanSort() ? (
                        <Button variant="plain" size="sm" px="0" h="auto" whiteSpace="inherit" textAlign="inherit" fontWeight="semibold" onClick={header.column.getToggleSortingHandler()}>
                          <table.FlexRender header={header} />
                          <span aria-hidden>{sorted === 'asc' ? ' ▲' : sorted === 'desc' ? ' ▼' : ''}</span>
                        </Button>
                      ) : (
                        <table.FlexRender header={header} />
                      )}
                    </Table.ColumnHeader>
                  );
                })}
              </Table.Row>
            ))}
          </Table.Header>
          <Table.Body>
            {table.getRowModel().rows.map((row) => (
              <Table.Row key={row.id} aria-selected={select ? picked.has(keyOf(row.original)) && selectable(row.original) : undefined}>
                {select ? (
                  <Table.Cell>
                    <SelectBox
                      label={text(select.label ?? `Select {row.${keyPath}}`, { ...ctx, row: row.original })}
                      checked={picked.has(keyOf(row.original)) && selectable(row.original)}
                      disabled={!selectable(row.original)}
                      onChange={(on) => pickRows([row.original], on)}
                    />
                  </Table.Cell>
                ) : null}
                {row.getAllCells().map((cell) => {
                  const column = visibleColumns.find((c) => c.id === cell.column.id);
                  return (
                    <Table.Cell
                      key={cell.id}
                      className={cell.column.id === pinned ? 'cell-pinned' : undefined}
                      textAlign={column?.align === 'end' ? 'end' : undefined}
                      data-label={cards ? (column?.headerHidden ? '' : text(column?.header ?? '', ctx)) : undefined}
                    >
                      <table.FlexRender cell={cell} />
                    </Table.Cell>
                  );
                })}
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
        {query.isLoading ? (
          <Box px="4">
            <Loading />
          </Box>
        ) : rows.length === 0 ? (
          <Text px="4" py="6" color="fg.muted">
            {query.isError ? tr('The list could not be loaded.') : screen.empty === undefined ? tr('No records found.') : text(screen.empty, ctx)}
          </Text>
        ) : null}
      </ScrollRegion>
      {source.paged ? (
        <Flex justify="space-between" align="center" mt="3" gap="3" wrap="wrap" fontSize="sm">
          <Text color="fg.muted">
            {fill(rowCount === 1 ? tr('1 record · Page {page} of {pages}') : tr('{count} records · Page {page} of {pages}'), { count: rowCount, page: pagination.pageIndex + 1, pages: pageCount })}
          </Text>
          <Flex gap="2">
            <Button size="sm" variant="outline" onClick={() => table.previousPage()} disabled={pagination.pageIndex === 0}>
              {tr('Previous')}
            </Button>
            <Button size="sm" variant="outline" onClick={() => table.nextPage()} disabled={pagination.pageIndex + 1 >= pageCount}>
              {tr('Next')}
            </Button>
          </Flex>
        </Flex>
      ) : null}
    </Box>
  );
}
