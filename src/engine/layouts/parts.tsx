/** Parts shared by the layouts: brand mark, language picker, footer, skip link. */
import { Box, Button, Flex, Link, Text } from '@chakra-ui/react';
import type { LanguagePicker as LanguagePickerDescriptor, LayoutFooter } from '../../../codegen/generated/descriptors.ts';
import { condition, evaluate, text } from '../../../core/expressions.ts';
import { useExprContext } from '../use-context.ts';
import { useEngine } from '../services.ts';
import { tr } from '../../../core/current-language.ts';
import { safeContactLink, safeImageSource } from '../../../core/urls.ts';

/** The brand's logo and name; on narrow screens (below 600px) the short word mark. */
export function BrandMark() {
  const { brand } = useEngine();
  const { name, descriptor: { logo } } = brand;
  const src = safeImageSource(logo.src);
  return (
    <Flex align="center" gap="2" minW="0" flexShrink={1}>
      {src ? <img src={src} alt={name} style={{ maxHeight: 40, maxWidth: 160 }} /> : null}
      <Text as="span" fontWeight="bold" fontSize="lg" color="brand.fg" whiteSpace="nowrap" overflow="hidden" textOverflow="ellipsis">
        <Text as="span" display={{ base: 'none', sm: 'inline' }}>
          {name}
        </Text>
        <Text as="span" display={{ base: 'inline', sm: 'none' }}>
          {logo.text}
        </Text>
      </Text>
    </Flex>
  );
}

/** One button per language, each named in itself (and marked as such for screen readers); the current one pressed. */
export function LanguagePicker({ picker }: { picker: LanguagePickerDescriptor | undefined }) {
  const context = useExprContext();
  const { languages } = useEngine();
  if (!picker || languages.list.length < 2 || !condition(picker.visible, context, true)) return null;
  return (
    <Flex as="nav" aria-label={text(picker.label, context)} gap="1" align="center" data-languages>
      {languages.list.map((language) => {
        const current = language.locale === context.locale;
        // The current one outlined in the text's own colour: readable on any header, the brand's bar included.
        return (
          <Button
            key={language.locale}
            lang={language.locale}
            size="xs"
            variant={current ? 'outline' : 'ghost'}
            borderColor={current ? 'currentColor' : 'transparent'}
            fontWeight={current ? 'bold' : 'normal'}
            color="inherit"
            aria-pressed={current}
            onClick={() => void languages.choose(language.locale)}
          >
            {language.name}
          </Button>
        );
      })}
    </Flex>
  );
}

export function Footer({ footer }: { footer: LayoutFooter | undefined }) {
  const context = useExprContext();
  if (!footer) return null;
  return (
    <Box as="footer" borderTopWidth="1px" borderColor="border" px={{ base: '4', md: '8' }} py="4" fontSize="sm" color="fg.muted" bg="bg">
      <Flex gap={{ base: '2', md: '6' }} wrap="wrap" align="center" direction={{ base: 'column', sm: 'row' }}>
        <Text>{text(footer.copyright, context)}</Text>
        {footer.links.map((link, i) => {
          const href = safeContactLink(evaluate(link.href, context));
          // An address that fails the rule (decision 0250) leaves its words, not a link.
          return href ? (
            <Link key={i} href={href} target="_blank" rel="noopener noreferrer" color="fg.muted" textDecoration="underline">
              {text(link.label, context)}
            </Link>
          ) : (
            <Text key={i}>{text(link.label, context)}</Text>
          );
        })}
      </Flex>
    </Box>
  );
}

export function SkipLink() {
  return (
    <Link
      href="#main-content"
      onClick={(e) => {
        e.preventDefault();
        document.getElementById('main-content')?.focus();
      }}
      position="absolute"
      left="2"
      top="-40"
      zIndex="skipNav"
      bg="bg"
      p="2"
      _focus={{ top: '2' }}
    >
      {tr('Skip to content')}
    </Link>
  );
}
