/**
 * The sign-in implementation (src/app/auth/port.ts, with MSAL) is ~70 KB of gzip JavaScript that a borrower never
 * needs (docs/decisions/0044-auth-port.md). This port loads it only when it matters:
 * - at start, when the address carries the identity provider's answer (?code, ?error, ?state) or the session says a
 *   staff user is signed in (tokens, idle timeout);
 * - later, on the first signIn / signOut, or a token request from a signed-in session.
 * Until then nobody is signed in: acquireToken answers null, handleRedirect answers null.
 */
import type { AuthPort } from './auth-port.ts';

export interface LazyAuthOptions {
  load(): Promise<AuthPort>;
  /** Is a staff user signed in according to the session? */
  signedIn(): boolean;
}

export function needsAuthAtStart(search: string, signedIn: boolean): boolean {
  const query = new URLSearchParams(search);
  return signedIn || query.has('code') || query.has('error') || query.has('state');
}

export function lazyAuthPort(options: LazyAuthOptions): AuthPort & { loaded(): boolean; ready(): Promise<AuthPort> } {
  let real: Promise<AuthPort> | undefined;
  let done = false;
  const ready = () => {
    real ??= options.load().then((port) => {
      done = true;
      return port;
    });
    return real;
  };
  return {
    loaded: () => done,
    ready,
    async signIn(returnPath, signUp) {
      return (await ready()).signIn(returnPath, signUp);
    },
    async signOut() {
      return (await ready()).signOut();
    },
    async lock() {
      // Nothing loaded, no tokens held here to drop.
      if (!real) return;
      return (await ready()).lock();
    },
    async acquireToken(request) {
      if (!real && !options.signedIn()) return null;
      return (await ready()).acquireToken(request);
    },
    async handleRedirect() {
      if (!real) return null;
      return (await ready()).handleRedirect();
    },
  };
}
