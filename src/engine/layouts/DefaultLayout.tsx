import { Suspense, useState } from 'react';
import { Box, Flex, IconButton, Input, Text, VisuallyHidden } from '@chakra-ui/react';
import type { HeaderSearch, Menu, MenuItem } from '../../../codegen/generated/descriptors.ts';
import type { LayoutProps } from '../layout-props.ts';
import { condition, text, type Context } from '../../../core/expressions.ts';
import { Icon } from '../Icon.tsx';
import { useActionRuntime } from '../action-runtime.ts';
import { useExprContext, useRouteInfo } from '../use-context.ts';
import { runActions, type ActionRuntime } from '../actions.ts';
import { resolveTarget } from '../routing.ts';
import { useEngine } from '../services.ts';
import { ActionButton } from '../ui.tsx';
import { BrandMark, Footer, SkipLink } from './parts.tsx';
import { tr } from '../../../core/current-language.ts';

/** spec §2/§9: header offset 112px, side menu 100px collapsed and 320px on hover, toggled by a button under 600px. */
export const HEADER_HEIGHT = 112;
export const MENU_COLLAPSED = 100;
export const MENU_EXPANDED = 320;
/** One height for every menu item, open or collapsed (an icon and up to two lines of its label below it). */
const MENU_ITEM_HEIGHT = 64;

function SearchBox({ search, context, runtime }: { search: HeaderSearch; context: Context; runtime: ActionRuntime }) {
  const [value, setValue] = useState('');
  const label = text(search.label, context);
  const id = `search-${search.id}`;
  return (
    <Box
      as="form"
      role="search"
      onSubmit={(e) => {
        e.preventDefault();
        const typed = value.trim();
        if (typed) void runActions(search.actions, { ...context, value: typed }, runtime);
      }}
      w={{ base: 'full', md: '220px', xl: '260px' }}
    >
      <VisuallyHidden asChild>
        <label htmlFor={id}>{label}</label>
      </VisuallyHidden>
      <Input id={id} size="sm" placeholder={label} value={value} onChange={(e) => setValue(e.target.value)} bg="bg" type="search" />
    </Box>
  );
}

function MenuLinks({ menu, context, runtime, expanded, onNavigate }: { menu: Menu; context: Context; runtime: ActionRuntime; expanded: boolean; onNavigate?: () => void }) {
  const { descriptors } = useEngine();
  const route = useRouteInfo();
  return (
    <Box as="ul" listStyleType="none" m="0" p="0">
      {menu.items
        .filter((item) => condition(item.visible, context, true))
        .map((item: MenuItem) => {
          let href: string | undefined;
          let active = false;
          if (item.to) {
            try {
              const target = resolveTarget(item.to, context, descriptors.table);
              href = target.kind === 'route' ? `#${target.path}` : target.href;
              active = target.kind === 'route' && target.route.name === route.name;
            } catch {
              // A target that goes nowhere (an address the portal does not follow) leaves the item without a link.
            }
          }
          const label = text(item.label, context);
          return (
            <Box as="li" key={item.id}>
              {/* Every item has one height and its icon one place, open or not: opening the menu only widens it over
                  the page and moves each label beside its icon, so what is under the pointer stays there (a prompt
                  click on 'Refunds' lands on 'Refunds'). */}
              <Box
                asChild
                display="block"
                position="relative"
                h={`${MENU_ITEM_HEIGHT}px`}
                color={active ? 'brand.fg' : 'fg'}
                bg={active ? 'brand.subtle' : undefined}
                fontWeight={active ? 'semibold' : 'normal'}
                textDecoration="none"
                _hover={{ bg: 'bg.muted' }}
                _focusVisible={{ outline: '2px solid', outlineColor: 'brand.solid', outlineOffset: '-2px' }}
              >
                <a
                  href={href ?? '#'}
                  aria-current={active ? 'page' : undefined}
                  data-menu-item={item.id}
                  onClick={(e) => {
                    if (!href) e.preventDefault();
                    if (item.actions) void runActions(item.actions, context, runtime);
                    onNavigate?.();
                  }}
                >
                  {/* The icon's middle is 19px down (8px + 22px / 2); the open menu's label sits on that line. */}
                  <Box position="absolute" top="8px" left="0" w={`${MENU_COLLAPSED - 1}px`} display="flex" justifyContent="center">
                    <Suspense fallback={<Box w="22px" h="22px" />}>
                      <Icon name={item.icon} size={22} />
                    </Suspense>
                  </Box>
                  <Box
                    as="span"
                    position="absolute"
                    lineHeight="1.25"
                    {...(expanded
                      ? { top: '19px', transform: 'translateY(-50%)', left: `${MENU_COLLAPSED - 1}px`, right: '4', fontSize: 'sm', truncate: true }
                      : { top: '32px', left: '1', right: '1', fontSize: 'xs', textAlign: 'center', lineClamp: 2 })}
                  >
                    {label}
                  </Box>
                </a>
              </Box>
            </Box>
          );
        })}
    </Box>
  );
}

