/**
 * The session timeout of spec §4 for every visitor (staff, borrower, anyone else), without MSAL: 15 idle
 * minutes show the 'Session Timeout' dialog with a 30-second countdown; at zero staff are signed out, a
 * borrower goes back to borrower sign-in for the same application (the route table's `borrowerSignIn`),
 * anyone else to the company home page (COMPANY_HOME_URL, from Auth_GetClientConfig). src/main.tsx starts it
 * once, at load.
 */
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { resolveTarget } from '../../engine/routing.ts';
import { engineDescriptors } from '../descriptors.ts';
import { session } from '../session/store.ts';
import { AUTH_CONFIG_PATH, parseAuthConfig } from './config.ts';
import { createIdleMonitor, timeoutAction, type IdleMonitor } from './idle.ts';
import { SessionTimeout } from './SessionTimeout.tsx';

const ACTIVITY_EVENTS = ['pointerdown', 'pointermove', 'keydown', 'wheel', 'scroll', 'touchstart'] as const;

async function companyHome(): Promise<string> {
  try {
    return parseAuthConfig(await (await fetch(AUTH_CONFIG_PATH)).json()).companyHomeUrl;
  } catch {
    // The portal's own home is the fallback.
  }
  return `${window.location.origin}/`;
}

/** Where the route table sends a borrower to sign in again for the session's application. */
function borrowerSignInPath(): string {
  const { routes, table } = engineDescriptors({});
  const target = resolveTarget(routes.borrowerSignIn, { session: session.get(), request: { path: '', params: {} } }, table);
  return target.kind === 'route' ? target.path : '/';
}

/** `signOut` ends a staff session (the auth port's). */
export function startSessionTimeout(signOut: () => Promise<void>): IdleMonitor {
  const monitor = createIdleMonitor({
    async onExpire() {
      const action = timeoutAction(session.get());
      if (action === 'signOut') {
        await signOut();
        return;
      }
      if (action === 'borrowerSignIn') {
        const path = borrowerSignInPath();
        session.update({ borrowerAuthenticated: false, borrowerToken: null });
        await session.flush();
        window.location.hash = path;
        monitor.start();
        return;
      }
      window.location.assign(await companyHome());
    },
  });
  monitor.start();
  for (const name of ACTIVITY_EVENTS) window.addEventListener(name, () => monitor.activity(), { passive: true, capture: true });
  const host = document.createElement('div');
  host.id = 'session-timeout-root';
  document.body.appendChild(host);
  createRoot(host).render(createElement(SessionTimeout, { monitor }));
  return monitor;
}
