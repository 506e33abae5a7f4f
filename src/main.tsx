/**
 * Start: read the encrypted session, install the AuthPort, render the shell.
 *
 * Sign-in lives in src/app/auth/port.ts (`createAuthPort()`); it is installed behind a lazy port
 * (src/app/lazy-auth.ts) so that borrower pages do not load it: it loads at start when the address carries the
 * identity provider's answer or a staff user is signed in, and otherwise on first use. Without that file the
 * signed-out stub of src/app/auth-port.ts stays. The session timeout starts for every visitor, without MSAL.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, preloadFirstPage } from './app/App.tsx';
import { appMode } from './app/mode.ts';
import { authPort, setAuthPort, signedOutAuthPort, type AuthPort } from './app/auth-port.ts';
import { lazyAuthPort, needsAuthAtStart } from './app/lazy-auth.ts';
import { session } from './app/session/store.ts';
import { handleChunkError } from './app/chunk-reload.ts';
import { chooseLanguage, startingLocale } from './app/language.ts';
import { addressQuery } from './engine/context.ts';

window.addEventListener('vite:preloadError', (event) => {
  if (handleChunkError((event as Event & { payload?: unknown }).payload ?? new Error('Failed to fetch dynamically imported module'))) event.preventDefault();
});

const authModules = import.meta.glob<{ createAuthPort(): AuthPort | Promise<AuthPort> }>('./app/auth/port.ts');

async function start(): Promise<void> {
  // The descriptor set the page names (none: at once) — its fetch started with the page (decision 0228).
  const { set, session: visitor } = await appMode.start();
  preloadFirstPage(set);
  // A visitor who reads another language sees their first screen in it (decision 0216).
  const query = addressQuery(window.location);
  const locale = startingLocale(query, navigator.languages, set.files);
  // A link's language is the patient's, chosen by the office: it stays for the tab, through a reload and the way back
  // from a lender's own site, as a choice in the picker does.
  const language = chooseLanguage(locale, query.lang === locale, set.files);
  await session.ready;
  await language;
  // A preview shows the pages to the visitor the studio chose, with sample answers (decision 0229).
  if (visitor) session.update(visitor);
  // A studio preview frame signs no one in: it shares the tab's storage with the studio's own sign-in.
  const load = appMode.signsIn ? authModules['./app/auth/port.ts'] : undefined;
  if (load) {
    const port = lazyAuthPort({
      load: async () => {
        try {
          return await (await load()).createAuthPort();
        } catch (error) {
          console.error('Sign-in could not start; everyone is signed out.', error);
          return signedOutAuthPort;
        }
      },
      signedIn: () => session.get().authenticated,
    });
    setAuthPort(port);
    if (needsAuthAtStart(window.location.search, session.get().authenticated)) await port.ready();
  }
  // Spec §4 times out borrowers and anonymous visitors too, so the idle monitor starts for everyone, without MSAL.
  if (appMode.signsIn) void import('./app/auth/session-timeout.ts').then(({ startSessionTimeout }) => startSessionTimeout(() => authPort().signOut()));
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}

void start();
