/** The expression context of a place, and what it is made of: the session, the route, the language, the enclosing scope. */
import { useContext, useMemo, useSyncExternalStore } from 'react';
import type { Context } from '../../core/expressions.ts';
import { buildContext, type RouteInfo } from './context.ts';
import { useEngine } from './services.ts';
import { currentLanguage, onLanguageChange } from '../../core/current-language.ts';
import type { Language } from '../../core/i18n.ts';
import { brandContext } from '../../core/brand.ts';
import { RouteInfoContext, ScopeContext } from './contexts.ts';

export function useSessionState(): Record<string, unknown> {
  const { session } = useEngine();
  return useSyncExternalStore(session.subscribe, session.get, session.get);
}

export function useRouteInfo(): RouteInfo {
  return useContext(RouteInfoContext);
}

/**
 * The current language; a component that reads it re-renders when it changes — its words too, not only its code (a
 * translation published in the studio is taken again under the same code, decision 0238).
 */
export function useLanguage(): Language {
  return useSyncExternalStore(onLanguageChange, currentLanguage, currentLanguage);
}

/** The expression context for this place: session, route, brand, flags, conditions, the language and the enclosing scope. */
export function useExprContext(extra?: Context): Context {
  const services = useEngine();
  const session = useSessionState();
  const language = useLanguage();
  const locale = language.locale;
  const route = useRouteInfo();
  const scope = useContext(ScopeContext);
  const flags = services.useFlags();
  const flow = route.flow ? services.descriptors.flows?.[route.flow.code] : undefined;
  // The brand's words ({brand.wording.service}) in the current language.
  const brand = useMemo(() => brandContext(services.brand.descriptor, services.brand.name, language), [services, language]);
  const base = useMemo(
    () => buildContext({ session, route, brand, conditions: services.descriptors.conditions.conditions, flags, flow, locale }),
    [session, route, services, brand, flags, flow, locale],
  );
  return useMemo(() => ({ ...base, ...scope, ...extra }), [base, scope, extra]);
}

/** The in-app path with its query, as the hash router holds it ('/auth?p=%2Fhome'). */
export const currentHashPath = () => window.location.hash.replace(/^#/, '') || '/';

/** The page the address names now, without its query ('#/search/42?x=1' → '/search/42'): what the router draws next. */
export const currentPathname = () => currentHashPath().split('?')[0]!;
