import { lazy, useContext, useMemo, useState } from 'react';
import { Box, Flex, Heading, Stack, Table, Text } from '@chakra-ui/react';
import type { Column, ReportScreen as ReportDescriptor, ReportSection } from '../../../codegen/generated/descriptors.ts';
import type { ScreenProps } from '../screen-props.ts';
import { condition, evaluate, getPath, text, type Context } from '../../../core/expressions.ts';
import { formatField } from '../../../core/formats.ts';
import { useActionRuntime } from '../action-runtime.ts';
import { useExprContext } from '../use-context.ts';
import { useOperationQuery } from '../queries.ts';
import { useEngine } from '../services.ts';
import { queryString } from '../routing.ts';
import { loadWidgets, read } from '../preload.ts';
import { ActionButton, HeadingLevel, Lazy, Loading, ScreenTitle, useReadyMark } from '../ui.tsx';
import { ScrollRegion } from '../scroll-region.tsx';
import type { ActionRuntime } from '../actions.ts';
import { tr } from '../../../core/current-language.ts';
import { Filters, filterDefaults, type FilterValues } from './filters.tsx';
import { Cell, CELLS } from './cell.tsx';
import { fieldErrorsOf } from '../forms/model.ts';
import type { ChartPoint } from './report-chart.tsx';

/** The charting library is loaded with the first chart, never before a report is opened. */
const ReportChart = lazy(() => import('./report-chart.tsx'));

type Row = Record<string, unknown>;

/** The chart's points from the section's table: the x column's words, each series column's figure. */
function chartPoints(section: ReportSection, rows: readonly Row[], context: Context): { points: ChartPoint[]; series: Column[] } {
  const chart = section.chart!;
  const column = (id: string) => section.columns.find((c) => c.id === id);
  const x = column(chart.x);
  const series = chart.series.map(column).filter((c): c is Column => c !== undefined);
  const valueOf = (c: Column, row: Row) => evaluate(c.value ?? { var: `row.${c.id}` }, { ...context, row });
  const points = rows.map((row) => ({
    name: x ? formatField(x.format, valueOf(x, row), (at) => getPath({ ...context, row }, at)) : '',
    ...Object.fromEntries(series.map((c) => [c.id, Number(valueOf(c, row) ?? 0)])),
  }));
  return { points, series };
}

