import { Box, SimpleGrid, Text } from '@chakra-ui/react';
import type { ChoiceScreen as Choice } from '../../../codegen/generated/descriptors.ts';
import type { ScreenProps } from '../screen-props.ts';
import { text } from '../../../core/expressions.ts';
import { useActionRuntime } from '../action-runtime.ts';
import { useExprContext } from '../use-context.ts';
import { ActionButton, ButtonRow, ScreenTitle } from '../ui.tsx';

/** dialog: a message and/or a choice between buttons (How would you like to apply?). */
export default function ChoiceScreen({ screen }: ScreenProps<Choice>) {
  const context = useExprContext();
  const runtime = useActionRuntime();
  // A message may be conditional: an empty one takes no room.
  const message = text(screen.text, context);
  return (
    <Box data-screen="dialog">
      {screen.dialog ? null : <ScreenTitle>{text(screen.title, context)}</ScreenTitle>}
      {message ? <Text mb="4">{message}</Text> : null}
      {screen.choices?.length ? (
        <SimpleGrid columns={{ base: 1, sm: Math.min(screen.choices.length, 3) }} gap="3">
          {screen.choices.map((choice, i) => (
            <ActionButton key={choice.id ?? i} button={choice} context={context} runtime={runtime} size="lg" fullWidth />
          ))}
        </SimpleGrid>
      ) : null}
      <ButtonRow buttons={screen.buttons} context={context} runtime={runtime} justify="flex-end" />
    </Box>
  );
}
