/**
 * The one seam between the shell and sign-in (docs/decisions/0044-auth-port.md). The router guard, the header and
 * the API client depend only on this port; src/app/auth/ (MSAL against the built-in or an external OpenID provider)
 * provides the real implementation by exporting `createAuthPort()` from src/app/auth/port.ts, which src/main.tsx
 * installs at start. Until then the stub below treats everyone as signed out.
 */
export interface AuthPort {
  /**
   * Starts staff sign-in; after it the user should land on `returnPath` (a hash route path such as '/home'). With
   * `signUp` the identity provider opens on its sign-up page ('Create an account').
   */
  signIn(returnPath: string, signUp?: boolean): Promise<void>;
  /** Ends the staff session at the identity provider. The caller clears the session state. */
  signOut(): Promise<void>;
  /**
   * Drops the staff's tokens from this device without leaving the page (the device is handed to a patient); the
   * next sign-in asks the identity provider for the password again.
   */
  lock(): Promise<void>;
  /** The staff access token, silently renewed when `forceRefresh`; null when nobody is signed in or renewal fails. */
  acquireToken(options?: { forceRefresh?: boolean }): Promise<string | null>;
  /**
   * Completes a sign-in redirect if the current address is one and returns where to go next (the stored login
   * route, home, enroll, ...); null when the address was not a sign-in answer.
   */
  handleRedirect(): Promise<string | null>;
}

/** No sign-in yet: nobody is signed in, no token is ever returned, signIn does nothing. No fake sign-in. */
export const signedOutAuthPort: AuthPort = {
  async signIn(returnPath) {
    console.info(`Staff sign-in is not available yet (requested return path ${returnPath}).`);
  },
  async signOut() {},
  async lock() {},
  async acquireToken() {
    return null;
  },
  async handleRedirect() {
    return null;
  },
};

let current: AuthPort = signedOutAuthPort;

export function setAuthPort(port: AuthPort): void {
  current = port;
}

/** The installed port; read it at call time (it is replaced once at start). */
export function authPort(): AuthPort {
  return current;
}
