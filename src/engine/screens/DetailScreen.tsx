import { useMemo } from 'react';
import { Box, DataList, Flex, Heading, Stack, Text } from '@chakra-ui/react';
import type { DetailScreen as Detail, DetailSection } from '../../../codegen/generated/descriptors.ts';
import type { ScreenProps } from '../screen-props.ts';
import { condition, evaluate, getPath, text, type Context } from '../../../core/expressions.ts';
import { useActionRuntime } from '../action-runtime.ts';
import { useExprContext } from '../use-context.ts';
import { useOperationQuery } from '../queries.ts';
import { formatField } from '../../../core/formats.ts';
import { safeImageSource } from '../../../core/urls.ts';
import { useEngine } from '../services.ts';
import { loadWidgets, read } from '../preload.ts';
import { ActionButton, ButtonRow, Loading, Panel, ScreenTitle, Shown } from '../ui.tsx';
import type { ActionRuntime } from '../actions.ts';

/** The status chip, from the widget registry (loaded only by screens that show one). */
function Chip({ value }: { value: unknown }) {
  const { StatusChip } = read(loadWidgets(useEngine()));
  return <StatusChip value={value} />;
}

/** One section: a title with its buttons, a text (line breaks kept), an image and fields; `item` is set for a repeated one. */
function Section({ section, ctx, hasData, runtime }: { section: DetailSection; ctx: Context; hasData: boolean; runtime: ActionRuntime }) {
  const fields = (section.fields ?? []).filter((f) => condition(f.visible, ctx, true));
  const src = section.image ? safeImageSource(evaluate(section.image.src, ctx)) : undefined;
  return (
    <Panel>
      {section.title || section.buttons ? (
        <Flex justify="space-between" align="center" gap="3" mb="3">
          <Heading as="h2" size="md">
            {text(section.title, ctx)}
          </Heading>
          {section.buttons ? (
            <Flex gap="2">
              {section.buttons.map((b, i) => (
                <ActionButton key={b.id ?? i} button={b} context={ctx} runtime={runtime} size="sm" />
              ))}
            </Flex>
          ) : null}
        </Flex>
      ) : null}
      {section.text ? (
        <Text mb={fields.length || src ? '4' : '0'} whiteSpace="pre-line">
          {text(section.text, ctx)}
        </Text>
      ) : null}
      {src ? (
        <Box mb={fields.length ? '4' : '0'}>
          <img src={src} alt={text(section.image!.alt, ctx)} width={section.image!.width} style={{ maxWidth: '100%', height: 'auto' }} />
        </Box>
      ) : null}
      {fields.length ? (
        <DataList.Root orientation="horizontal" size="md">
          {fields.map((field, j) => {
            const value = hasData ? evaluate(field.value, ctx) : undefined;
            return (
              <DataList.Item key={j}>
                <DataList.ItemLabel w={{ base: '8.5rem', sm: '160px' }} flexShrink={0} {...(field.emphasis ? { fontWeight: 'bold', color: 'fg' } : {})}>{text(field.label, ctx)}</DataList.ItemLabel>
                {/* minW 0 and anywhere: a key, a secret or an address with no spaces wraps inside the card, not past it. */}
                <DataList.ItemValue minW="0" overflowWrap="anywhere" {...(field.emphasis ? { fontWeight: 'bold', fontSize: 'xl' } : {})}>
                  {!hasData ? '' : field.format === 'chip' ? <Chip value={value} /> : <Shown format={field.format} value={value} shown={formatField(field.format, value, (at) => getPath(ctx, at))} />}
                </DataList.ItemValue>
              </DataList.Item>
            );
          })}
        </DataList.Root>
      ) : null}
    </Panel>
  );
}

/** detail: read-only sections of fields and texts over an optional operation's answer (`data`, or `error`). */
export default function DetailScreen({ screen }: ScreenProps<Detail>) {
  const context = useExprContext();
  const query = useOperationQuery(screen.source, context);
  const refetch = query.refetch;
  const reload = useMemo(() => ({ reload: () => void refetch() }), [refetch]);
  const runtime = useActionRuntime(reload);
  const data = screen.source?.select ? getPath(query.data, screen.source.select) : query.data;
  // A failed read is `error` (its status, message and problem details), so a quiet source can say in words what
  // went wrong instead of an error toast (an invitation link that no longer works).
  const ctx = { ...context, data, ...(query.error ? { error: query.error } : {}) };
  // Without a source every field reads the context; with one, fields wait for the answer.
  const hasData = !screen.source || data !== undefined;
  const sections = (screen.sections ?? []).flatMap((section, i) => {
    if (section.each === undefined) return condition(section.visible, ctx, true) ? [{ key: `${i}`, section, ctx }] : [];
    const items = evaluate(section.each, ctx);
    return (Array.isArray(items) ? items : [])
      .map((item, j) => ({ key: `${i}.${j}`, section, ctx: { ...ctx, item } }))
      .filter((entry) => condition(section.visible, entry.ctx, true));
  });
  return (
    <Box data-screen="detail">
      <ScreenTitle>{text(screen.title, ctx)}</ScreenTitle>
      {screen.intro ? (
        <Text mb="4" whiteSpace="pre-line">
          {text(screen.intro, ctx)}
        </Text>
      ) : null}
      {query.isLoading ? <Loading /> : null}
      {sections.length ? (
        <Stack gap="4">
          {sections.map((entry) => (
            <Section key={entry.key} section={entry.section} ctx={entry.ctx} hasData={hasData} runtime={runtime} />
          ))}
        </Stack>
      ) : null}
      <ButtonRow buttons={screen.buttons} context={ctx} runtime={runtime} />
    </Box>
  );
}
