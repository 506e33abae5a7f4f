/**
 * The platform admin's Background Jobs (issue 38; decision 0262), in Chromium against the real server and the lender
 * service beside it: the demo's funding request that gave up while its lender was down is found by its state, tried
 * again, and done; the application's log says who sent it off again. Other roles have no such page.
 */
import { expect, test } from '@playwright/test';
import { hashOf } from './support/borrower.ts';
import { menuItem, tableRow } from './support/navigation.ts';
import { signIn } from './support/session.ts';

test.use({ ignoreHTTPSErrors: true });

test('the platform admin finds the funding request that gave up, tries it again, and it is done', async ({ page }) => {
  await signIn(page, 'admin@demo.test', /^\/admin\/apps/);
  await menuItem(page, 'Background Jobs');
  await expect.poll(() => hashOf(page)).toBe('/admin/jobs');
  await expect(page.getByRole('heading', { name: 'Background Jobs' })).toBeVisible();

  await page.getByRole('button', { name: 'Filter' }).click();
  await page.getByLabel('State').selectOption({ label: 'Gave up' });
  await page.getByRole('button', { name: 'Apply' }).click();
  const given = tableRow(page, 'Funding request to the lender');
  await expect(given).toHaveCount(1);
  await expect(given).toContainText('Gave up');
  await expect(given).toContainText('12 of 12');
  await expect(given).toContainText('the lender answered 503 Service Unavailable');
  const appId = (await given.getByRole('link').first().textContent())!.trim();

  await given.getByRole('button', { name: 'Try again' }).click();
  const dialog = page.getByRole('dialog', { name: 'Try this job again?' });
  await expect(dialog).toContainText('no money moves twice');
  await dialog.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByText(/^Job \d+ runs again now\.$/)).toBeVisible();
  // It left the jobs that gave up: it waits, runs or is done, with five more attempts.
  await expect(given).toHaveCount(0);

  // The filters stay open after Apply.
  await page.getByLabel('App ID').fill(appId);
  await page.getByLabel('State').selectOption({ label: 'Done' });
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(tableRow(page, 'Funding request to the lender')).toContainText('13 of 17', { timeout: 15_000 });

  await tableRow(page, 'Funding request to the lender').getByRole('link', { name: appId }).click();
  await expect.poll(() => hashOf(page)).toBe(`/app/${appId}`);
});

test('no other role has the page or its menu item', async ({ page }) => {
  await signIn(page, 'office.admin@demo.test');
  await expect(page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Background Jobs' })).toHaveCount(0);
});
