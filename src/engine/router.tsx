/**
 * The route table → hash router with guards (spec §2, §6). Every route renders its layout (code-split by layout
 * component) around its screen (code-split by screen kind, descriptors loaded on demand).
 */
import { HashRouter, matchRoutes, Navigate, useLocation, useParams, useRoutes, type RouteObject } from 'react-router-dom';
import { Suspense, useContext, useEffect, useMemo, useRef, useState, type ComponentType, type ReactNode } from 'react';
import type { Layout, ScreenDescriptor } from '../../codegen/generated/descriptors.ts';
import { decideAccess, type Visitor } from './access.ts';
import { resolveTarget, type RouteEntry } from './routing.ts';
import { condition, type Context } from '../../core/expressions.ts';
import { queryOf, type RouteInfo } from './context.ts';
import { runActions } from './actions.ts';
import { currentHashPath, MissingContext, RouteInfoContext, useActionRuntime, useExprContext, useSessionState, type Missing } from './hooks.tsx';
import { useEngine, type EngineServices } from './services.ts';
import { ErrorBoundary, ForbiddenContent, NotFoundContent, type ErrorBoundaryProps } from './pages.tsx';
import { Lazy, Loading } from './ui.tsx';
import { DialogProvider } from './dialogs.tsx';
import { loadForm, loadLabels, loadOnce, loadWidgets, read } from './preload.ts';
import { labelNamesIn } from '../../core/labels.ts';

export interface LayoutProps {
  layout: Layout;
  children: ReactNode;
}

type Code<P> = Promise<{ default: ComponentType<P> }>;

/** Layout components by the `component` of screens/layouts.json (code-split, loaded once: preload.ts). */
const LAYOUTS: Record<Layout['component'], () => Code<LayoutProps>> = {
  default: () => import('./layouts/DefaultLayout.tsx'),
  esign: () => import('./layouts/EsignLayout.tsx'),
  office: () => import('./layouts/OfficeLayout.tsx'),
  welcome: () => import('./layouts/WelcomeLayout.tsx'),
};
const layoutCode = new Map<string, Code<LayoutProps>>();
const loadLayout = (component: Layout['component']) => loadOnce(layoutCode, component, LAYOUTS[component]);

export interface ScreenProps<S = ScreenDescriptor> {
  screen: S;
}

/** Screen components by `kind` (code-split, loaded once: preload.ts). */
const KINDS: Record<ScreenDescriptor['kind'], () => Code<ScreenProps<never>>> = {
  form: () => import('./screens/FormScreen.tsx'),
  wizard: () => import('./screens/WizardScreen.tsx'),
  table: () => import('./screens/TableScreen.tsx'),
  kanban: () => import('./screens/KanbanScreen.tsx'),
  detail: () => import('./screens/DetailScreen.tsx'),
  dialog: () => import('./screens/ChoiceScreen.tsx'),
  composite: () => import('./screens/CompositeScreen.tsx'),
};
const kindCode = new Map<string, Code<ScreenProps<never>>>();
const loadKind = (kind: ScreenDescriptor['kind']) => loadOnce(kindCode, kind, KINDS[kind]);

export function LayoutFrame({ name, children }: { name: string; children: ReactNode }) {
  const { descriptors } = useEngine();
  const layout = descriptors.layouts.layouts[name];
  if (!layout) throw new Error(`no layout ${name}`);
  const Component = read(loadLayout(layout.component)).default;
  return (
    <Lazy>
      <Component layout={layout}>{children}</Component>
    </Lazy>
  );
}

const screenCache = new WeakMap<EngineServices, Map<string, Promise<ScreenDescriptor>>>();

export function loadScreen(services: EngineServices, name: string, place: 'pages' | 'dialogs'): Promise<ScreenDescriptor> {
  let cache = screenCache.get(services);
  if (!cache) screenCache.set(services, (cache = new Map()));
  return loadOnce(cache, `${place}/${name}`, async () => {
    const screen = await services.loadScreen(name, place);
    await loadLabels(services, labelNamesIn(screen));
    return screen;
  });
}

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
      loadKind(screen.kind),
      screen.kind === 'form' ? Promise.all([loadForm(services, screen.schema), loadWidgets(services).then((registry) => registry.preloadFields())]) : undefined,
    ]);
  });
}

