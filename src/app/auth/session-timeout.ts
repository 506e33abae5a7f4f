/**
 * The session timeout of spec §4 for every visitor (staff, borrower, anyone else), without MSAL: 15 idle
 * minutes show the 'Session Timeout' dialog with a 30-second countdown; at zero staff are signed out, a
 * borrower goes back to borrower sign-in for the same application, anyone else to the company home page
 * (COMPANY_HOME_URL, from /auth-config.json). One instance per page: the first `startSessionTimeout`
 * wins, later calls return it. src/main.tsx starts it at load for everyone; the MSAL port's call then
 * returns that instance.
 */
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { session } from '../session/store.ts';
import { createIdleMonitor, timeoutAction, type IdleMonitor } from './idle.ts';
import { SessionTimeout } from './SessionTimeout.tsx';

const ACTIVITY_EVENTS = ['pointerdown', 'pointermove', 'keydown', 'wheel', 'scroll', 'touchstart'] as const;

export interface SessionTimeoutOptions {
  /** Ends the staff session (the auth port's signOut). */
  signOut(): Promise<void>;
  /** Known already (the port read /auth-config.json); otherwise fetched when needed. */
  companyHomeUrl?: string;
}

let started: IdleMonitor | undefined;

async function companyHome(known: string | undefined): Promise<string> {
  if (known) return known;
  try {
    const config = (await (await fetch('/auth-config.json')).json()) as { companyHomeUrl?: unknown };
    if (typeof config.companyHomeUrl === 'string') return config.companyHomeUrl;
  } catch {
    // The portal's own home is the fallback.
  }
  return `${window.location.origin}/`;
}

export function startSessionTimeout(options: SessionTimeoutOptions): IdleMonitor {
  if (started) return started;
  const monitor = createIdleMonitor({
    async onExpire() {
      const action = timeoutAction(session.get(), '');
      if (action.kind === 'signOut') {
        await options.signOut();
        return;
      }
      if (action.kind === 'borrowerSignIn') {
        session.update({ borrowerAuthenticated: false, borrowerToken: null });
        await session.flush();
        window.location.hash = action.path;
        monitor.start();
        return;
      }
      window.location.assign(await companyHome(options.companyHomeUrl));
    },
  });
  started = monitor;
  monitor.start();
  for (const name of ACTIVITY_EVENTS) window.addEventListener(name, () => monitor.activity(), { passive: true, capture: true });
  const host = document.createElement('div');
  host.id = 'session-timeout-root';
  document.body.appendChild(host);
  createRoot(host).render(createElement(SessionTimeout, { monitor }));
  return monitor;
}
