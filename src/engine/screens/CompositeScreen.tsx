import { Box, Stack, Tabs } from '@chakra-ui/react';
import type { CompositeScreen as Composite } from '../../../codegen/generated/descriptors.ts';
import { ScreenHost, type ScreenProps } from '../router.tsx';
import { condition, text } from '../expressions.ts';
import { useExprContext } from '../hooks.tsx';
import { HeadingLevel, Lazy, ScreenTitle } from '../ui.tsx';

/** composite: pages of screens/pages/ stacked or as tabs. */
export default function CompositeScreen({ screen }: ScreenProps<Composite>) {
  const context = useExprContext();
  const parts = screen.parts.filter((p) => condition(p.visible, context, true));
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
      <Stack gap="8">
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
      <HeadingLevel value={2}>{body}</HeadingLevel>
    </Box>
  );
}
