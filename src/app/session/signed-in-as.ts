/**
 * Who this tab is signed in as: the staff member (their identity) and the patient (the application their passcode
 * opened). A change is someone signing in or out here: what the API refused before was refused to someone else.
 */
import type { SessionState } from './state.ts';

export const signedInAs = (state: SessionState): string =>
  `${state.authenticated ? (state.identity?.objectId ?? '') : ''}|${state.borrowerAuthenticated ? String(state.borrowerAppId ?? '') : ''}`;

/** Calls `listener` each time the session's `signedInAs` changes; returns the unsubscribe. */
export function onSignInChange(store: { get(): SessionState; subscribe(listener: (state: SessionState) => void): () => void }, listener: () => void): () => void {
  let who = signedInAs(store.get());
  return store.subscribe((state) => {
    const now = signedInAs(state);
    if (now === who) return;
    who = now;
    listener();
  });
}
