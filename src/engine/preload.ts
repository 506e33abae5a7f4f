/**
 * Loading what a screen needs — its descriptor, the code of its kind and layout, the widget registry — once, as
 * promises React's `use` reads at once after they settled (React's thenable convention: `status`, `value`,
 * `reason`). A route waits for all of them together before it renders (router.tsx), so a screen appears in one
 * commit instead of a cascade of Suspense fallbacks, each of which React holds back for up to 300 ms.
 */
import type { EngineServices, WidgetRegistry } from './services.ts';

type Tracked<T> = Promise<T> & { status?: 'pending' | 'fulfilled' | 'rejected'; value?: T; reason?: unknown };

/** Marks the promise with its state as it settles, so `use(promise)` returns without suspending once it has. */
export function tracked<T>(promise: Promise<T>): Promise<T> {
  const p = promise as Tracked<T>;
  if (p.status === undefined) {
    p.status = 'pending';
    p.then(
      (value) => {
        p.status = 'fulfilled';
        p.value = value;
      },
      (reason: unknown) => {
        p.status = 'rejected';
        p.reason = reason;
      },
    );
  }
  return p;
}

/** One tracked load per key; a failed load is forgotten, so the next use tries again. */
export function loadOnce<T>(cache: Map<string, Promise<T>>, key: string, load: () => Promise<T>): Promise<T> {
  let promise = cache.get(key);
  if (!promise) {
    promise = tracked(load());
    promise.catch(() => cache.delete(key));
    cache.set(key, promise);
  }
  return promise;
}

const widgetCache = new WeakMap<EngineServices, Promise<WidgetRegistry>>();

/** The widget registry (field widgets, the status chip), loaded once per engine. */
export function loadWidgets(services: EngineServices): Promise<WidgetRegistry> {
  let promise = widgetCache.get(services);
  if (!promise) {
    promise = tracked(services.widgets());
    promise.catch(() => widgetCache.delete(services));
    widgetCache.set(services, promise);
  }
  return promise;
}