/**
 * Everything a page's first render needs, loaded together: its screens and the widget registry. The page waits for all
 * of it in one Suspense boundary, so it appears in one commit instead of through nested fallbacks, each of which React
 * holds back for up to 500 ms.
 */
const pageCache = new WeakMap<EngineServices, Map<string, Promise<unknown>>>();
function preloadPage(services: EngineServices, name: string): Promise<unknown> {
  let cache = pageCache.get(services);
  if (!cache) pageCache.set(services, (cache = new Map()));
  return loadOnce(cache, name, () => Promise.all([preloadScreen(services, name), loadWidgets(services)]));
}

/** A route's layout code and page, started together as soon as the route is known (before the layout renders). */
export function preloadRoute(services: EngineServices, entry: RouteEntry): void {
  const layout = services.descriptors.layouts.layouts[entry.layout];
  if (layout) loadLayout(layout.component).catch(() => undefined);
  if (entry.screen) preloadPage(services, entry.screen).catch(() => undefined);
}

/** The address's route, preloaded before the first render (whoever may open it: it is code and descriptors only). */
export function preloadLocation(services: EngineServices): void {
  const pathname = currentHashPath().split('?')[0]!;
  const entry = matchRoutes(services.descriptors.table, pathname)?.[0]?.route;
  if (entry && !entry.redirect) preloadRoute(services, entry);
}

/** Route names a descriptor navigates to by a literal name (its buttons, toolbar, row actions). */
function navigateTargets(node: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(node)) node.forEach((n) => navigateTargets(n, out));
  else if (node && typeof node === 'object') {
    const o = node as { type?: unknown; to?: { route?: unknown } };
    if (o.type === 'navigate' && typeof o.to?.route === 'string') out.add(o.to.route);
    Object.values(node).forEach((n) => navigateTargets(n, out));
  }
  return out;
}

/**
 * Once a page of a layout with the side menu is up and the browser is idle, the pages it leads to are loaded ahead
 * (the visible menu's and the page's own navigation targets), so that following a link renders at once. Pages of
 * other layouts (a borrower's, whose JavaScript is kept small: 0046) load nothing ahead.
 */
function usePrefetch(screen: ScreenDescriptor, context: Context, enabled: boolean): void {
  const services = useEngine();
  const menu = enabled ? services.descriptors.menus.menus.find((m) => condition(m.when, context, true)) : undefined;
  const names = enabled ? [...(menu?.items ?? []).filter((i) => condition(i.visible, context, true)).map((i) => i.to?.route), ...navigateTargets(screen)] : [];
  const key = names.filter((n) => typeof n === 'string').join();
  useEffect(() => {
    if (!key) return;
    const run = () => {
      for (const name of key.split(',')) {
        const entry = services.descriptors.table.find((e) => e.name === name);
        if (entry?.screen) preloadPage(services, entry.screen).catch(() => undefined);
      }
    };
    const idle = typeof window.requestIdleCallback === 'function';
    const handle = idle ? window.requestIdleCallback(run, { timeout: 2_000 }) : window.setTimeout(run, 200);
    return () => (idle ? window.cancelIdleCallback(handle) : window.clearTimeout(handle));
  }, [services, key]);
}

/** A route's page: waits (in the layout's Suspense boundary) until it can render at once, then loads ahead. */
function RoutePage({ name, prefetch }: { name: string; prefetch: boolean }) {
  const services = useEngine();
  read(preloadPage(services, name));
  const screen = read(loadScreen(services, name, 'pages'));
  usePrefetch(screen, useExprContext(), prefetch);
  return <ScreenView screen={screen} />;
}

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
    if (!started.current && screen.onLoad?.length) {
      started.current = true;
      // A page that is gone when its load actions end does not take the visitor anywhere: they went elsewhere.
      const stay = { ...runtime, navigate: whileHere(here, runtime.navigate), assign: whileHere(here, runtime.assign) };
      void runActions(screen.onLoad, context, stay);
    }
    return () => {
      here.current = false;
    };
  }, [screen, context, runtime]);
  const Kind = read(loadKind(screen.kind)).default as ComponentType<ScreenProps>;
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

