/**
 * Addresses the route table does not know. Every route of the table, as every visitor, is opened by the crawl
 * (crawl.spec.ts), which checks that each ends where spec §6 sends that visitor.
 */
import { expect, test } from '@playwright/test';
import { openApp, signIn } from './support/session.ts';
import { hashOf } from './support/borrower.ts';
import { routesFile } from './support/routes.ts';

test.use({ ignoreHTTPSErrors: true });

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

test('a redirect followed by another to the same page goes on: a link to the root while the root redirects', async ({ page }) => {
  await signIn(page, 'office.admin@demo.test', /^\/home$/);
  // The root sends an office user home. The moment it has, and before the app draws home, the person opens the root
  // again: the second redirect must still happen (it once left a blank page at the root).
  await page.evaluate(() => {
    const replace = history.replaceState.bind(history);
    history.replaceState = (state: unknown, unused: string, url?: string | URL | null) => {
      replace(state, unused, url);
      if (String(url ?? '').endsWith('#/home') && !(window as unknown as { again?: boolean }).again) {
        (window as unknown as { again?: boolean }).again = true;
        // As the browser tells of a change of address: the root again, at once.
        replace(null, '', '#/');
        window.dispatchEvent(new PopStateEvent('popstate', { state: null }));
      }
    };
    window.location.hash = '/';
  });
  await expect.poll(() => page.evaluate(() => (window as unknown as { again?: boolean }).again)).toBe(true);
  await expect.poll(() => hashOf(page)).toBe('/home');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
});
