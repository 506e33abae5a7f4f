import { expect, test, type Page } from '@playwright/test';
import { watchNetwork } from './support/network.ts';
import { borrowerState, DEMO_PASSWORD, openApp, seedSession } from './support/session.ts';

/**
 * Staff sign-in through the built-in OpenID provider with MSAL, in Chromium (issue 4 "Done when").
 * The server speaks https with its own self-signed certificate on the port of playwright.config.ts; plain
 * http there only redirects (and answers /api/health for the webServer check), so these tests accept the
 * local certificate (README "Trusting the local certificate" for a real browser).
 */
test.use({ ignoreHTTPSErrors: true });

/** Where each demo account lands after sign-in (spec §4 after-login routing). */
const LANDINGS: Array<[email: string, route: string]> = [
  ['admin@demo.test', '/admin/apps'],
  ['dfi@demo.test', '/admin/apps'],
  ['office.admin@demo.test', '/home'],
  ['office.support@demo.test', '/home'],
  ['tpa@demo.test', '/home'],
  ['sales@demo.test', '/home'],
  ['pending@demo.test', '/home'],
  ['newoffice@demo.test', '/enroll'],
  ['owner@demo.test', '/studio'],
];

async function signIn(page: Page, email: string, start = '/'): Promise<void> {
  await page.goto(start);
  // The app sends a visitor without a session to #/auth, which hands over to the provider's page.
  await expect(page.getByLabel('Email')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('link', { name: 'Forgot your password?' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Sign up' })).toBeVisible();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

const hashRoute = (page: Page) => new URL(page.url()).hash.replace(/^#/, '');

test.describe('staff sign-in through the built-in provider', () => {
  test('plain http redirects to the https origin, whose issuer is the MSAL authority', async ({ page, request }) => {
    const health = await request.get('/api/health');
    expect(await health.json()).toMatchObject({ status: 'ok' });
    const redirect = await request.get('/some/page', { maxRedirects: 0 });
    expect(redirect.status()).toBe(308);
    const origin = new URL(String(redirect.headers().location)).origin;
    expect(origin).toMatch(/^https:\/\//);
    const config = await (await request.get(`${origin}/auth-config.json`)).json();
    expect(config.authority).toBe(`${origin}/oidc`);
    await page.goto('/');
    await expect(page).toHaveURL(/^https:\/\//);
  });

  /**
   * Renewal and time-out run the same code for every account; what differs is the landing page's own calls, which a
   * renewal has to get along with. So each landing page is tried with them once, and every account signs in and lands.
   */
  const renewsOn = new Set<string>();
  for (const [email, route] of LANDINGS) {
    const renews = !renewsOn.has(route);
    renewsOn.add(route);
    test(`${email} signs in and lands on ${route}${renews ? ', renews silently, and is signed out when the session times out' : ''}`, async ({ page }) => {
      const network = watchNetwork(page);
      await page.clock.install();
      await signIn(page, email);
      await expect.poll(() => hashRoute(page), { timeout: 30_000 }).toBe(route);
      if (!renews) return;
      // The landing page's own calls finish first: a renewal still in flight when the page reloads would rotate the
      // refresh token in a response that the unloading page never stores (decision 0143).
      await network.quiet();

      // 17 minutes of (active) use: the 15-minute access token is past its expiry in the page's clock. The next call
      // renews it with the refresh token, without a sign-in page: a call the landing page still had to make (its
      // renewal then ends before the reload), or else the reloaded page's first one.
      const renewal = page.waitForResponse((r) => new URL(r.url()).pathname === '/oidc/token' && (r.request().postData() ?? '').includes('grant_type=refresh_token'));
      for (const step of ['06:00', '06:00', '05:00']) {
        await page.mouse.move(50 + step.length, 60);
        await page.clock.fastForward(step);
      }
      await network.quiet();
      await page.reload();
      expect((await renewal).status()).toBe(200);
      await expect.poll(() => hashRoute(page), { timeout: 30_000 }).toBe(route);
      await expect(page.getByLabel('Email')).toHaveCount(0);
      // The idle monitor starts once the page's code has loaded (a studio page loads the app again in its preview).
      await network.quiet();

      // 15 idle minutes, then the 30-second countdown: signed out, back at the provider's sign-in page.
      await page.clock.fastForward('15:00');
      await expect(page.getByRole('dialog', { name: 'Session Timeout' })).toBeVisible();
      await page.clock.fastForward(31_000);
      await expect(page.getByLabel('Email')).toBeVisible({ timeout: 30_000 });
    });
  }

  test('the provider page wears the brand of the web app it came from', async ({ page }) => {
    await page.goto('/?brand=care');
    await expect(page.getByLabel('Email')).toBeVisible({ timeout: 30_000 });
    await expect(page).toHaveTitle('Sign in · CarePay Financing');
    await expect(page.getByText('CarePay Financing, Inc.')).toBeVisible();
    await page.getByLabel('Email').fill('office.support@demo.test');
    await page.getByLabel('Password').fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => hashRoute(page), { timeout: 30_000 }).toBe('/home');
    await expect(page.getByText('CarePay Financing, Inc.')).toBeVisible();
  });

  test('a wrong password is refused on the provider page', async ({ page }) => {
    await page.goto('/');
    await page.getByLabel('Email').fill('sales@demo.test');
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert')).toHaveText('The email or password is not correct.');
  });

  test('goes back to the page asked for, stays signed in across a reload, and signs out', async ({ page }) => {
    await signIn(page, 'office.admin@demo.test', '/#/logs/funded');
    await expect.poll(() => hashRoute(page), { timeout: 30_000 }).toBe('/logs/funded');
    await page.reload();
    await expect.poll(() => hashRoute(page), { timeout: 30_000 }).toBe('/logs/funded');
    const token = await page.evaluate(() => Object.keys(sessionStorage).some((key) => key.includes('refreshtoken')));
    expect(token, 'MSAL holds a refresh token for silent renewal').toBe(true);

    await page.goto('/#/logout');
    // The provider ends its session and sends the browser back; a new sign-in is needed.
    await expect(page.getByLabel('Email')).toBeVisible({ timeout: 30_000 });
    // MSAL's tokens are gone with the rest of the session (what is stored now is only the new sign-in's return route).
    expect(await page.evaluate(() => Object.keys(sessionStorage).filter((key) => /refreshtoken|accesstoken|idtoken/i.test(key)))).toEqual([]);
  });

  test('a refresh token the provider refuses (already used, so it revoked the grant) leads to a new sign-in, not a stuck page', async ({ page }) => {
    const network = watchNetwork(page);
    await page.clock.install();
    await signIn(page, 'office.support@demo.test');
    await expect.poll(() => hashRoute(page), { timeout: 30_000 }).toBe('/home');
    await network.quiet();

    // Another party redeems the page's refresh token first: as when a page unloads while its renewal is in flight.
    const stored = await page.evaluate(() => {
      const key = Object.keys(sessionStorage).find((name) => name.includes('refreshtoken'));
      return key ? (JSON.parse(sessionStorage.getItem(key)!) as { secret: string; clientId: string }) : null;
    });
    expect(stored, 'MSAL keeps the refresh token in sessionStorage').not.toBeNull();
    const origin = new URL(page.url()).origin;
    const used = await page.request.post(`${origin}/oidc/token`, {
      form: { grant_type: 'refresh_token', refresh_token: stored!.secret, client_id: stored!.clientId },
    });
    expect(used.status()).toBe(200);

    // Listening before the clock moves: whichever call renews first, on this page or the reloaded one, is refused.
    const refused = page.waitForResponse((r) => new URL(r.url()).pathname === '/oidc/token' && (r.request().postData() ?? '').includes('grant_type=refresh_token'));
    const signedInAgain = page.waitForResponse((r) => new URL(r.url()).pathname === '/oidc/token' && (r.request().postData() ?? '').includes('grant_type=authorization_code'));
    for (const step of ['06:00', '06:00', '05:00']) {
      await page.mouse.move(60, 60);
      await page.clock.fastForward(step);
    }
    await page.reload();
    expect((await refused).status()).toBe(400);
    // The provider's own session still stands, so the new sign-in needs no password and comes back to the page.
    expect((await signedInAgain).status()).toBe(200);
    await expect.poll(() => hashRoute(page), { timeout: 30_000 }).toBe('/home');
  });

  test('times out after 15 idle minutes: the dialog counts 30 seconds down, Stay Logged In keeps the session, zero signs out', async ({ page }) => {
    await page.clock.install();
    await signIn(page, 'office.support@demo.test');
    await expect.poll(() => hashRoute(page), { timeout: 30_000 }).toBe('/home');

    await page.clock.fastForward('15:00');
    const dialog = page.getByRole('dialog', { name: 'Session Timeout' });
    await expect(dialog).toBeVisible();
    await page.clock.fastForward(5_000);
    // The page's clock keeps running in real time too; the exact countdown is unit-tested (tests/unit/auth-client.test.ts).
    await expect(dialog.getByTestId('session-timeout-seconds')).toHaveText(/^(1[5-9]|2[0-5])$/);
    await dialog.getByRole('button', { name: 'Stay Logged In' }).click();
    await expect(dialog).toBeHidden();

    await page.clock.fastForward('15:00');
    await expect(dialog).toBeVisible();
    await page.clock.fastForward(31_000);
    await expect(page.getByLabel('Email')).toBeVisible({ timeout: 30_000 });
  });
});

test.describe('session timeout for visitors who are not staff (spec §4)', () => {
  async function httpsOrigin(page: Page): Promise<string> {
    await page.goto('/api/openapi.json');
    return new URL(page.url()).origin;
  }

  test('a signed-in borrower goes back to borrower sign-in for the same application', async ({ page }) => {
    await page.clock.install();
    const origin = await httpsOrigin(page);
    await seedSession(page, borrowerState(4242), origin);
    // A page that makes no call with the (seeded, not real) borrower token.
    await openApp(page, '/no-such-page', origin);
    await expect(page.getByText('This page could not be found')).toBeVisible({ timeout: 20_000 });

    await page.clock.fastForward('15:00');
    await expect(page.getByRole('dialog', { name: 'Session Timeout' })).toBeVisible();
    await page.clock.fastForward(31_000);
    await expect.poll(() => hashRoute(page), { timeout: 20_000 }).toBe('/app/auth/4242');
  });

  test('an anonymous visitor goes to the company home page', async ({ page }) => {
    await page.clock.install();
    const origin = await httpsOrigin(page);
    const home = (await (await page.request.get(`${origin}/auth-config.json`)).json()) as { companyHomeUrl: string };
    await openApp(page, '/landing/brightsmiles', origin);
    await expect(page.getByRole('heading', { level: 1, name: 'Bright Smiles Dental' })).toBeVisible({ timeout: 20_000 });

    await page.clock.fastForward('15:00');
    await expect(page.getByRole('dialog', { name: 'Session Timeout' })).toBeVisible();
    const left = page.waitForRequest((request) => request.isNavigationRequest() && request.url() === home.companyHomeUrl);
    await page.clock.fastForward(31_000);
    await left;
    // The company home of the demo is the portal itself, which hands a visitor over to the provider's sign-in page.
    // Ending the test there, not in the middle of those redirects, lets the context close cleanly.
    await expect(page.getByLabel('Email')).toBeVisible({ timeout: 30_000 });
    await page.goto('about:blank');
  });
});
