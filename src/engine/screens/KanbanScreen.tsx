import { use } from 'react';
import { Box, Flex, Heading, Link, Text } from '@chakra-ui/react';
import type { KanbanScreen as Kanban } from '../../../codegen/generated/descriptors.ts';
import type { ScreenProps } from '../router.tsx';
import { condition, evaluate, getPath, text } from '../expressions.ts';
import { useExprContext, useOperationQuery } from '../hooks.tsx';
import { formatValue } from '../formats.ts';
import { resolveTarget } from '../routing.ts';
import { useEngine, type EngineServices, type WidgetRegistry } from '../services.ts';
import { Loading, ScreenTitle } from '../ui.tsx';

type Row = Record<string, unknown>;
const widgetCache = new WeakMap<EngineServices, Promise<WidgetRegistry>>();

/** 'ReadyToFinalize' → 'Ready To Finalize' */
export const humanize = (key: string) => key.replace(/([a-z])([A-Z])/g, '$1 $2');

/** kanban: lanes by a key (the stage), one card per application (the kanban block layout). */
export default function KanbanScreen({ screen }: ScreenProps<Kanban>) {
  const services = useEngine();
  let widgets = widgetCache.get(services);
  if (!widgets) widgetCache.set(services, (widgets = services.widgets()));
  const { StatusChip } = use(widgets);
  const context = useExprContext();
  const query = useOperationQuery(screen.source, context);
  const { lanes: spec, card } = screen;
  const answer = screen.source.rows ? getPath(query.data, screen.source.rows) : query.data;
  const list = Array.isArray(answer) ? (answer as Row[]) : [];
  let lanes: Array<{ key: string; items: Row[]; count: number }>;
  if (spec.group) {
    const byKey = new Map<string, Row[]>();
    for (const key of spec.order ?? []) byKey.set(key, []);
    for (const row of list) {
      const key = String(row[spec.key] ?? '');
      if (!byKey.has(key)) byKey.set(key, []);
      byKey.get(key)!.push(row);
    }
    lanes = [...byKey.entries()].map(([key, items]) => ({ key, items, count: items.length }));
  } else {
    lanes = list.map((lane) => {
      const items = (getPath(lane, spec.items) as Row[] | undefined) ?? [];
      const count = spec.count ? Number(getPath(lane, spec.count) ?? items.length) : items.length;
      return { key: String(lane[spec.key] ?? ''), items, count };
    });
  }
  return (
    <Box data-screen="kanban">
      <ScreenTitle>{text(screen.title, context)}</ScreenTitle>
      {query.isLoading ? <Loading /> : null}
      {!query.isLoading && lanes.length === 0 ? <Text color="fg.muted">{query.isError ? 'The board could not be loaded.' : 'No applications yet.'}</Text> : null}
      <Flex gap="4" overflowX="auto" pb="4" align="flex-start">
        {lanes.map((lane) => (
          <Box as="section" key={lane.key} aria-label={humanize(lane.key)} minW="260px" w="260px" bg="bg.muted" borderRadius="lg" p="3" flexShrink={0}>
            <Flex justify="space-between" align="center" mb="3">
              <Heading as="h2" size="sm">
                {spec.title ? text(spec.title, { ...context, lane }) : humanize(lane.key)}
              </Heading>
              <Text fontSize="sm" color="fg.muted">
                {lane.count}
              </Text>
            </Flex>
            <Flex direction="column" gap="2">
              {lane.items.map((row, i) => {
                const ctx = { ...context, row };
                let href: string | undefined;
                if (card.to) {
                  try {
                    const t = resolveTarget(card.to, ctx, services.descriptors.table);
                    href = t.kind === 'route' ? `#${t.path}` : t.href;
                  } catch {
                    href = undefined;
                  }
                }
                return (
                  <Box key={String(row.id ?? i)} bg="bg" borderRadius="md" borderWidth="1px" borderColor="border" p="3">
                    {href ? (
                      <Link href={href} fontWeight="semibold" color="brand.fg">
                        {text(card.title, ctx)}
                      </Link>
                    ) : (
                      <Text fontWeight="semibold">{text(card.title, ctx)}</Text>
                    )}
                    {card.chip ? (
                      <Box mt="1">
                        <StatusChip value={evaluate(card.chip, ctx)} />
                      </Box>
                    ) : null}
                    {(card.lines ?? [])
                      .filter((l) => condition(l.visible, ctx, true))
                      .map((l, j) => (
                        <Text key={j} fontSize="sm" color="fg.muted">
                          {text(l.label, ctx)}: {formatValue(l.format, evaluate(l.value, ctx))}
                        </Text>
                      ))}
                  </Box>
                );
              })}
            </Flex>
          </Box>
        ))}
      </Flex>
    </Box>
  );
}
