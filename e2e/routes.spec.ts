/**
 * The route table, opened in Chromium for every visitor kind (issue 3 "Done when"): generated from screens/ and the
 * role enumerations, each route × visitor expects the page, the 403, or the redirect spec §6 prescribes.
 *
 * Staff roles sign in for real, with the demo accounts, through src/app/auth/ and the built-in identity provider.
 */
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { borrowerState, openApp, seedSession, signIn } from './support/session.ts';
import { expectation, routeTable, routesFile, samplePath, visitors, type Visitor } from './support/routes.ts';

test.use({ ignoreHTTPSErrors: true });

const table = routeTable();

/** Does this page sign out when it loads (its onLoad actions say so)? */
function signsOut(screen: string | undefined): boolean {
  if (!screen) return false;
  const doc = JSON.parse(readFileSync(`screens/pages/${screen}.json`, 'utf8')) as { onLoad?: Array<{ type: string }> };
  return (doc.onLoad ?? []).some((a) => a.type === 'signOut');
}

async function hashOf(page: Page): Promise<string> {
  return decodeURI(new URL(page.url()).hash.slice(1));
}

for (const visitor of visitors()) {
  test.describe(`routes for ${visitor.name}`, () => {
    test.describe.configure({ mode: 'serial' });
    let page: Page;

    test.beforeAll(async ({ browser }) => {
      page = await browser.newPage({ ignoreHTTPSErrors: true });
      // The sign-in page starts a redirect to the identity provider; stopping it keeps the app (and the address it
      // reached) in the tab, so the next route is opened from the same running app.
      if (visitor.kind !== 'staff') await page.route(/\/oidc\//, (route) => route.abort());
      if (visitor.kind === 'borrower') await seedSession(page, borrowerState(visitor.borrowerAppId!));
      if (visitor.kind === 'staff') await signIn(page, visitor.email!);
      await openApp(page, '/locator');
      await expect(page.locator('main')).toBeVisible();
    });

    test.afterAll(async () => {
      // A page left in the provider's sign-out redirects does not close promptly, and a close still pending when the
      // next group starts fails that group's first test: leave the redirects for a blank page, then close it all.
      await page?.goto('about:blank').catch(() => undefined);
      await page?.context().close();
    });

    // A screen that signs out on load (the logout route) goes last: it ends the session.
    const ordered = [...table.filter((r) => !signsOut(r.screen)), ...table.filter((r) => signsOut(r.screen))];
    for (const route of ordered) {
      const path = samplePath(route.path);
      const expected = expectation(route, visitor, path);
      if (visitor.kind === 'staff' && signsOut(route.screen) && expected.kind === 'page') {
        test(`${route.name} (${path}) signs out`, async () => {
          await page.evaluate((p) => (window.location.hash = p), path).catch(() => undefined);
          // Signed out, the app sends the visitor to sign-in, which hands over to the provider's page at once.
          await page.waitForURL((url) => url.hash.startsWith('#/auth?p=') || url.pathname.includes('/oidc/'), { timeout: 30_000 });
        });
        continue;
      }
      const label =
        expected.kind === 'redirect' ? `redirects to ${expected.to}` : expected.kind === 'forbidden' ? 'answers 403' : expected.kind === 'leaves' ? 'sends the visitor on' : 'shows the page';
      test(`${route.name} (${path}) ${label}`, async () => {
        // A hash change: the running app navigates, as a link would.
        await page.evaluate((p) => (window.location.hash = p), path);
        if (expected.kind === 'redirect') {
          await expect.poll(() => hashOf(page), { timeout: 10_000 }).toBe(decodeURI(expected.to));
          await expect(page.locator('main')).toBeVisible();
          return;
        }
        if (route.redirect || expected.kind === 'leaves') {
          // A route that is a redirect itself (the root): it leaves for another page.
          await expect.poll(() => hashOf(page), { timeout: 10_000 }).not.toBe(path);
          return;
        }
        await expect(page.locator('main')).toBeVisible();
        // The page may word its state in its query (a lender's e-sign page adds ?outcome=…): the path is what stays.
        await expect.poll(async () => (await hashOf(page)).split('?')[0]).toBe(path);
        const forbidden = page.getByText(routesFile.forbidden.message);
        if (expected.kind === 'forbidden') await expect(forbidden).toBeVisible();
        else {
          await expect(page.locator('main h1').first()).toBeVisible({ timeout: 10_000 });
          await expect(forbidden).toHaveCount(0);
        }
      });
    }
  });
}

test.describe('unknown routes', () => {
  test('show the 404 page with a link home', async ({ page }) => {
    await openApp(page, '/no/such/page');
    await expect(page.getByRole('heading', { name: routesFile.notFound.message })).toBeVisible();
    await expect(page.getByRole('link', { name: routesFile.notFound.link })).toBeVisible();
  });

  test('a single unknown segment lands on the /:state route, which shows 404 when it is no sign-in answer', async ({ page }) => {
    await openApp(page, '/not-a-page');
    await expect(page.getByRole('heading', { name: routesFile.notFound.message })).toBeVisible();
  });
});