export function visitorOf(session: Record<string, unknown>): Visitor {
  const str = (v: unknown) => (typeof v === 'string' && v ? v : null);
  return {
    authenticated: session.authenticated === true,
    role: str(session.role),
    userRole: str(session.userRole),
    borrowerAuthenticated: session.borrowerAuthenticated === true,
    borrowerAppId: typeof session.borrowerAppId === 'number' ? session.borrowerAppId : null,
  };
}

function useTitle(title: string | undefined) {
  const { brand } = useEngine();
  useEffect(() => {
    const name = String(brand.context.name ?? '');
    document.title = title ? `${title} | ${name}` : name;
  }, [title, brand]);
}

/** One route: the guard's decision, then the layout with the screen, a redirect, or the 403 page. */
function RouteHost({ entry }: { entry: RouteEntry }) {
  const services = useEngine();
  const params = useParams();
  const location = useLocation();
  const session = useSessionState();
  const info = useMemo<RouteInfo>(
    () => ({ name: entry.name, path: location.pathname, params: { ...params }, query: queryOf(location.search), ...(entry.flow ? { flow: entry.flow } : {}) }),
    [entry.name, entry.flow, location.pathname, location.search, params],
  );
  useTitle(entry.title);
  const decision = decideAccess(entry.access, visitorOf(session), info.params);
  const request: Context = { session, request: { path: location.pathname + location.search, params: info.params } };
  const { routes, table } = services.descriptors;
  if (decision.kind === 'allow' && !entry.redirect) preloadRoute(services, entry);
  if (decision.kind === 'signIn' || decision.kind === 'borrowerSignIn') {
    const target = resolveTarget(decision.kind === 'signIn' ? routes.signIn : routes.borrowerSignIn, request, table);
    return <Navigate replace to={target.kind === 'route' ? target.path : '/'} />;
  }
  return (
    <RouteInfoContext.Provider value={info}>
      <DialogProvider>
        {decision.kind === 'forbidden' ? (
          <LayoutFrame name={entry.layout}>
            <ForbiddenContent />
          </LayoutFrame>
        ) : entry.redirect ? (
          <Redirect entry={entry} />
        ) : (
          <LayoutFrame name={entry.layout}>
            <Lazy>
              <RoutePage key={location.pathname} name={entry.screen!} prefetch={!!services.descriptors.layouts.layouts[entry.layout]?.menu} />
            </Lazy>
          </LayoutFrame>
        )}
      </DialogProvider>
    </RouteInfoContext.Provider>
  );
}

function Redirect({ entry }: { entry: RouteEntry }) {
  const services = useEngine();
  const context = useExprContext();
  const first = entry.redirect!.find((r) => condition(r.when, context, true));
  if (!first) return <NotFoundContent />;
  const target = resolveTarget(first.to, context, services.descriptors.table);
  if (target.kind === 'href') {
    window.location.replace(target.href);
    return null;
  }
  return <Navigate replace to={target.path} />;
}

function NotFoundRoute() {
  const { descriptors } = useEngine();
  useTitle(descriptors.routes.notFound.message);
  return (
    <DialogProvider>
      <LayoutFrame name={descriptors.routes.notFound.layout}>
        <NotFoundContent />
      </LayoutFrame>
    </DialogProvider>
  );
}

function Routes() {
  const { descriptors } = useEngine();
  const objects = useMemo<RouteObject[]>(
    () => [...descriptors.table.map((entry) => ({ path: entry.path, element: <RouteHost entry={entry} /> })), { path: '*', element: <NotFoundRoute /> }],
    [descriptors],
  );
  // A layout's code loads on first use: until then the page shows that it is loading.
  return <Suspense fallback={<Loading />}>{useRoutes(objects)}</Suspense>;
}

/**
 * Render errors become the error page, which a navigation leaves. The reset key is the router's own location: a
 * listener of its own would re-render the page being left before the router renders the next one.
 */
function GuardedRoutes({ onChunkError }: Pick<ErrorBoundaryProps, 'onChunkError'>) {
  const { pathname } = useLocation();
  return (
    <ErrorBoundary onChunkError={onChunkError} resetKey={pathname}>
      <Routes />
    </ErrorBoundary>
  );
}

export function EngineRouter({ children, onChunkError }: { children?: ReactNode } & Pick<ErrorBoundaryProps, 'onChunkError'>) {
  return (
    <HashRouter>
      <GuardedRoutes onChunkError={onChunkError} />
      {children}
    </HashRouter>
  );
}
