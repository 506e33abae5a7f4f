/**
 * The route table → hash router with guards (spec §2, §6). Every route renders its layout (code-split by layout
 * component) around its screen (code-split by screen kind, descriptors loaded on demand).
 */
import { lazy, useEffect, useMemo, useRef, useState, type ComponentType, type ReactNode } from 'react';
import { HashRouter, Navigate, useLocation, useParams, useRoutes, type RouteObject } from 'react-router-dom';
import type { Layout, ScreenDescriptor } from '../../codegen/generated/descriptors.ts';
import { decideAccess, type Visitor } from './access.ts';
import { resolveTarget, type RouteEntry } from './routing.ts';
import { condition, type Context } from './expressions.ts';
import { queryOf, type RouteInfo } from './context.ts';
import { runActions } from './actions.ts';
import { RouteInfoContext, useActionRuntime, useExprContext, useSessionState } from './hooks.tsx';
import { useEngine, type EngineServices } from './services.ts';
import { ForbiddenContent, NotFoundContent } from './pages.tsx';
import { Lazy } from './ui.tsx';
import { DialogProvider } from './dialogs.tsx';
import { use } from 'react';

export interface LayoutProps {
  layout: Layout;
  children: ReactNode;
}

/** Layout components by the `component` of screens/layouts.json. */
const LAYOUTS: Record<Layout['component'], ComponentType<LayoutProps>> = {
  default: lazy(() => import('./layouts/DefaultLayout.tsx')),
  esign: lazy(() => import('./layouts/EsignLayout.tsx')),
  office: lazy(() => import('./layouts/OfficeLayout.tsx')),
  welcome: lazy(() => import('./layouts/WelcomeLayout.tsx')),
};

export interface ScreenProps<S = ScreenDescriptor> {
  screen: S;
}

/** Screen components by `kind`. */
const KINDS: Record<ScreenDescriptor['kind'], ComponentType<ScreenProps<never>>> = {
  form: lazy(() => import('./screens/FormScreen.tsx')),
  wizard: lazy(() => import('./screens/WizardScreen.tsx')),
  table: lazy(() => import('./screens/TableScreen.tsx')),
  kanban: lazy(() => import('./screens/KanbanScreen.tsx')),
  detail: lazy(() => import('./screens/DetailScreen.tsx')),
  dialog: lazy(() => import('./screens/ChoiceScreen.tsx')),
  composite: lazy(() => import('./screens/CompositeScreen.tsx')),
};

export function LayoutFrame({ name, children }: { name: string; children: ReactNode }) {
  const { descriptors } = useEngine();
  const layout = descriptors.layouts.layouts[name];
  if (!layout) throw new Error(`no layout ${name}`);
  const Component = LAYOUTS[layout.component];
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
  const key = `${place}/${name}`;
  let promise = cache.get(key);
  if (!promise) {
    promise = services.loadScreen(name, place);
    promise.catch(() => cache!.delete(key));
    cache.set(key, promise);
  }
  return promise;
}

/** Renders a screen descriptor: runs its onLoad actions once, shows 404 in place when an action says so. */
export function ScreenView({ screen }: { screen: ScreenDescriptor }) {
  const [missing, setMissing] = useState(false);
  const overrides = useMemo(() => ({ notFound: () => setMissing(true) }), []);
  const runtime = useActionRuntime(overrides);
  const context = useExprContext();
  const started = useRef(false);
  useEffect(() => {
    if (started.current || !screen.onLoad?.length) return;
    started.current = true;
    void runActions(screen.onLoad, context, runtime);
  }, [screen, context, runtime]);
  if (missing) return <NotFoundContent />;
  const Kind = KINDS[screen.kind] as ComponentType<ScreenProps>;
  return (
    <Lazy>
      <Kind screen={screen} />
    </Lazy>
  );
}

export function ScreenHost({ name, place = 'pages' }: { name: string; place?: 'pages' | 'dialogs' }) {
  const services = useEngine();
  const screen = use(loadScreen(services, name, place));
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
    () => ({ name: entry.name, path: location.pathname, params: { ...params }, query: queryOf(location.search) }),
    [entry.name, location.pathname, location.search, params],
  );
  useTitle(entry.title);
  const decision = decideAccess(entry.access, visitorOf(session), info.params);
  const request: Context = { session, request: { path: location.pathname + location.search, params: info.params } };
  const { routes, table } = services.descriptors;
  if (decision.kind === 'signIn' || decision.kind === 'borrowerSignIn') {
    const target = resolveTarget(decision.kind === 'signIn' ? routes.signIn : routes.borrowerSignIn, request, table);
    return <Navigate replace to={target.kind === 'route' ? target.path : '/'} />;
  }
  return (
    <RouteInfoContext value={info}>
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
              <ScreenHost key={location.pathname} name={entry.screen!} />
            </Lazy>
          </LayoutFrame>
        )}
      </DialogProvider>
    </RouteInfoContext>
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
  return useRoutes(objects);
}

export function EngineRouter({ children }: { children?: ReactNode }) {
  return (
    <HashRouter>
      <Routes />
      {children}
    </HashRouter>
  );
}
