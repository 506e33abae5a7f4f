/**
 * Loading what a screen needs — its descriptor, the code of its kind and layout, the widget registry — once, as
 * promises marked with their state as they settle (React's thenable convention: `status`, `value`, `reason`), which
 * `read` returns at once after they settled and suspends on before (decision 0146). A route waits for all of them
 * together before it renders (router.tsx), so a screen appears in one commit instead of a cascade of Suspense
 * fallbacks, each of which React holds back for up to 500 ms.
 */
import type { EngineServices } from './services.ts';
import type { FormModule } from './form-module.ts';
import { registerLabels } from '../../core/labels.ts';

type Tracked<T> = Promise<T> & { status?: 'pending' | 'fulfilled' | 'rejected'; value?: T; reason?: unknown };

/** Marks the promise with its state as it settles, so `read(promise)` returns without suspending once it has. */
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

/**
 * A tracked promise's value inside a render: thrown to the nearest Suspense boundary while pending, its reason to
 * the nearest error boundary once rejected. The promise must outlive the render (one from `loadOnce` or a cache),
 * or React would wait on a new one each time.
 */
export function read<T>(promise: Promise<T>): T {
  const p = tracked(promise) as Tracked<T>;
  if (p.status === 'fulfilled') return p.value as T;
  if (p.status === 'rejected') throw p.reason;
  throw p;
}

/** A Map or WeakMap of loads. */
interface LoadCache<K, T> {
  get(key: K): Promise<T> | undefined;
  set(key: K, value: Promise<T>): unknown;
  delete(key: K): unknown;
}

/** One tracked load per key; a failed load is forgotten, so the next use tries again. */
export function loadOnce<K, T>(cache: LoadCache<K, T>, key: K, load: () => Promise<T>): Promise<T> {
  let promise = cache.get(key);
  if (!promise) {
    promise = tracked(load());
    promise.catch(() => cache.delete(key));
    cache.set(key, promise);
  }
  return promise;
}

/** A load done once per engine (as `loadOnce`). */
function perEngine<T>(load: (services: EngineServices) => Promise<T>): (services: EngineServices) => Promise<T> {
  const cache = new WeakMap<EngineServices, Promise<T>>();
  return (services) => loadOnce(cache, services, () => load(services));
}

/** The widget registry (field widgets, the status chip). */
export const loadWidgets = perEngine((services) => services.widgets());

/** The icon set descriptors name icons from. */
export const loadIcons = perEngine((services) => services.icons());

/** Loads by key, each once per engine (as `loadOnce`). */
export function perEngineKeyed<T>(load: (services: EngineServices, key: string) => Promise<T>): (services: EngineServices, key: string) => Promise<T> {
  const caches = new WeakMap<EngineServices, Map<string, Promise<T>>>();
  return (services, key) => {
    let cache = caches.get(services);
    if (!cache) caches.set(services, (cache = new Map()));
    return loadOnce(cache, key, () => load(services, key));
  };
}

/** A form's precompiled module (schema, validator, rules) by its schema name. */
export const loadForm = perEngineKeyed((services, name): Promise<FormModule> => {
  const loader = services.forms[name];
  return loader ? loader() : Promise.reject(new Error(`no precompiled form ${name} (run npm run codegen)`));
});

const labelCache = new Map<string, Promise<void>>();

/** The tables of words a screen names, each loaded and registered once (labels.ts). */
export function loadLabels(services: EngineServices, formats: Iterable<string>): Promise<unknown> {
  return Promise.all([...formats].map((format) => loadOnce(labelCache, format, () => services.labels(format).then((table) => registerLabels(format, table)))));
}
