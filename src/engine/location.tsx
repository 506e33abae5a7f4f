/**
 * The in-app location, held in the address's hash ('#/app/prequal/0?x=1'), and the navigator that changes it
 * (decision 0201: the engine's own, in place of react-router, whose 36 KB the borrower's phone paid for a matcher,
 * a location hook and a redirect component).
 *
 * A location change renders in a transition: the page being left stays on screen until the next one is ready (its
 * code and descriptor loaded), instead of a loading fallback in between.
 */
import { createContext, startTransition, useContext, useEffect, useLayoutEffect, useState, type ReactNode } from 'react';

export interface HashLocation {
  /** '/app/prequal/0' */
  pathname: string;
  /** '?x=1', or '' */
  search: string;
}

export interface Navigator {
  push(path: string): void;
  replace(path: string): void;
}

/** The in-app path with its query, as the hash holds it ('/auth?p=%2Fhome'); '/' when there is none. */
export const currentHashPath = () => window.location.hash.replace(/^#/, '') || '/';

function locationOf(path: string): HashLocation {
  const at = path.indexOf('?');
  const pathname = at < 0 ? path : path.slice(0, at);
  return { pathname: pathname.startsWith('/') ? pathname : `/${pathname}`, search: at < 0 ? '' : path.slice(at) };
}

const listeners = new Set<() => void>();
const changed = () => listeners.forEach((listener) => listener());

/** pushState and replaceState fire no event: the navigator tells the provider itself. */
export const hashNavigator: Navigator = {
  push: (path) => {
    window.history.pushState(null, '', `#${path}`);
    changed();
  },
  replace: (path) => {
    window.history.replaceState(null, '', `#${path}`);
    changed();
  },
};

const LocationContext = createContext<HashLocation>(locationOf('/'));

/** Follows the hash: the navigator's changes, the Back and Forward buttons, and an address typed or set by code. */
export function HashLocationProvider({ children }: { children: ReactNode }) {
  const [location, setLocation] = useState(() => locationOf(currentHashPath()));
  useLayoutEffect(() => {
    const sync = () => {
      const next = locationOf(currentHashPath());
      startTransition(() => setLocation((now) => (now.pathname === next.pathname && now.search === next.search ? now : next)));
    };
    listeners.add(sync);
    window.addEventListener('popstate', sync);
    window.addEventListener('hashchange', sync);
    sync();
    return () => {
      listeners.delete(sync);
      window.removeEventListener('popstate', sync);
      window.removeEventListener('hashchange', sync);
    };
  }, []);
  return <LocationContext.Provider value={location}>{children}</LocationContext.Provider>;
}

export const useHashLocation = (): HashLocation => useContext(LocationContext);

/** Replaces the location once rendered (a guard's redirect). */
export function NavigateTo({ to }: { to: string }) {
  useEffect(() => hashNavigator.replace(to), [to]);
  return null;
}
