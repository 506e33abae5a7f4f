/**
 * The idle timer of spec §4 as a small state machine with an injectable clock (unit-tested): 15 minutes
 * without activity shows the 'Session Timeout' dialog with a 30-second countdown; activity while the
 * dialog is open does not dismiss it, only 'Stay Logged In' does; at zero `onExpire` runs once, and
 * `timeoutAction` says what it does for this visitor.
 */
import type { SessionState } from '../session/state.ts';

export const IDLE_MS = 900_000;
export const COUNTDOWN_SECONDS = 30;

export type IdleState = { phase: 'active' } | { phase: 'warning'; secondsLeft: number } | { phase: 'expired' };

export interface Clock {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const realClock: Clock = {
  now: () => Date.now(),
  setTimeout: (run, ms) => globalThis.setTimeout(run, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface IdleMonitor {
  state(): IdleState;
  subscribe(listener: (state: IdleState) => void): () => void;
  /** User activity (pointer, keys, scroll, touch). */
  activity(): void;
  /** 'Stay Logged In'. */
  stay(): void;
  start(): void;
  stop(): void;
}

export function createIdleMonitor(options: { onExpire(): void; clock?: Clock; idleMs?: number; countdownSeconds?: number }): IdleMonitor {
  const clock = options.clock ?? realClock;
  const idleMs = options.idleMs ?? IDLE_MS;
  const countdown = options.countdownSeconds ?? COUNTDOWN_SECONDS;
  const listeners = new Set<(state: IdleState) => void>();
  let current: IdleState = { phase: 'active' };
  let lastActivity = clock.now();
  let timer: unknown;
  let running = false;

  const set = (next: IdleState) => {
    current = next;
    for (const listener of listeners) listener(current);
  };
  const clear = () => {
    if (timer !== undefined) clock.clearTimeout(timer);
    timer = undefined;
  };
  // One timer at a time; it re-checks the real elapsed time, so a sleeping laptop expires on wake.
  const schedule = (ms: number) => {
    clear();
    timer = clock.setTimeout(tick, Math.max(0, ms));
  };
  function tick(): void {
    if (!running) return;
    const idle = clock.now() - lastActivity;
    if (idle < idleMs) {
      if (current.phase !== 'active') set({ phase: 'active' });
      schedule(idleMs - idle);
      return;
    }
    const secondsLeft = Math.max(0, countdown - Math.floor((idle - idleMs) / 1000));
    if (secondsLeft === 0) {
      running = false;
      clear();
      set({ phase: 'expired' });
      options.onExpire();
      return;
    }
    if (current.phase !== 'warning' || current.secondsLeft !== secondsLeft) set({ phase: 'warning', secondsLeft });
    schedule(1000 - ((idle - idleMs) % 1000));
  }

  return {
    state: () => current,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    activity() {
      if (!running || current.phase !== 'active') return;
      lastActivity = clock.now();
    },
    stay() {
      if (!running) return;
      lastActivity = clock.now();
      set({ phase: 'active' });
      schedule(idleMs);
    },
    start() {
      if (running) return;
      running = true;
      lastActivity = clock.now();
      set({ phase: 'active' });
      schedule(idleMs);
    },
    stop() {
      running = false;
      clear();
      if (current.phase !== 'active') set({ phase: 'active' });
    },
  };
}

export type TimeoutAction = 'signOut' | 'borrowerSignIn' | 'companyHome';

/** Spec §4 session timeout at zero: staff are signed out; a borrower goes to sign in again for the same application; anyone else to the company home page. */
export function timeoutAction(state: Pick<SessionState, 'authenticated' | 'borrowerAuthenticated' | 'borrowerAppId'>): TimeoutAction {
  if (state.authenticated) return 'signOut';
  if (state.borrowerAuthenticated && state.borrowerAppId) return 'borrowerSignIn';
  return 'companyHome';
}
