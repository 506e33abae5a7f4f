/**
 * The global progress indicator (spec §9): it appears only when work lasts longer than 200 ms (throttle) and
 * disappears 500 ms after the last call ends (hide delay); the bar fills over 5 s. Reads move the loading bar;
 * writes (submits) also raise the overlay. Pure state machine with injectable timers (unit-tested).
 */
export const THROTTLE_MS = 200;
export const HIDE_DELAY_MS = 500;
export const BAR_DURATION_MS = 5000;

export interface ProgressState {
  visible: boolean;
  overlay: boolean;
}

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export function createProgress(timers: Timers = { setTimeout: (fn, ms) => setTimeout(fn, ms), clearTimeout: (h) => clearTimeout(h as number) }) {
  let reads = 0;
  let writes = 0;
  let state: ProgressState = { visible: false, overlay: false };
  let showTimer: unknown;
  let hideTimer: unknown;
  const listeners = new Set<(s: ProgressState) => void>();
  const set = (next: ProgressState) => {
    if (next.visible === state.visible && next.overlay === state.overlay) return;
    state = next;
    for (const l of listeners) l(state);
  };
  const busy = () => reads + writes > 0;
  const changed = () => {
    if (busy()) {
      if (hideTimer !== undefined) {
        timers.clearTimeout(hideTimer);
        hideTimer = undefined;
      }
      if (state.visible) set({ visible: true, overlay: writes > 0 });
      else if (showTimer === undefined) {
        showTimer = timers.setTimeout(() => {
          showTimer = undefined;
          if (busy()) set({ visible: true, overlay: writes > 0 });
        }, THROTTLE_MS);
      }
    } else {
      if (showTimer !== undefined) {
        timers.clearTimeout(showTimer);
        showTimer = undefined;
      }
      if (state.visible && hideTimer === undefined) {
        hideTimer = timers.setTimeout(() => {
          hideTimer = undefined;
          if (!busy()) set({ visible: false, overlay: false });
        }, HIDE_DELAY_MS);
      }
    }
  };
  return {
    start(kind: 'read' | 'write') {
      if (kind === 'write') writes++;
      else reads++;
      changed();
    },
    end(kind: 'read' | 'write') {
      if (kind === 'write') writes = Math.max(0, writes - 1);
      else reads = Math.max(0, reads - 1);
      changed();
    },
    /** spec §8: a failed config or user-info load hides the bar at once. */
    hide() {
      reads = 0;
      writes = 0;
      if (showTimer !== undefined) timers.clearTimeout(showTimer);
      if (hideTimer !== undefined) timers.clearTimeout(hideTimer);
      showTimer = hideTimer = undefined;
      set({ visible: false, overlay: false });
    },
    get: () => state,
    subscribe(listener: (s: ProgressState) => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export type Progress = ReturnType<typeof createProgress>;
export const progress = createProgress();

/** Runs a write (submit) under the overlay. */
export async function withOverlay<T>(work: Promise<T>): Promise<T> {
  progress.start('write');
  try {
    return await work;
  } finally {
    progress.end('write');
  }
}
