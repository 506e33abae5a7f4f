/**
 * Where the app keeps what lasts for the tab (the brand asked for, the language chosen, the chunk-reload guard), chosen
 * once at start (issue 37). A studio preview is a same-origin frame, and a frame shares its tab's sessionStorage: what
 * the preview kept would be the owner's own after a reload. A preview keeps it in the frame's memory instead.
 */
import { inPreview } from './live-descriptors.ts';

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

function sessionStorageOrNone(): Storage | undefined {
  try {
    return typeof sessionStorage === 'undefined' ? undefined : sessionStorage;
  } catch {
    // A browser that stores nothing (sessionStorage refused) keeps choices for this visit only.
    return undefined;
  }
}

export const tabStorage: Storage | undefined = inPreview() ? memoryStorage() : sessionStorageOrNone();