function Section({ section, context, runtime }: { section: ReportSection; context: Context; runtime: ActionRuntime }) {
  const services = useEngine();
  const widgets = read(loadWidgets(services));
  const level = useContext(HeadingLevel);
  const found = getPath(context.data, section.rows);
  const rows = Array.isArray(found) ? (found as Row[]) : [];
  const columns = section.columns.filter((c) => condition(c.visible, context, true));
  const title = text(section.title, context);
  const summary = text(section.summary, context);
  const chart = section.chart && rows.length > 0 ? chartPoints(section, rows, context) : undefined;
  return (
    <Box as="section" aria-label={title} data-report-section={section.id} bg="bg" borderWidth="1px" borderColor="border" borderRadius="lg" p="4">
      <Flex justify="space-between" align="flex-start" gap="3" wrap="wrap" mb="2">
        <Heading as={`h${Math.min(level + 1, 4)}` as 'h2'} size="md">
          {title}
        </Heading>
        <Flex gap="2" wrap="wrap">
          {(section.toolbar ?? []).map((b, i) => (
            <ActionButton key={b.id ?? i} button={b} context={context} runtime={runtime} size="xs" />
          ))}
        </Flex>
      </Flex>
      {summary ? (
        <Text mb="3" color="fg.muted" data-report-summary>
          {summary}
        </Text>
      ) : null}
      {chart ? (
        <Lazy>
          <ReportChart
            type={section.chart!.type}
            direction={section.chart!.direction ?? 'vertical'}
            stacked={section.chart!.stacked ?? false}
            points={chart.points}
            series={chart.series.map((c) => ({ key: c.id, label: text(c.header, context), format: c.format }))}
            label={summary || title}
          />
        </Lazy>
      ) : null}
      {rows.length === 0 ? (
        <Text py="4" color="fg.muted">
          {section.empty === undefined ? tr('No records found.') : text(section.empty, context)}
        </Text>
      ) : (
        <ScrollRegion label={title} mt="3">
          <Table.Root size="sm" css={CELLS}>
            <Table.Header>
              <Table.Row>
                {columns.map((c) => (
                  <Table.ColumnHeader key={c.id} textAlign={c.align === 'end' ? 'end' : undefined} verticalAlign="bottom">
                    {text(c.header, context)}
                  </Table.ColumnHeader>
                ))}
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {rows.map((row, index) => (
                <Table.Row key={index}>
                  {columns.map((c) => (
                    <Table.Cell key={c.id} textAlign={c.align === 'end' ? 'end' : undefined}>
                      <Cell column={c} row={row} context={context} runtime={runtime} widgets={widgets} />
                    </Table.Cell>
                  ))}
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        </ScrollRegion>
      )}
    </Box>
  );
}

/**
 * report: one operation's answer as sections of a chart, its table and a sentence (issue 40). The filters are always
 * shown and shared: each change reads the operation again, and every section and download follows.
 */
export default function ReportScreen({ screen }: ScreenProps<ReportDescriptor>) {
  const base = useExprContext();
  const route = base.route as { path: string; query: Record<string, string> };
  // The address keeps the filters: back from the applications behind a figure, or from a shared link, the same report.
  const [filter, setFilter] = useState<FilterValues>(() => ({
    ...filterDefaults(screen.filters),
    ...Object.fromEntries((screen.filters ?? []).filter((f) => route.query[f.id]).map((f) => [f.id, route.query[f.id]])),
  }));
  const ctx = useMemo(() => ({ ...base, filter }), [base, filter]);
  const query = useOperationQuery(screen.source, ctx);
  const refetch = query.refetch;
  const runtime = useActionRuntime(useMemo(() => ({ reload: () => void refetch() }), [refetch]));
  const apply = (values: FilterValues) => {
    setFilter(values);
    runtime.navigate(`${route.path}${queryString(values)}`, true);
  };
  const context = useMemo(() => ({ ...ctx, data: query.data }), [ctx, query.data]);
  useReadyMark('report', !query.isLoading && !query.isFetching);
  // A value the server refuses (a 'To' before 'From') is said at its filter, not as a failed page.
  const filterErrors = query.isError ? fieldErrorsOf(query.error, (screen.filters ?? []).map((f) => f.id)) : undefined;
  const sections = screen.sections.filter((s) => condition(s.visible, context, true));
  return (
    <Box data-screen="report" data-ready={(!query.isLoading && !query.isFetching) || undefined}>
      <Flex justify="space-between" align="flex-start" gap="3" wrap="wrap">
        <ScreenTitle>{text(screen.title, context)}</ScreenTitle>
        <Flex gap="2" wrap="wrap">
          {(screen.toolbar ?? []).map((b, i) => (
            <ActionButton key={b.id ?? i} button={b} context={context} runtime={runtime} size="sm" />
          ))}
        </Flex>
      </Flex>
      {screen.intro ? <Text mb="4">{text(screen.intro, context)}</Text> : null}
      {screen.filters?.length ? <Filters id="report-filters" filters={screen.filters} values={filter} context={context} onApply={apply} errors={filterErrors} /> : null}
      {query.isLoading ? (
        <Loading />
      ) : filterErrors ? null : query.isError ? (
        <Text color="fg.muted">{tr('The report could not be loaded.')}</Text>
      ) : (
        <Stack gap="6">
          {sections.map((section) => (
            <Section key={section.id} section={section} context={context} runtime={runtime} />
          ))}
        </Stack>
      )}
    </Box>
  );
}
