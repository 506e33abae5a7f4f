/**
 * How this page runs, chosen once when it loads: as the product, or as a frame of the studio's preview (./preview-frame.ts).
 * The app asks the mode where its descriptors, session and answers come from; no other module tells a preview apart.
 */
import { PREVIEW_FLAG } from '../../core/tab-keys.ts';
import type { SessionState } from './session/state.ts';
import { askIfQuiet, BUILT_SET, noticeLiveSet, onLiveSet, showing, startingSet, type DescriptorSet } from './live-descriptors.ts';
import { onDraft, reportRenderError, sampleAnswer, startPreview } from './preview-frame.ts';
import { memoryStorage, sessionStorageOrNone } from './tab-storage.ts';

export interface AppMode {
  /**
   * Where the tab keeps its choices (the brand asked for, the language, the chunk-reload guard). A preview is a
   * same-origin frame, which shares its tab's sessionStorage: it keeps them in its own memory.
   */
  readonly tabStorage: Storage | undefined;
  /** Whether the session is the tab's, kept encrypted across reloads; a preview's is the visitor the studio sends. */
  readonly keepsSession: boolean;
  /** The set to start on, and a session to start with (none: the tab's own). */
  start(): Promise<{ set: DescriptorSet; session?: Partial<SessionState> }>;
  /** Calls `listener` with each set after the first; returns the unsubscribe. */
  onNewSet(listener: (set: DescriptorSet) => void): () => void;
  /**
   * Whether a new set waits for the next navigation (a publication: the page being read keeps its state) or is taken
   * at once (a draft in the preview).
   */
  readonly newSetWaits: boolean;
  /** An answer named the live set. */
  heardLiveSet(hash: string): void;
  /** On a change of page: the live set is asked for when no answer named it lately. */
  navigated(): void;
  /** The set the page is drawn from, for the server's record of what a borrower was shown. */
  showing(set: DescriptorSet): void;
  /** Whether people sign in here, idle sessions time out and the office's events are heard. */
  readonly signsIn: boolean;
  /** Told of a page that does not render (the error page shows either way). */
  readonly onRenderError?: (error: Error) => void;
  /** A call's answer without the network (a preview's samples); undefined: the call goes to the API. */
  answerOf(operationId: string): { answer: unknown } | undefined;
}

const liveMode = (): AppMode => ({
  tabStorage: sessionStorageOrNone(),
  keepsSession: true,
  start: async () => ({ set: await startingSet() }),
  onNewSet: onLiveSet,
  newSetWaits: true,
  heardLiveSet: noticeLiveSet,
  navigated: askIfQuiet,
  showing,
  signsIn: true,
  answerOf: () => undefined,
});

const previewMode = (): AppMode => ({
  tabStorage: memoryStorage(),
  keepsSession: false,
  start: () => startPreview(BUILT_SET),
  onNewSet: onDraft,
  newSetWaits: false,
  heardLiveSet: () => undefined,
  navigated: () => undefined,
  showing: () => undefined,
  signsIn: false,
  onRenderError: reportRenderError,
  answerOf: sampleAnswer,
});

/** A frame of the studio's preview: the studio's page holds it, and its address says so. */
const isPreviewFrame = (): boolean => typeof window !== 'undefined' && window.parent !== window && new URLSearchParams(window.location.search).has(PREVIEW_FLAG);

export const appMode: AppMode = isPreviewFrame() ? previewMode() : liveMode();
