/**
 * The places the app can keep what lasts for the tab (the brand asked for, the language chosen, the chunk-reload
 * guard); the page's mode (./mode.ts) chooses one at start.
 */

/** A Storage that lives as long as the page that made it. */
export function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, String(value)),
  };
}

export function sessionStorageOrNone(): Storage | undefined {
  try {
    return typeof sessionStorage === 'undefined' ? undefined : sessionStorage;
  } catch {
    // A browser that stores nothing (sessionStorage refused) keeps choices for this visit only.
    return undefined;
  }
}
