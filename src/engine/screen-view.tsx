/**
 * A screen descriptor rendered: its kind's component from the engine's registry, its onLoad actions, the not-found and
 * not-authorized content in its place; and loading a page's descriptor and code together ahead of its render.
 */
import { useContext, useEffect, useMemo, useRef, useState, type ComponentType } from 'react';
import type { ScreenDescriptor } from '../../codegen/generated/descriptors.ts';
import { labelNamesIn } from '../../core/labels.ts';
import { runActions } from './actions.ts';
import { MissingContext, type Missing } from './contexts.ts';
import { useActionRuntime } from './action-runtime.ts';
import { useExprContext } from './use-context.ts';
import { ForbiddenContent, NotFoundContent } from './pages.tsx';
import { loadForm, loadLabels, loadWidgets, perEngineKeyed, read } from './preload.ts';
import type { ScreenProps } from './screen-props.ts';
import { useEngine, type EngineServices } from './services.ts';
import { Lazy } from './ui.tsx';

/** A screen component's code, from the engine's registry (screens/index.ts), loaded once. */
const loadKind = perEngineKeyed((services, kind) => services.screenKinds[kind as ScreenDescriptor['kind']]());

/** A screen descriptor ('pages/<name>' or 'dialogs/<name>') with the tables of words it names, loaded once. */
const loadDescriptor = perEngineKeyed(async (services, key): Promise<ScreenDescriptor> => {
  const [place, name] = key.split('/') as ['pages' | 'dialogs', string];
  const screen = await services.loadScreen(name, place);
  await loadLabels(services, labelNamesIn(screen));
  return screen;
});

export const loadScreen = (services: EngineServices, name: string, place: 'pages' | 'dialogs') => loadDescriptor(services, `${place}/${name}`);

/**
 * A screen's descriptor, then at once everything its render reads: the code of its kind and its form's precompiled
 * module (awaited), and the screens stacked in it (started, not awaited: a composite renders and asks for its data
 * while its parts' code arrives). Loading them side by side instead of as each render asks for the next saves the
 * phone a round trip per step (issue 17).
 */
function preloadScreen(services: EngineServices, name: string): Promise<unknown> {
  return loadScreen(services, name, 'pages').then((screen) => {
    if (screen.kind === 'composite' && screen.arrangement !== 'tabs') {
      for (const part of screen.parts) preloadScreen(services, part.screen).catch(() => undefined);
    }
    return Promise.all([
      loadKind(services, screen.kind),
      screen.kind === 'form' ? Promise.all([loadForm(services, screen.schema), loadWidgets(services).then((registry) => registry.preloadFields())]) : undefined,
    ]);
  });
}

/**
 * Everything a page's first render needs, loaded together: its screens and the widget registry. The page waits for all
 * of it in one Suspense boundary, so it appears in one commit instead of through nested fallbacks, each of which React
 * holds back for up to 500 ms.
 */
export const preloadPage = perEngineKeyed((services, name) => Promise.all([preloadScreen(services, name), loadWidgets(services)]));

const whileHere =
  <A extends unknown[]>(here: { current: boolean }, go: (...args: A) => void) =>
  (...args: A) => {
    if (here.current) go(...args);
  };

/**
 * Renders a screen descriptor and runs its onLoad actions once. The screen at the root of a page (or a dialog) shows
 * the not-found or not-authorized content in place of itself when an action or a read of the address's record says
 * so; screens inside it (composite parts, wizard steps) hand that to the root, so the page shows it once.
 */
export function ScreenView({ screen }: { screen: ScreenDescriptor }) {
  const services = useEngine();
  const outer = useContext(MissingContext);
  const [missing, setMissing] = useState<Missing | null>(null);
  const show = outer ?? setMissing;
  const overrides = useMemo(() => ({ notFound: () => show('notFound') }), [show]);
  const runtime = useActionRuntime(overrides);
  const context = useExprContext();
  const started = useRef(false);
  const here = useRef(true);
  useEffect(() => {
    here.current = true;
    const onLoad = 'onLoad' in screen ? screen.onLoad : undefined;
    if (!started.current && onLoad?.length) {
      started.current = true;
      // A page that is gone when its load actions end does not take the visitor anywhere: they went elsewhere.
      const stay = { ...runtime, navigate: whileHere(here, runtime.navigate), assign: whileHere(here, runtime.assign) };
      void runActions(onLoad, context, stay);
    }
    return () => {
      here.current = false;
    };
  }, [screen, context, runtime]);
  const Kind = read(loadKind(services, screen.kind)).default as ComponentType<ScreenProps>;
  if (missing === 'notFound') return <NotFoundContent />;
  if (missing === 'forbidden') return <ForbiddenContent />;
  const body = (
    <Lazy>
      <Kind screen={screen} />
    </Lazy>
  );
  return outer ? body : <MissingContext.Provider value={setMissing}>{body}</MissingContext.Provider>;
}

export function ScreenHost({ name, place = 'pages' }: { name: string; place?: 'pages' | 'dialogs' }) {
  const services = useEngine();
  const screen = read(loadScreen(services, name, place));
  return <ScreenView screen={screen} />;
}
