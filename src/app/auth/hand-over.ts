/**
 * Hand-over on the office's device (issue 19, docs/decisions/0212): the device is the patient's once staff hand it over
 * (a screen sets `handedOver` where staff is signed in: 'The patient applies on this device', a passcode sent at the
 * desk), or a patient signs in with a passcode in a tab where staff is signed in. The staff session ends here — its
 * tokens, the office's data in the session and every cached answer no screen shows — and the next staff screen asks
 * the staff member to sign in again, with the password. The patient keeps only their own application.
 */
import { EMPTY_SESSION, type SessionState } from '../session/state.ts';

/** What stays of the session when staff hands the device over: the patient's own sign-in and what is public. */
const KEPT: readonly (keyof SessionState)[] = ['borrowerAuthenticated', 'borrowerToken', 'borrowerAppId', 'configItems', 'progress'];

/** The session after a hand-over, or null when this state is not one (no staff, or neither a hand-over nor a patient beside them). */
export function handOverState(state: SessionState): SessionState | null {
  if (!state.authenticated || !(state.borrowerAuthenticated || state.handedOver)) return null;
  const kept = Object.fromEntries(KEPT.map((key) => [key, state[key]]));
  return { ...EMPTY_SESSION, ...kept, handedOver: true };
}

export interface HandOverHooks {
  /** Drops the staff's tokens (AuthPort.lock). */
  lockStaff(): Promise<void>;
  /** Forgets cached answers no screen is showing (the office's lists). */
  forgetStaffData(): void;
}

/** Watches the session for a hand-over and carries it out once per hand-over. */
export function watchHandOver(store: { get(): SessionState; update(partial: Partial<SessionState>): void; subscribe(listener: (state: SessionState) => void): () => void }, hooks: HandOverHooks): () => void {
  const check = (state: SessionState) => {
    const after = handOverState(state);
    if (!after) return;
    store.update(after);
    hooks.forgetStaffData();
    void hooks.lockStaff();
  };
  check(store.get());
  return store.subscribe(check);
}
