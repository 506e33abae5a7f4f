/**
 * The descriptor set the app runs on (issue 18, decision 0228). The bundle holds the files as built; when the studio
 * has published a set, the page names it (its fetch starts with the page: a preload) and the app starts on it. Every
 * API answer names the live set (`X-Descriptor-Set`); when that changes, the new set is fetched — once, by its hash —
 * and handed to whoever listens (the shell, which takes it on the next navigation, so nothing typed is lost).
 */
import { PREVIEW_FLAG } from '../../core/tab-keys.ts';
import { webConfig } from './config.ts';
import type { SessionState } from './session/state.ts';

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

/** The studio's message to its preview frame: the draft set to show (decision 0228), and to whom (decision 0229). */
export const PREVIEW_MESSAGE = 'pos-studio-preview';

/**
 * Who a preview shows the pages to: the session the frame starts with (a role, an office, a patient's application).
 * None: anyone not signed in, who reads the live answers of public pages.
 */
export interface PreviewVisitor {
  session: Partial<SessionState>;
}

let visitor: PreviewVisitor | undefined;
/** The preview's visitor, from the studio's first message. */
export const previewVisitor = (): PreviewVisitor | undefined => visitor;
const PREVIEW_WAIT_MS = 5_000;

/** A frame of the studio's preview: it shows the draft the studio sends, not the live set. */
export const inPreview = (): boolean => typeof window !== 'undefined' && window.parent !== window && new URLSearchParams(window.location.search).has(PREVIEW_FLAG);

/** The studio's drafts, from its own page (same origin) only. */
function listenToStudio(): Promise<DescriptorSet> {
  return new Promise((resolve) => {
    let first = true;
    const timer = setTimeout(() => resolve(BUILT_SET), PREVIEW_WAIT_MS);
    window.addEventListener('message', (event: MessageEvent<{ type?: string; set?: DescriptorSet; path?: string; visitor?: PreviewVisitor; on?: boolean }>) => {
      if (event.origin !== window.location.origin || event.source !== window.parent) return;
      const { type, path } = event.data ?? {};
      if (type === `${PREVIEW_MESSAGE}-visit` && typeof path === 'string') return visitForStudio(path);
      // Picking is the studio's alone: its code is not in the pages' bundle.
      if (type === `${PREVIEW_MESSAGE}-pick`) {
        const on = event.data.on === true;
        void import('./preview-pick.ts').then(({ pickForStudio }) => pickForStudio(on, (picked) => window.parent.postMessage({ type: `${PREVIEW_MESSAGE}-picked`, ...picked }, window.location.origin)));
        return;
      }
      if (type !== PREVIEW_MESSAGE || !event.data.set) return;
      if (first) {
        first = false;
        visitor = event.data.visitor;
        clearTimeout(timer);
        resolve(event.data.set);
      } else listeners.forEach((listener) => listener(event.data.set!));
    });
    window.parent.postMessage({ type: `${PREVIEW_MESSAGE}-ready` }, window.location.origin);
  });
}

/** How long a page the studio's render check visits has to render (its code and data arriving). */
const VISIT_SETTLE_MS = 1_200;

/** The studio's render check: open a page, and say when it had time to render. */
function visitForStudio(path: string): void {
  window.location.hash = path;
  setTimeout(() => window.parent.postMessage({ type: `${PREVIEW_MESSAGE}-visited`, path }, window.location.origin), VISIT_SETTLE_MS);
}

/** In a preview: tells the studio of a page that does not render. */
export function reportRenderError(error: Error): void {
  window.parent.postMessage({ type: `${PREVIEW_MESSAGE}-error`, message: error.message }, window.location.origin);
}

/** The set the page names; the built one when it names none or its set cannot be read. In a preview, the studio's. */
export async function startingSet(): Promise<DescriptorSet> {
  if (inPreview()) return listenToStudio();
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
  shown = inPreview() ? undefined : set.hash;
}
/** The hash of the set the page is drawn from ('' for the files as deployed); none before the first is taken. */
export const shownSet = (): string | undefined => shown;

/** An answer named the live set: a new one is fetched and announced. */
export function noticeLiveSet(hash: string): void {
  heardAt = Date.now();
  if (inPreview() || hash === newest || !/^([0-9a-f]{16})?$/.test(hash)) return;
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
  if (inPreview() || Date.now() - heardAt < QUIET_MS) return;
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
