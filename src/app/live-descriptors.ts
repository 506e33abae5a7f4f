/**
 * The descriptor set the app runs on (issue 18, decision 0228). The bundle holds the files as built; when the studio
 * has published a set, the page names it (its fetch starts with the page: a preload) and the app starts on it. Every
 * API answer names the live set (`X-Descriptor-Set`); when that changes, the new set is fetched — once, by its hash —
 * and handed to whoever listens (the shell, which takes it on the next navigation, so nothing typed is lost).
 */
import { webConfig } from './config.ts';

export interface DescriptorSet {
  hash: string;
  /** Expanded descriptor files that replace the built ones, by path under screens/ ('pages/home.json'). */
  files: Readonly<Record<string, unknown>>;
}

export const BUILT_SET: DescriptorSet = { hash: '', files: {} };

let newest = '';
/** When an answer last named the live set. */
let heardAt = Date.now();
/**
 * A tab asks which set is live when it changes page (Descriptors_GetLive, a few bytes) unless an answer said so within
 * this time: a publication reaches every tab on its next navigation.
 */
const QUIET_MS = 1_000;
const listeners = new Set<(set: DescriptorSet) => void>();

async function fetchSet(hash: string): Promise<DescriptorSet> {
  if (!hash) return BUILT_SET;
  // Descriptors_GetSet, asked for as the page's preload asks (no headers), so the browser uses that answer.
  const response = await fetch(`/api/Descriptors/GetSet/${hash}`, { credentials: 'same-origin' });
  if (!response.ok) throw new Error(`descriptor set ${hash}: ${response.status}`);
  return (await response.json()) as DescriptorSet;
}

/** The set the page names; the built one when it names none or its set cannot be read. */
export async function startingSet(): Promise<DescriptorSet> {
  const hash = webConfig().descriptors ?? '';
  newest = hash;
  try {
    return await fetchSet(hash);
  } catch {
    return BUILT_SET;
  }
}

let shown: string | undefined;
/** The set the page is drawn from, as the app takes one (its first, or a newly live one on a change of page). */
export function showing(set: DescriptorSet): void {
  shown = set.hash;
}
/** The hash of the set the page is drawn from ('' for the files as deployed); none before the first is taken. */
export const shownSet = (): string | undefined => shown;

/** An answer named the live set: a new one is fetched and announced. */
export function noticeLiveSet(hash: string): void {
  heardAt = Date.now();
  if (hash === newest || !/^([0-9a-f]{16})?$/.test(hash)) return;
  newest = hash;
  fetchSet(hash).then(
    (set) => {
      if (newest === hash) listeners.forEach((listener) => listener(set));
    },
    () => undefined,
  );
}

/** On a change of page: asks which set is live when no answer said so lately (Descriptors_GetLive). */
export function askIfQuiet(): void {
  if (Date.now() - heardAt < QUIET_MS) return;
  heardAt = Date.now();
  fetch('/api/Descriptors/GetLive', { credentials: 'same-origin' })
    .then((response) => (response.ok ? (response.json() as Promise<{ hash?: unknown }>) : undefined))
    .then((answer) => {
      if (typeof answer?.hash === 'string') noticeLiveSet(answer.hash);
    })
    .catch(() => undefined);
}

/** Calls `listener` with each new live set; returns the unsubscribe. */
export function onLiveSet(listener: (set: DescriptorSet) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
