import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Box, Button, Flex, List, Text } from '@chakra-ui/react';
import { useQueryClient } from '@tanstack/react-query';
import type { WizardScreen as Wizard } from '../../../codegen/generated/descriptors.ts';
import { ScreenHost } from '../screen-view.tsx';
import type { ScreenProps } from '../screen-props.ts';
import { condition, text, type Context } from '../../../core/expressions.ts';
import { runActions } from '../actions.ts';
import { useActionRuntime } from '../action-runtime.ts';
import { useExprContext, useRouteInfo } from '../use-context.ts';
import { useOperationQuery } from '../queries.ts';
import { WizardStepContext, type WizardStep } from '../contexts.ts';
import { HeadingLevel, Lazy, Loading, LoadingWatch, ScreenTitle } from '../ui.tsx';
import { tr } from '../../../core/current-language.ts';

type Data = Record<string, unknown>;
type Step = Wizard['steps'][number];

/** Where the wizard stands: which steps are done, which one shows, and how far a person may go. */
export function wizardPosition(steps: readonly Step[], context: Context, asked: string | undefined) {
  const done = steps.map((s) => s.done === undefined || condition(s.done, context, false));
  // Resume at the first step not done; when every step that says when it is done is done, at the step after them.
  const open = done.indexOf(false);
  const lastChecked = steps.findLastIndex((s) => s.done !== undefined);
  const resume = open !== -1 ? open : Math.min(lastChecked + 1, steps.length - 1);
  // A step is reachable when every step before it is done.
  const reachable = (i: number) => i >= 0 && done.slice(0, i).every(Boolean);
  const askedIndex = steps.findIndex((s) => s.id === asked);
  return { done, reachable, current: asked !== undefined && reachable(askedIndex) ? askedIndex : resume };
}

/**
 * wizard: numbered steps, each a page of screens/pages/, with Back and Next. The step shown is in the address
 * (`?step=`), so Edit links, reloads and the browser's Back work; without one, the wizard resumes at the first step
 * that is not done. Next saves the step's form, runs the step's actions, waits for the source to be read again and
 * moves on if the step is done — or says what is missing.
 */
export default function WizardScreen({ screen }: ScreenProps<Wizard>) {
  const base = useExprContext();
  const query = useOperationQuery(screen.source, base);
  const context = useMemo(() => (screen.source ? { ...base, data: query.data ?? null } : base), [base, screen.source, query.data]);
  const route = useRouteInfo();
  const runtime = useActionRuntime();
  const queryClient = useQueryClient();
  const steps = screen.steps.filter((s) => condition(s.visible, context, true));
  const { done, reachable, current } = wizardPosition(steps, context, route.query.step);
  const step = steps[current];

  const drafts = useRef(new Map<string, Data>());
  const save = useRef<(() => Promise<boolean>) | null>(null);
  const [busy, setBusy] = useState(false);
  // Next waits while any part of the step is still loading: pressed before the step's form is on screen, it would
  // move on without validating or saving it.
  const [loadingParts, setLoadingParts] = useState(0);
  const watchLoading = useCallback(() => {
    setLoadingParts((n) => n + 1);
    return () => setLoadingParts((n) => n - 1);
  }, []);
  const [missing, setMissing] = useState<string | null>(null);
  // The step Next asked for: shown once the source was read again, if the steps before it are done by then.
  const [wanted, setWanted] = useState<number | null>(null);

  const goTo = useCallback(
    (index: number) => {
      const query = new URLSearchParams({ ...route.query, step: steps[index]!.id });
      runtime.navigate(`${route.path}?${query.toString()}`);
    },
    [route, steps, runtime],
  );

  // What was missing is said until the step is done (a document uploaded meanwhile) or another step shows.
  const currentDone = done[current];
  useEffect(() => {
    if (currentDone) setMissing(null);
  }, [currentDone, current]);

  const settled = !screen.source || !query.isFetching;
  useEffect(() => {
    if (wanted === null || !settled) return;
    setWanted(null);
    if (reachable(wanted)) goTo(wanted);
    else if (step) setMissing(step.incomplete === undefined ? tr('Complete this step to continue.') : text(step.incomplete, context));
  }, [wanted, settled, reachable, goTo, step, context]);

  const next = useCallback(async () => {
    if (!step || busy || loadingParts > 0) return;
    setBusy(true);
    setMissing(null);
    try {
      if (save.current && !(await save.current())) return;
      // A refusal of the step's or the finish's call is said above Back and Next, where the person pressed.
      const here = { ...runtime, refused: setMissing };
      if (!(await runActions(step.actions, context, here))) return;
      drafts.current.delete(step.id);
      if (current >= steps.length - 1) {
        await runActions(screen.finish, context, here);
        return;
      }
      if (screen.source) await queryClient.invalidateQueries({ queryKey: [screen.source.operation] });
      setWanted(current + 1);
    } finally {
      setBusy(false);
    }
  }, [step, busy, loadingParts, context, runtime, current, steps.length, screen.finish, screen.source, queryClient]);

  const stepContext = useMemo<WizardStep | null>(
    () =>
      step
        ? {
            draft: drafts.current.get(step.id),
            keepDraft: (data) => drafts.current.set(step.id, data),
            provideSave: (fn) => {
              save.current = fn;
            },
            next: () => void next(),
          }
        : null,
    [step, next],
  );

  if (screen.source && query.isLoading) return <Loading />;
  const last = current >= steps.length - 1;
  return (
    <Box data-screen="wizard" data-step={step?.id}>
      <ScreenTitle>{text(screen.title, context)}</ScreenTitle>
      {screen.intro ? <Text mb="4">{text(screen.intro, context)}</Text> : null}
      <List.Root as="ol" display="flex" flexWrap="wrap" gap="2" mb="6" listStyleType="none" aria-label={tr('Steps')}>
        {steps.map((s, i) => (
          <List.Item key={s.id}>
            <Button
              size="sm"
              variant={i === current ? 'solid' : 'outline'}
              colorPalette="brand"
              aria-current={i === current ? 'step' : undefined}
              disabled={!reachable(i)}
              onClick={() => {
                setMissing(null);
                goTo(i);
              }}
            >
              <Text as="span" fontWeight="bold">
                {done[i] && i !== current && s.done !== undefined ? '✓' : i + 1}
              </Text>
              {text(s.title, context)}
              {done[i] && s.done !== undefined ? <Text as="span" srOnly>(done)</Text> : null}
            </Button>
          </List.Item>
        ))}
      </List.Root>
      {step ? (
        <HeadingLevel.Provider value={2}>
          <WizardStepContext.Provider value={stepContext}>
            <LoadingWatch.Provider value={watchLoading}>
              <Lazy>
                <ScreenHost key={step.id} name={step.screen} />
              </Lazy>
            </LoadingWatch.Provider>
          </WizardStepContext.Provider>
        </HeadingLevel.Provider>
      ) : null}
      {missing ? (
        <Alert.Root status="error" mt="4" role="alert">
          <Alert.Indicator />
          <Alert.Description>{missing}</Alert.Description>
        </Alert.Root>
      ) : null}
      <Flex justify="space-between" mt="6">
        <Button
          variant="outline"
          onClick={() => {
            setMissing(null);
            goTo(current - 1);
          }}
          disabled={current === 0 || busy}
        >
          {tr('Back')}
        </Button>
        <Button colorPalette="brand" onClick={() => void next()} loading={busy} disabled={loadingParts > 0} data-button="wizard-next">
          {step?.next !== undefined ? text(step.next, context) : last ? tr('Finish') : tr('Next')}
        </Button>
      </Flex>
    </Box>
  );
}
