/**
 * The route table → hash router with guards (spec §2, §6). Every route renders its layout (layout-frame.tsx) around
 * its page (screen-view.tsx), both loaded as soon as the route is known.
 */
import { HashRouter, matchRoutes, useLocation, useNavigate, useParams, useRoutes, type RouteObject } from 'react-router-dom';
import { Suspense, useEffect, useMemo, useRef, type ReactNode } from 'react';
import type { ScreenDescriptor } from '../../codegen/generated/descriptors.ts';
import { guardRoute, resolveTarget, type RouteEntry } from './routing.ts';
import { condition, type Context } from '../../core/expressions.ts';
import { queryOf, type RouteInfo } from './context.ts';
import { currentHashPath, currentPathname, useExprContext, useSessionState } from './use-context.ts';
import { RouteInfoContext } from './contexts.ts';
import { useEngine, type EngineServices } from './services.ts';
import { ErrorBoundary, ForbiddenContent, NotFoundContent, type ErrorBoundaryProps } from './pages.tsx';
import { Lazy, Loading } from './ui.tsx';
import { DialogProvider } from './dialogs.tsx';
import { read } from './preload.ts';
import { LayoutFrame, loadLayout } from './layout-frame.tsx';
import { loadScreen, preloadPage, ScreenView } from './screen-view.tsx';

/** A route's layout code and page, started together as soon as the route is known (before the layout renders). */
export function preloadRoute(services: EngineServices, entry: RouteEntry): void {
  const layout = services.descriptors.layouts.layouts[entry.layout];
  if (layout) loadLayout(services, layout.component).catch(() => undefined);
  if (entry.screen) preloadPage(services, entry.screen).catch(() => undefined);
}

/** The address's route, preloaded before the first render (whoever may open it: it is code and descriptors only). */
export function preloadLocation(services: EngineServices): void {
  const entry = matchRoutes(services.descriptors.table, currentPathname())?.[0]?.route;
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

function useTitle(title: string | undefined) {
  const { brand } = useEngine();
  useEffect(() => {
    document.title = title ? `${title} | ${brand.name}` : brand.name;
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
  const decision = guardRoute(entry, { session, request: { path: location.pathname + location.search, params: info.params } }, services.descriptors);
  if (decision.kind === 'allow' && !entry.redirect) preloadRoute(services, entry);
  if (decision.kind === 'signIn') return <Redirecting to={decision.to} />;
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
  return <Redirecting to={target.path} />;
}

/** How often a redirect still drawn looks whether the address went back to it. */
const REDIRECT_RECHECK_MS = 250;

/**
 * A redirect (the router's `<Navigate replace>`), made again while it is drawn and the address shows its own page
 * again. The router draws its changes of address in transitions, together: a visit of the same address that comes
 * before the last redirect was drawn (a link followed at once, a slow phone) reaches React as no change at all, and the
 * page stayed blank at that address.
 */
function Redirecting({ to }: { to: string }) {
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  useEffect(() => {
    navigate(to, { replace: true });
    const watch = setInterval(() => {
      if (currentHashPath() === pathname + search) navigate(to, { replace: true });
    }, REDIRECT_RECHECK_MS);
    return () => clearInterval(watch);
  }, [navigate, to, pathname, search]);
  return null;
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
type RouterEvents = Pick<ErrorBoundaryProps, 'onChunkError' | 'onRenderError'> & { onNavigate?: () => void };

function GuardedRoutes({ onChunkError, onRenderError, onNavigate }: RouterEvents) {
  const { pathname } = useLocation();
  const navigated = useRef(onNavigate);
  navigated.current = onNavigate;
  useEffect(() => navigated.current?.(), [pathname]);
  return (
    <ErrorBoundary onChunkError={onChunkError} onRenderError={onRenderError} resetKey={pathname}>
      <Routes />
    </ErrorBoundary>
  );
}

/** `onNavigate` runs after each change of page (the shell takes a newly published descriptor set then). */
export function EngineRouter({ children, ...events }: { children?: ReactNode } & RouterEvents) {
  return (
    <HashRouter>
      <GuardedRoutes {...events} />
      {children}
    </HashRouter>
  );
}
