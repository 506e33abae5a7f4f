import { Box, Flex } from '@chakra-ui/react';
import type { LayoutProps } from '../layout-props.ts';
import { BrandMark, Footer, LanguagePicker } from './parts.tsx';

/** welcome: bare — the brand mark and the page, which fills a screen (the footer below it: OfficeLayout says why). */
export default function WelcomeLayout({ layout, children }: LayoutProps) {
  return (
    <Flex direction="column" minH="100vh" bg="bg.subtle" data-layout="welcome">
      <Flex as="header" px={{ base: '4', md: '8' }} py="4" justify="space-between" align="center" gap="3">
        <BrandMark />
        <LanguagePicker picker={layout.languages} />
      </Flex>
      <Box as="main" id="main-content" tabIndex={-1} flex="1" minH="100vh" w="full" maxW="960px" mx="auto" px={{ base: '4', md: '8' }} pb="10" outline="none">
        {children}
      </Box>
      <Footer footer={layout.footer} />
    </Flex>
  );
}
