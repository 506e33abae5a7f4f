/**
 * The app as a frame of the studio's preview (decisions 0228, 0229): it shows the draft set the studio sends, not the
 * live one, to the visitor the studio chose — a session the frame starts with, and every call answered by a sample of
 * the contract's answer (codegen/generated/samples.ts, loaded only here): no one's records are shown, nothing is sent.
 * The app reaches this module only through the preview's mode (./mode.ts).
 */
import type { DescriptorSet } from './live-descriptors.ts';
import type { SessionState } from './session/state.ts';

/** The studio's message to its preview frame: the draft set to show, and to whom. */
export const PREVIEW_MESSAGE = 'pos-studio-preview';

/**
 * Who a preview shows the pages to: the session the frame starts with (a role, an office, a patient's application).
 * None: anyone not signed in, who reads the live answers of public pages.
 */
export interface PreviewVisitor {
  session: Partial<SessionState>;
}

const PREVIEW_WAIT_MS = 5_000;
/** How long a page the studio's render check visits has to render (its code and data arriving). */
const VISIT_SETTLE_MS = 1_200;

const listeners = new Set<(set: DescriptorSet) => void>();
let answers: Readonly<Record<string, unknown>> | undefined;

type StudioMessage = { type?: string; set?: DescriptorSet; path?: string; visitor?: PreviewVisitor; on?: boolean; words?: unknown[]; asked?: number };

/**
 * Waits for the studio's first draft (the deployed set if none comes in time) and its visitor, whose session the
 * frame starts with; a visitor's calls are answered with samples from then on. Later drafts go to onDraft's listeners.
 */
export function startPreview(built: DescriptorSet): Promise<{ set: DescriptorSet; session?: Partial<SessionState> }> {
  return new Promise((resolve) => {
    let first = true;
    const timer = setTimeout(() => resolve({ set: built }), PREVIEW_WAIT_MS);
    window.addEventListener('message', (event: MessageEvent<StudioMessage>) => {
      if (event.origin !== window.location.origin || event.source !== window.parent) return;
      const { type, path } = event.data ?? {};
      if (type === `${PREVIEW_MESSAGE}-visit` && typeof path === 'string') return visitForStudio(path);
      // Picking is the studio's alone: its code is not in the pages' bundle.
      if (type === `${PREVIEW_MESSAGE}-pick`) {
        const on = event.data.on === true;
        void import('./preview-pick.ts').then(({ pickForStudio }) => pickForStudio(on, (picked) => toStudio({ type: `${PREVIEW_MESSAGE}-picked`, ...picked })));
        return;
      }
      // A review's comparison: the words the page shows, and marks on those the other page does not show.
      if (type === `${PREVIEW_MESSAGE}-words`) {
        void import('./preview-marks.ts').then(({ pageWords }) => toStudio({ type: `${PREVIEW_MESSAGE}-words-shown`, words: pageWords(), asked: event.data.asked }));
        return;
      }
      if (type === `${PREVIEW_MESSAGE}-mark`) {
        const words = Array.isArray(event.data.words) ? event.data.words.filter((w): w is string => typeof w === 'string') : [];
        void import('./preview-marks.ts').then(({ markWords }) => markWords(words));
        return;
      }
      const set = type === PREVIEW_MESSAGE ? event.data.set : undefined;
      if (!set) return;
      if (!first) return listeners.forEach((listener) => listener(set));
      first = false;
      clearTimeout(timer);
      const visitor = event.data.visitor;
      if (!visitor) return resolve({ set });
      void import('../../codegen/generated/samples.ts').then(({ samples }) => {
        answers = samples;
        resolve({ set, session: visitor.session });
      });
    });
    toStudio({ type: `${PREVIEW_MESSAGE}-ready` });
  });
}

const toStudio = (message: Record<string, unknown>) => window.parent.postMessage(message, window.location.origin);

/** Calls `listener` with each draft the studio sends after the first; returns the unsubscribe. */
export function onDraft(listener: (set: DescriptorSet) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The studio's render check: open a page, and say when it had time to render. */
function visitForStudio(path: string): void {
  window.location.hash = path;
  setTimeout(() => toStudio({ type: `${PREVIEW_MESSAGE}-visited`, path }), VISIT_SETTLE_MS);
}

/** Tells the studio of a page that does not render. */
export const reportRenderError = (error: Error): void => toStudio({ type: `${PREVIEW_MESSAGE}-error`, message: error.message });

/** The sample answer of an operation, for a preview with a visitor; undefined without one. */
export const sampleAnswer = (operationId: string): { answer: unknown } | undefined => (answers ? { answer: structuredClone(answers[operationId]) } : undefined);
