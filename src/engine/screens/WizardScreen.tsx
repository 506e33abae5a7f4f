import { useState } from 'react';
import { Box, Button, Flex, List, Text } from '@chakra-ui/react';
import type { WizardScreen as Wizard } from '../../../codegen/generated/descriptors.ts';
import { ScreenHost, type ScreenProps } from '../router.tsx';
import { condition, text } from '../expressions.ts';
import { useExprContext } from '../hooks.tsx';
import { HeadingLevel, Lazy, ScreenTitle } from '../ui.tsx';

/** wizard: numbered steps, each a page of screens/pages/, with Back and Next. */
export default function WizardScreen({ screen }: ScreenProps<Wizard>) {
  const context = useExprContext();
  const steps = screen.steps.filter((s) => condition(s.visible, context, true));
  const [index, setIndex] = useState(0);
  const step = steps[Math.min(index, steps.length - 1)];
  return (
    <Box data-screen="wizard">
      <ScreenTitle>{text(screen.title, context)}</ScreenTitle>
      <List.Root as="ol" display="flex" flexWrap="wrap" gap="2" mb="6" listStyleType="none" aria-label="Steps">
        {steps.map((s, i) => (
          <List.Item key={s.id}>
            <Button
              size="sm"
              variant={i === index ? 'solid' : 'outline'}
              colorPalette="brand"
              aria-current={i === index ? 'step' : undefined}
              onClick={() => setIndex(i)}
            >
              <Text as="span" fontWeight="bold">
                {i + 1}
              </Text>
              {text(s.title, context)}
            </Button>
          </List.Item>
        ))}
      </List.Root>
      {step ? (
        <HeadingLevel.Provider value={2}>
          <Lazy>
            <ScreenHost key={step.id} name={step.screen} />
          </Lazy>
        </HeadingLevel.Provider>
      ) : null}
      <Flex justify="space-between" mt="6">
        <Button variant="outline" onClick={() => setIndex((i) => Math.max(0, i - 1))} disabled={index === 0}>
          Back
        </Button>
        <Button colorPalette="brand" onClick={() => setIndex((i) => Math.min(steps.length - 1, i + 1))} disabled={index >= steps.length - 1}>
          Next
        </Button>
      </Flex>
    </Box>
  );
}
