import { memo, useMemo, type ComponentType } from 'react';
import { Box, Text } from '@chakra-ui/react';
import type { KanbanCard, KanbanScreen as Kanban } from '../../../codegen/generated/descriptors.ts';
import type { ScreenProps } from '../screen-props.ts';
import { condition, evaluate, getPath, text, type Context } from '../../../core/expressions.ts';
import { useExprContext } from '../use-context.ts';
import { useOperationQueries } from '../queries.ts';
import { formatField } from '../../../core/formats.ts';
import { resolveTarget, type RouteEntry } from '../routing.ts';
import { useEngine } from '../services.ts';
import { loadWidgets, read } from '../preload.ts';
import { Loading, ScreenTitle, useReadyMark } from '../ui.tsx';
import { tr } from '../../../core/current-language.ts';

type Row = Record<string, unknown>;

const BOARD = {
  display: 'flex',
  gap: '4',
  overflowX: 'auto',
  pb: '4',
  alignItems: 'flex-start',
  '& .kb-lane': { minWidth: '260px', width: '260px', bg: 'bg.muted', borderRadius: 'lg', p: '3', flexShrink: 0 },
  '& .kb-lane-head': { display: 'flex', justifyContent: 'space-between', alignItems: 'center', mb: '3' },
  '& .kb-lane-head h2': { fontSize: 'sm', fontWeight: 'semibold', lineHeight: '1.25rem' },
  '& .kb-lane-head p, & .kb-card p': { fontSize: 'sm', color: 'fg.muted' },
  '& .kb-cards': { display: 'flex', flexDirection: 'column', gap: '2' },
  '& .kb-card': { bg: 'bg', borderRadius: 'md', borderWidth: '1px', borderColor: 'border', p: '3' },
  '& .kb-card-title': { fontWeight: 'semibold', display: 'block' },
  '& a.kb-card-title': { color: 'brand.fg', _hover: { textDecoration: 'underline' } },
  '& .kb-chip': { mt: '1' },
} as const;

/** One card: its title (a link when it has a target), the status chip and the lines of the descriptor. */
const Card = memo(function Card(props: { card: KanbanCard; context: Context; row: Row; StatusChip: ComponentType<{ value: unknown }>; table: readonly RouteEntry[] }) {
  const { card, row, StatusChip } = props;
  const ctx = { ...props.context, row };
  let href: string | undefined;
  if (card.to) {
    try {
      const t = resolveTarget(card.to, ctx, props.table);
      href = t.kind === 'route' ? `#${t.path}` : t.href;
    } catch {
      href = undefined;
    }
  }
  const title = text(card.title, ctx);
  return (
    <div className="kb-card">
      {href ? (
        <a className="kb-card-title" href={href}>
          {title}
        </a>
      ) : (
        <span className="kb-card-title">{title}</span>
      )}
      {card.chip ? (
        <div className="kb-chip">
          <StatusChip value={evaluate(card.chip, ctx)} />
        </div>
      ) : null}
      {(card.lines ?? [])
        .filter((l) => condition(l.visible, ctx, true))
        .map((l, j) => (
          <p key={j}>
            {text(l.label, ctx)}: {formatField(l.format, evaluate(l.value, ctx), (at) => getPath(ctx, at))}
          </p>
        ))}
    </div>
  );
});

type Lane = { key: string; items: Row[]; count: number };

/** A lane from an answer that holds its cards (at `items`) and, maybe, its full count (at `count`). */
function laneOf(spec: Kanban['lanes'], key: string, lane: unknown): Lane {
  const items = (getPath(lane, spec.items) as Row[] | undefined) ?? [];
  return { key, items, count: spec.count ? Number(getPath(lane, spec.count) ?? items.length) : items.length };
}

/** One answer holding every lane (grouped here when its rows are flat). */
function lanesOfOne(spec: Kanban['lanes'], answer: unknown): Lane[] {
  const list = Array.isArray(answer) ? (answer as Row[]) : [];
  if (!spec.group) return list.map((lane) => laneOf(spec, String(lane[spec.key] ?? ''), lane));
  const byKey = new Map<string, Row[]>();
  for (const key of spec.order ?? []) byKey.set(key, []);
  for (const row of list) {
    const key = String(row[spec.key] ?? '');
    if (!byKey.has(key)) byKey.set(key, []);
    byKey.get(key)!.push(row);
  }
  return [...byKey.entries()].map(([key, items]) => ({ key, items, count: items.length }));
}

/** kanban: lanes by a key (the stage), one card per application (the kanban block layout). */
export default function KanbanScreen({ screen }: ScreenProps<Kanban>) {
  const services = useEngine();
  const { StatusChip } = read(loadWidgets(services));
  const context = useExprContext();
  const { lanes: spec, card } = screen;
  // One call for the board, or one per lane of `order` (each seeing its `lane.key`).
  const calls = useMemo(() => (spec.perLane ? (spec.order ?? []).map((key) => ({ ...context, lane: { key } })) : [context]), [context, spec]);
  const queries = useOperationQueries(screen.source, calls);
  const isLoading = queries.some((q) => q.isLoading);
  const isFetching = queries.some((q) => q.isFetching);
  const isError = queries.some((q) => q.isError);
  const rowsOf = (data: unknown) => (screen.source.rows ? getPath(data, screen.source.rows) : data);
  const lanes: Lane[] = spec.perLane
    ? (spec.order ?? []).map((key, i) => laneOf(spec, key, rowsOf(queries[i]?.data)))
    : lanesOfOne(spec, rowsOf(queries[0]?.data));
  useReadyMark('kanban', !isLoading && !isFetching);
  return (
    <Box data-screen="kanban" data-ready={!isLoading || undefined}>
      <ScreenTitle>{text(screen.title, context)}</ScreenTitle>
      {isLoading ? <Loading /> : null}
      {!isLoading && lanes.length === 0 ? <Text color="fg.muted">{isError ? tr('The board could not be loaded.') : tr('No applications yet.')}</Text> : null}
      {/* One stylesheet for the board, plain elements inside: a board holds hundreds of cards, and a styled component
          per element costs more than the cards themselves (bench/kanban.ts). */}
      <Box css={BOARD}>
        {lanes.map((lane) => (
          <section key={lane.key} aria-label={text(spec.title, { ...context, lane })} className="kb-lane">
            <div className="kb-lane-head">
              <h2>{text(spec.title, { ...context, lane })}</h2>
              <p>{lane.count}</p>
            </div>
            <div className="kb-cards">
              {lane.items.map((row, i) => (
                <Card key={String(row.id ?? i)} card={card} context={context} row={row} StatusChip={StatusChip} table={services.descriptors.table} />
              ))}
            </div>
          </section>
        ))}
      </Box>
    </Box>
  );
}
