import { useContext } from 'react';
import { Box, Stack, Tabs } from '@chakra-ui/react';
import type { CompositeScreen as Composite } from '../../../codegen/generated/descriptors.ts';
import { ScreenHost } from '../screen-view.tsx';
import type { ScreenProps } from '../screen-props.ts';
import { condition, text } from '../../../core/expressions.ts';
import { useExprContext } from '../use-context.ts';
import { useOperationQuery } from '../queries.ts';
import { HeadingLevel, Lazy, Loading, ScreenTitle } from '../ui.tsx';

/** composite: pages of screens/pages/ stacked or as tabs; an optional source's answer (`data`) decides which parts show. */
export default function CompositeScreen({ screen }: ScreenProps<Composite>) {
  const level = useContext(HeadingLevel);
  const base = useExprContext();
  const query = useOperationQuery(screen.source, base);
  const context = screen.source ? { ...base, data: query.data } : base;
  // The parts read the source's answer, so they show once it is there. After a failed read none shows: a part mounting
  // would read the failed source again, which puts the composite back to loading and unmounts the part — a loop.
  const reading = !!screen.source && condition(screen.source.when, base, true);
  const waiting = reading && query.isLoading;
  const parts = reading && query.data === undefined ? [] : screen.parts.filter((p) => condition(p.visible, context, true));
  const body =
    screen.arrangement === 'tabs' ? (
      <Tabs.Root defaultValue={parts[0]?.screen} lazyMount variant="line">
        <Tabs.List flexWrap="wrap">
          {parts.map((p) => (
            <Tabs.Trigger key={p.screen} value={p.screen}>
              {text(p.title ?? p.screen, context)}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        {parts.map((p) => (
          <Tabs.Content key={p.screen} value={p.screen}>
            <Lazy>
              <ScreenHost name={p.screen} />
            </Lazy>
          </Tabs.Content>
        ))}
      </Tabs.Root>
    ) : (
      // A part with nothing to show this person (every section of it hidden by its condition) takes no gap either.
      <Stack gap="8" css={{ '& > :empty': { display: 'none' } }}>
        {parts.map((p) => (
          <Lazy key={p.screen}>
            <ScreenHost name={p.screen} />
          </Lazy>
        ))}
      </Stack>
    );
  return (
    <Box data-screen="composite">
      <ScreenTitle>{text(screen.title, context)}</ScreenTitle>
      {waiting ? <Loading /> : null}
      {/* Untitled, the composite is only a stack of pages: its parts keep the page's heading level (one h1). */}
      <HeadingLevel.Provider value={screen.title ? ((Math.min(level + 1, 3)) as 2 | 3) : level}>{body}</HeadingLevel.Provider>
    </Box>
  );
}
