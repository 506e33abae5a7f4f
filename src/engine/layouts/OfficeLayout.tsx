import { useState } from 'react';
import { Box, Flex, Text } from '@chakra-ui/react';
import type { LayoutProps } from '../layout-props.ts';
import { condition, evaluate } from '../../../core/expressions.ts';
import { useExprContext } from '../use-context.ts';
import { useOperationQuery } from '../queries.ts';
import { formatPhone } from '../../../core/formats.ts';
import { safeImageSource } from '../../../core/urls.ts';
import { Footer, LanguagePicker } from './parts.tsx';
import { tr } from '../../../core/current-language.ts';
import { fill } from '../../../core/i18n.ts';

/**
 * office: the pre-qualification header — office name, id, phone, address and logo (at most 200 × 60). The page's area
 * fills a screen, so the footer starts below it: a form whose fields come after its heading (decision 0247) does not
 * push a footer down the screen while the patient reads (a layout shift, decision 0286).
 */
export default function OfficeLayout({ layout, children }: LayoutProps) {
  const context = useExprContext();
  const office = layout.office;
  const source = office?.source.find((s) => condition(s.when, context, true));
  const query = useOperationQuery(source, context);
  const officeData = source?.select ? evaluate({ var: `data.${source.select}` }, { data: query.data }) : query.data;
  const ctx = { ...context, office: officeData ?? {} };
  const show = (e: unknown) => {
    const v = e === undefined ? undefined : evaluate(e, ctx);
    return v === undefined || v === null || v === '' ? undefined : String(v);
  };
  const name = show(office?.name);
  const id = show(office?.id);
  const phone = show(office?.phone);
  const address = show(office?.address);
  const logo = safeImageSource(show(office?.logo));
  // A logo this visitor may not read (not published yet) is left out rather than shown broken.
  const [brokenLogo, setBrokenLogo] = useState<string>();
  return (
    <Flex direction="column" minH="100vh" bg="bg.subtle" data-layout="office">
      <Box as="header" bg="bg" borderBottomWidth="1px" borderColor="border">
        <Flex maxW="1200px" mx="auto" px={{ base: '4', md: '8' }} py="4" gap={{ base: '3', md: '6' }} align={{ base: 'flex-start', md: 'center' }} direction={{ base: 'column', md: 'row' }}>
          {logo && logo !== brokenLogo ? (
            <img
              src={logo}
              alt={name ? fill(tr('{name} logo'), { name }) : tr('Office logo')}
              style={{ maxWidth: office?.logoMaxWidth ?? 200, maxHeight: office?.logoMaxHeight ?? 60, objectFit: 'contain' }}
              onError={() => setBrokenLogo(logo)}
            />
          ) : null}
          <Box minW="0" flex="1">
            <Text fontSize={{ base: 'lg', md: 'xl' }} fontWeight="bold" color="brand.fg" data-office-name>
              {name}
              {id ? (
                <Text as="span" color="fg.muted" fontWeight="normal" ms="2">
                  #{id}
                </Text>
              ) : null}
            </Text>
            <Flex gap={{ base: '1', md: '4' }} direction={{ base: 'column', sm: 'row' }} color="fg.muted" fontSize="sm">
              {phone ? <Text>{formatPhone(phone)}</Text> : null}
              {address ? <Text>{address}</Text> : null}
            </Flex>
          </Box>
          <LanguagePicker picker={layout.languages} />
        </Flex>
      </Box>
      <Box as="main" id="main-content" tabIndex={-1} flex="1" minH="100vh" w="full" maxW="960px" mx="auto" px={{ base: '4', md: '8' }} py="6" outline="none">
        {children}
      </Box>
      <Footer footer={layout.footer} />
    </Flex>
  );
}
