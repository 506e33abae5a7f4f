/**
 * Addresses the route table does not know. Every route of the table, as every visitor, is opened by the crawl
 * (crawl.spec.ts), which checks that each ends where spec §6 sends that visitor.
 */
import { expect, test } from '@playwright/test';
import { openApp } from './support/session.ts';
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