export default function DefaultLayout({ layout, children }: LayoutProps) {
  const { descriptors } = useEngine();
  const context = useExprContext();
  const runtime = useActionRuntime();
  const [hovered, setHovered] = useState(false);
  const [mobileOpen, setMobileOpen] = useState(false);
  const header = layout.header ?? {};
  const menu = layout.menu ? descriptors.menus.menus.find((m) => condition(m.when, context, true)) : undefined;
  const searches = (header.searches ?? []).filter((s) => condition(s.visible, context, true));
  const greeting = header.greeting && condition(header.greeting.visible, context, true) ? text(header.greeting.text, context) : '';
  const office = header.office && condition(header.office.visible, context, true) ? text(header.office.text, context) : '';
  return (
    <Box minH="100vh" bg="bg.subtle" data-layout="default">
      <SkipLink />
      <Box as="header" position="fixed" top="0" insetX="0" h={`${HEADER_HEIGHT}px`} bg="bg" borderBottomWidth="1px" borderColor="border" zIndex="sticky">
        <Flex h="64px" align="center" gap={{ base: '2', md: '4' }} px={{ base: '3', md: '6' }}>
          {menu ? (
            <IconButton
              aria-label={mobileOpen ? tr('Close the menu') : tr('Open the menu')}
              aria-expanded={mobileOpen}
              aria-controls="side-menu"
              variant="ghost"
              size="sm"
              display={{ base: 'inline-flex', sm: 'none' }}
              onClick={() => setMobileOpen((o) => !o)}
            >
              <Suspense fallback={null}>
                <Icon name={mobileOpen ? 'x' : 'menu'} />
              </Suspense>
            </IconButton>
          ) : null}
          <BrandMark />
          <Flex flex="1" justify="flex-end" align="center" gap="3" minW="0">
            <Flex gap="3" display={{ base: 'none', md: 'flex' }}>
              {searches.map((s) => (
                <SearchBox key={s.id} search={s} context={context} runtime={runtime} />
              ))}
            </Flex>
            {(header.buttons ?? []).map((b, i) => (
              <ActionButton key={b.id ?? i} button={b} context={context} runtime={runtime} size="sm" iconOnlyWhenNarrow />
            ))}
          </Flex>
        </Flex>
        <Flex h="47px" align="center" gap="3" px={{ base: '3', md: '6' }} borderTopWidth="1px" borderColor="border.muted" bg="bg.subtle" fontSize="sm">
          {greeting ? (
            <Text fontWeight="semibold" whiteSpace="nowrap" data-greeting>
              {greeting}
            </Text>
          ) : null}
          {office ? (
            <Text color="fg.muted" data-office truncate>
              {office}
            </Text>
          ) : null}
          {header.switchOffice ? <ActionButton button={header.switchOffice} context={context} runtime={runtime} size="xs" iconOnlyWhenNarrow /> : null}
        </Flex>
      </Box>
      {menu ? (
        <Box
          as="nav"
          id="side-menu"
          aria-label={tr('Main menu')}
          position="fixed"
          top={`${HEADER_HEIGHT}px`}
          bottom="0"
          left="0"
          w={{ base: mobileOpen ? `${MENU_EXPANDED}px` : '0', sm: hovered ? `${MENU_EXPANDED}px` : `${MENU_COLLAPSED}px` }}
          maxW="100vw"
          display={{ base: mobileOpen ? 'block' : 'none', sm: 'block' }}
          bg="bg"
          borderRightWidth="1px"
          borderColor="border"
          overflowY="auto"
          overflowX="hidden"
          transition="width 0.15s ease"
          zIndex="docked"
          boxShadow={hovered || mobileOpen ? 'lg' : undefined}
          onMouseEnter={() => setHovered(true)}
          onMouseLeave={() => setHovered(false)}
          onFocus={() => setHovered(true)}
          onBlur={(e) => {
            if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setHovered(false);
          }}
        >
          {mobileOpen && searches.length ? (
            <Flex direction="column" gap="2" p="3" display={{ base: 'flex', md: 'none' }}>
              {searches.map((s) => (
                <SearchBox key={s.id} search={s} context={context} runtime={runtime} />
              ))}
            </Flex>
          ) : null}
          <MenuLinks menu={menu} context={context} runtime={runtime} expanded={hovered || mobileOpen} onNavigate={() => setMobileOpen(false)} />
        </Box>
      ) : null}
      <Flex direction="column" minH="100vh" pt={`${HEADER_HEIGHT}px`} ms={menu ? { base: '0', sm: `${MENU_COLLAPSED}px` } : '0'}>
        <Box as="main" id="main-content" tabIndex={-1} flex="1" px={{ base: '3', sm: '6', '2xl': '8' }} py="6" outline="none" minW="0">
          {children}
        </Box>
        <Footer footer={layout.footer} />
      </Flex>
    </Box>
  );
}
