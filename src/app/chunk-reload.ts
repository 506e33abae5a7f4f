/**
 * spec §8: a failed load of a route chunk (typically after a deploy replaced the files) triggers one full page
 * reload, at most once per 60 s; within that window the error page shows instead. Pure core but for handleChunkError.
 */
import { appMode } from './mode.ts';

export const RELOAD_GUARD_MS = 60_000;
export const RELOAD_KEY = 'pos.chunkReloadAt';

export function isChunkError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error ?? '');
  return /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS|Failed to load module script/i.test(message);
}

/** Reloads (and answers true) unless a reload happened within the guard window. */
export function reloadOnce(storage: Pick<Storage, 'getItem' | 'setItem'> | undefined, now: number, reload: () => void): boolean {
  const last = Number(storage?.getItem(RELOAD_KEY) ?? 0);
  if (now - last < RELOAD_GUARD_MS) return false;
  storage?.setItem(RELOAD_KEY, String(now));
  reload();
  return true;
}

export function handleChunkError(error: unknown): boolean {
  if (!isChunkError(error)) return false;
  return reloadOnce(appMode.tabStorage, Date.now(), () => window.location.reload());
}
