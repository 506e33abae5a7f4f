import { Box, Flex, Text } from '@chakra-ui/react';
import type { LayoutProps } from '../layout-props.ts';
import { text } from '../../../core/expressions.ts';
import { useActionRuntime } from '../action-runtime.ts';
import { useExprContext } from '../use-context.ts';
import { ActionButton } from '../ui.tsx';
import { LanguagePicker } from './parts.tsx';

/** esign: a bar with the close button only, the signing page below. */
export default function EsignLayout({ layout, children }: LayoutProps) {
  const context = useExprContext();
  const runtime = useActionRuntime();
  return (
    <Flex direction="column" minH="100vh" data-layout="esign">
      <Flex as="header" align="center" justify="space-between" h="56px" px={{ base: '3', md: '6' }} bg="brand.solid" color="brand.contrast" position="sticky" top="0" zIndex="docked">
        <Text fontWeight="semibold">{text(layout.bar?.title, context)}</Text>
        <Flex align="center" gap="2">
          <LanguagePicker picker={layout.languages} />
        {layout.bar?.close ? (
          <Box color="brand.contrast" css={{ '& button': { color: 'inherit' } }}>
            <ActionButton button={layout.bar.close} context={context} runtime={runtime} size="sm" />
          </Box>
        ) : null}
        </Flex>
      </Flex>
      <Box as="main" id="main-content" tabIndex={-1} flex="1" p={{ base: '3', md: '6' }} outline="none">
        {children}
      </Box>
    </Flex>
  );
}
