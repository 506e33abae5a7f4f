/**
 * Signing in for a spec: for real, through the built-in identity provider (`signIn`), or by putting a session into the
 * page the way src/app/session/store.ts keeps one (docs/decisions/0043-session-store.md): a non-extractable AES-GCM
 * key in IndexedDB under the tab id from sessionStorage, and the state sealed with it in sessionStorage. A seeded
 * session has no token, so the calls that need one answer 401; specs of routing and access use it because it is fast.
 */
import { TAB_KEYS } from '../../core/tab-keys.ts';
import { expect, type Browser, type Page } from '@playwright/test';
import { hashOf, outbox } from './borrower.ts';
import { rolePermissions } from '../../core/permissions.ts';

/** The demo accounts' password (README, Demo accounts). */
export const DEMO_PASSWORD = process.env.E2E_DEMO_PASSWORD ?? 'demo-pass-1234';

/** Signs a demo account in on the identity provider's page and waits for the landing route (by default, any). */
export async function signIn(page: Page, email: string, landing = /^\/(?!auth|signed-in)/): Promise<void> {
  await page.goto('/');
  await expect(page.getByLabel('Email')).toBeVisible({ timeout: 30_000 });
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect.poll(() => hashOf(page), { timeout: 30_000 }).toMatch(landing);
}

/**
 * A browser context of its own (its own session, beside others), signed in at the built-in provider; answers the page
 * and the bearer token its calls carry, for a spec that also calls the API as that person.
 */
export async function signedInContext(browser: Browser, email: string): Promise<{ page: Page; token: () => string }> {
  const context = await browser.newContext({ ignoreHTTPSErrors: true, acceptDownloads: true, viewport: { width: 1400, height: 1000 } });
  const page = await context.newPage();
  let token = '';
  page.on('request', (request) => {
    const auth = request.headers().authorization;
    if (auth && new URL(request.url()).pathname.startsWith('/api/')) token = auth;
  });
  await signIn(page, email);
  return { page, token: () => token };
}

/**
 * After 'Sign up' on the identity provider's page: confirms the e-mail by the link the outbox holds (decision 0251),
 * then signs the new account in from the page that says it is ready, as its person would.
 */
export async function confirmSignUp(page: Page, email: string, password: string): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Check your e-mail' })).toBeVisible({ timeout: 30_000 });
  let link = '';
  await expect.poll(async () => (link = (await outbox(page, email)).find((m) => m.subject?.startsWith('Finish creating your'))?.links[0]?.url ?? '')).toMatch(/\/oidc\/account\/confirm\?/);
  await page.goto(link.replace(/^https:\/\/[^/]+/, new URL(page.url()).origin));
  await page.getByRole('button', { name: 'Confirm and create my account' }).click();
  await expect(page.getByRole('heading', { name: 'Your account is ready' })).toBeVisible();
  await page.getByRole('link', { name: 'Sign in' }).click();
  await expect(page.getByLabel('Email')).toBeVisible({ timeout: 30_000 });
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

export const STORAGE_KEY = TAB_KEYS.session;
export const TAB_KEY = 'pos.session.tab';
export const KEY_DB = 'pos-session-keys';
export const KEY_STORE = 'keys';

export interface StaffSession {
  role?: string | null;
  userRole?: string | null;
  officeId?: number | null;
  officeName?: string | null;
  enrolled?: boolean;
  approved?: boolean;
  isMultipleOffices?: boolean;
  givenName?: string;
}

export function staffState(s: StaffSession): Record<string, unknown> {
  return {
    authenticated: true,
    identity: { givenName: s.givenName ?? 'Olivia', familyName: 'Admin', emails: ['office.admin@demo.test'], objectId: 'e2e' },
    enrolled: s.enrolled ?? true,
    approved: s.approved ?? true,
    officeId: s.officeId === undefined ? 1 : s.officeId,
    officeName: s.officeName === undefined ? 'Bright Smiles Dental' : s.officeName,
    role: s.role === undefined ? 'admin' : s.role,
    // What a real sign-in reads for the office (Users_GetUserInfo): the role's template of permissions.
    permissions: s.officeId === null || s.role === null ? [] : rolePermissions(s.role ?? 'admin'),
    userRole: s.userRole ?? null,
    isMultipleOffices: s.isMultipleOffices ?? true,
    userInfoLoaded: true,
  };
}

export function borrowerState(appId: number): Record<string, unknown> {
  return { borrowerAuthenticated: true, borrowerAppId: appId, borrowerToken: 'e2e-not-a-real-token' };
}

/**
 * Seals `state` into this tab's storage on the app's origin (`origin`, or the test's baseURL, after any redirect to
 * https). It does so on a page that is not the app (the contract document), so no app code runs meanwhile and
 * writes its own session. Then navigate with `openApp`, which loads the app afresh so it reads the session at start.
 */
export async function seedSession(page: Page, state: Record<string, unknown>, origin = ''): Promise<void> {
  await page.goto(`${origin}/api/openapi.json`);
  await page.evaluate(
    async ({ state, names }) => {
      const tab = sessionStorage.getItem(names.TAB_KEY) ?? crypto.randomUUID();
      sessionStorage.setItem(names.TAB_KEY, tab);
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const request = indexedDB.open(names.KEY_DB, 1);
        request.onupgradeneeded = () => request.result.createObjectStore(names.KEY_STORE);
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      const key = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
      await new Promise<void>((resolve, reject) => {
        const request = db.transaction(names.KEY_STORE, 'readwrite').objectStore(names.KEY_STORE).put({ key, seenAt: Date.now() }, tab);
        request.onsuccess = () => resolve();
        request.onerror = () => reject(request.error);
      });
      const iv = crypto.getRandomValues(new Uint8Array(12));
      const cipher = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, key, new TextEncoder().encode(JSON.stringify(state))));
      const all = new Uint8Array(iv.length + cipher.length);
      all.set(iv);
      all.set(cipher, iv.length);
      let binary = '';
      for (const byte of all) binary += String.fromCharCode(byte);
      sessionStorage.setItem(names.STORAGE_KEY, 'v1.' + btoa(binary));
    },
    { state, names: { STORAGE_KEY, TAB_KEY, KEY_DB, KEY_STORE } },
  );
}

/** A full load of `#<path>` (a hash change alone would keep the running app and its session). */
export async function openApp(page: Page, path: string, origin = ''): Promise<void> {
  await page.goto('about:blank');
  await page.goto(`${origin}/#${path}`);
}
