import { Box, DataList, Heading, Stack, Text } from '@chakra-ui/react';
import type { DetailScreen as Detail } from '../../../codegen/generated/descriptors.ts';
import type { ScreenProps } from '../router.tsx';
import { condition, evaluate, getPath, text } from '../expressions.ts';
import { useActionRuntime, useExprContext, useOperationQuery } from '../hooks.tsx';
import { formatValue } from '../formats.ts';
import { ButtonRow, Loading, Panel, ScreenTitle } from '../ui.tsx';

/** detail: read-only sections of fields and texts over an optional operation's answer (`data`). */
export default function DetailScreen({ screen }: ScreenProps<Detail>) {
  const context = useExprContext();
  const query = useOperationQuery(screen.source, context);
  const runtime = useActionRuntime();
  const data = screen.source?.select ? getPath(query.data, screen.source.select) : query.data;
  const ctx = { ...context, data };
  return (
    <Box data-screen="detail">
      <ScreenTitle>{text(screen.title, ctx)}</ScreenTitle>
      {screen.intro ? <Text mb="4">{text(screen.intro, ctx)}</Text> : null}
      {query.isLoading ? <Loading /> : null}
      <Stack gap="4">
        {(screen.sections ?? [])
          .filter((section) => condition(section.visible, ctx, true))
          .map((section, i) => {
            const fields = (section.fields ?? []).filter((f) => condition(f.visible, ctx, true));
            return (
              <Panel key={i}>
                {section.title ? (
                  <Heading as="h2" size="md" mb="3">
                    {text(section.title, ctx)}
                  </Heading>
                ) : null}
                {section.text ? <Text mb={fields.length ? '4' : '0'}>{text(section.text, ctx)}</Text> : null}
                {fields.length ? (
                  <DataList.Root orientation="horizontal" size="md">
                    {fields.map((field, j) => (
                      <DataList.Item key={j}>
                        <DataList.ItemLabel minW="160px">{text(field.label, ctx)}</DataList.ItemLabel>
                        <DataList.ItemValue>{data === undefined ? '' : formatValue(field.format, evaluate(field.value, ctx))}</DataList.ItemValue>
                      </DataList.Item>
                    ))}
                  </DataList.Root>
                ) : null}
              </Panel>
            );
          })}
      </Stack>
      <ButtonRow buttons={screen.buttons} context={ctx} runtime={runtime} />
    </Box>
  );
}
