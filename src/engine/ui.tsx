/** Small shared pieces of the renderer: buttons from descriptors, screen headings, loading and empty states. */
import { createContext, createElement, lazy, Suspense, useContext, useEffect, useState, type ComponentType, type FunctionComponent, type ReactNode } from 'react';
import { Box, Button, Flex, Heading, Link, Spinner, Text } from '@chakra-ui/react';
import type { Button as ButtonDescriptor } from '../../codegen/generated/descriptors.ts';
import { condition, text, type Context } from '../../core/expressions.ts';
import { runActions, type ActionRuntime } from './actions.ts';
import { Icon } from './Icon.tsx';
import { tr } from '../../core/current-language.ts';
import { callHref } from '../../core/formats.ts';

/** 1 for a page, 2 inside a composite, a wizard or a dialog body. */
export const HeadingLevel = createContext<1 | 2 | 3>(1);

export function ScreenTitle({ children }: { children: ReactNode }) {
  const level = useContext(HeadingLevel);
  if (!children) return null;
  return (
    <Heading as={`h${level}`} size={level === 1 ? '2xl' : level === 2 ? 'xl' : 'lg'} mb="4" lineHeight="short">
      {children}
    </Heading>
  );
}

/**
 * Told while a Loading shows below it: a wizard keeps Next from acting before its step's screens (and their forms'
 * saves) are on screen. Returns the release.
 */
export const LoadingWatch = createContext<(() => () => void) | null>(null);

export function Loading({ label }: { label?: string }) {
  const watch = useContext(LoadingWatch);
  useEffect(() => watch?.(), [watch]);
  return (
    <Flex align="center" gap="3" py="6" color="fg.muted" role="status" aria-live="polite">
      <Spinner size="sm" aria-hidden />
      <Text>{label ?? tr('Loading')}…</Text>
    </Flex>
  );
}

export function Lazy({ children }: { children: ReactNode }) {
  return <Suspense fallback={<Loading />}>{children}</Suspense>;
}

/**
 * A component whose code loads when it first renders (it suspends to the nearest boundary meanwhile), as a plain
 * function: @rjsf takes only function (or memo/forwardRef) widgets and fields, not the object `React.lazy` returns.
 */
export function lazyFunction<P extends object>(load: () => Promise<{ default: ComponentType<P> }>): FunctionComponent<P> {
  const Part = lazy(load) as unknown as ComponentType<P>;
  return (props) => createElement(Part, props);
}

const VARIANTS = {
  primary: { variant: 'solid', colorPalette: 'brand' },
  secondary: { variant: 'outline', colorPalette: 'brand' },
  ghost: { variant: 'ghost', colorPalette: 'gray' },
  danger: { variant: 'solid', colorPalette: 'red' },
} as const;

export interface ActionButtonProps {
  button: ButtonDescriptor;
  context: Context;
  runtime: ActionRuntime;
  /** For `submit: true` buttons: validate and submit the enclosing form. */
  onSubmit?: () => Promise<unknown> | void;
  size?: 'xs' | 'sm' | 'md' | 'lg';
  fullWidth?: boolean;
  /** Below 600px show only the icon (the label stays the accessible name). */
  iconOnlyWhenNarrow?: boolean;
}

/**
 * A button as wide as its cell (a choice among a few): a long label wraps inside it, the button growing taller, where
 * a button's own single line would run over the next cell ('The patient applies on this device').
 */
const FILLS_ITS_CELL = { width: 'full', justifyContent: 'flex-start', whiteSpace: 'normal', textAlign: 'start', height: 'auto', minHeight: '11', paddingBlock: '2' } as const;

/** A business rule's refusal, said where the person acted (issue 37): a sentence, not an error toast. */
export function Refusal({ sentence }: { sentence: string | undefined }) {
  if (!sentence) return null;
  return (
    <Text role="alert" data-refusal color="fg.error" fontSize="sm" alignSelf="center">
      {sentence}
    </Text>
  );
}

export function ActionButton({ button, context, runtime, onSubmit, size = 'md', fullWidth, iconOnlyWhenNarrow }: ActionButtonProps) {
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<string>();
  if (!condition(button.visible, context, true)) return null;
  const disabled = condition(button.disabled, context, false);
  const label = text(button.label, context);
  const style = VARIANTS[button.variant ?? 'secondary'];
  const click = async () => {
    setBusy(true);
    setRefusal(undefined);
    try {
      if (button.submit && onSubmit) await onSubmit();
      else await runActions(button.actions, context, { ...runtime, refused: runtime.refused ?? setRefusal });
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button
        type={button.submit ? 'submit' : 'button'}
        data-button={button.id}
        size={size}
        variant={style.variant}
        colorPalette={style.colorPalette}
        disabled={disabled || busy}
        onClick={button.submit && !onSubmit ? undefined : () => void click()}
        {...(fullWidth ? FILLS_ITS_CELL : {})}
        aria-label={iconOnlyWhenNarrow && button.icon ? label : undefined}
      >
        {button.icon ? (
          <Suspense fallback={null}>
            <Icon name={button.icon} />
          </Suspense>
        ) : null}
        {iconOnlyWhenNarrow && button.icon ? (
          <Box as="span" display={{ base: 'none', sm: 'inline' }}>
            {label}
          </Box>
        ) : (
          label
        )}
      </Button>
      <Refusal sentence={refusal} />
    </>
  );
}

export function ButtonRow(props: { buttons: readonly ButtonDescriptor[] | undefined; context: Context; runtime: ActionRuntime; onSubmit?: () => Promise<unknown> | void; justify?: 'flex-start' | 'flex-end' }) {
  if (!props.buttons?.length) return null;
  return (
    <Flex gap="3" wrap="wrap" justify={props.justify ?? 'flex-start'} mt="4">
      {props.buttons.map((b, i) => (
        <ActionButton key={b.id ?? i} button={b} context={props.context} runtime={props.runtime} onSubmit={props.onSubmit} />
      ))}
    </Flex>
  );
}

/** A value as its format shows it; one of the `tel` format a link that dials it (a tap on a phone). */
export function Shown({ format, value, shown }: { format: string | undefined; value: unknown; shown: string }) {
  const href = callHref(format, value);
  return href ? (
    <Link href={href} color="brand.fg" textDecoration="underline">
      {shown}
    </Link>
  ) : (
    <>{shown}</>
  );
}

export function Panel({ children }: { children: ReactNode }) {
  return (
    <Box bg="bg" borderWidth="1px" borderColor="border" borderRadius="lg" p={{ base: '4', md: '6' }}>
      {children}
    </Box>
  );
}

/**
 * A screen of this kind shows its data: a performance mark `screen-ready:<kind>` (what bench measurements read) each
 * time it becomes ready. Screens also put `data-ready` on their root for tests.
 */
export function useReadyMark(kind: string, ready: boolean): void {
  useEffect(() => {
    if (ready && typeof performance !== 'undefined' && typeof performance.mark === 'function') performance.mark(`screen-ready:${kind}`);
  }, [kind, ready]);
}
