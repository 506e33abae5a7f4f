/**
 * An office takes on a lender it does not offer yet, in Chromium against the real server: the office admin applies to
 * it ('My Lenders' → 'Apply to lenders', Office_CheckNewLenders and Office_ApplyLender), the platform admin marks the
 * office enrolled with it (admin office lenders, AdminOffices_UpsertLenders), and the office's 'My Lenders' shows the
 * link complete: from then on its applications ask that lender too. This is how a ninth lender file reaches an office
 * (README, Lenders).
 */
import { expect, test, type Page } from '@playwright/test';
import { hashOf } from './support/borrower.ts';
import { signIn } from './support/session.ts';

test.use({ ignoreHTTPSErrors: true });
test.describe.configure({ timeout: 120_000 });

const myLender = (page: Page, name: string) => page.locator('main [data-screen="table"] tbody tr').filter({ hasText: name });

test('the office applies to a lender it does not offer, the platform admin marks it enrolled, the office sees it complete', async ({ page, browser }) => {
  await signIn(page, 'office.admin@demo.test', /^\/home$/);
  await page.goto('/#/lenders');
  await expect(page.getByRole('heading', { name: 'My Lenders' })).toBeVisible();
  await expect(myLender(page, 'ClearGage')).toHaveCount(0);
  await page.getByRole('button', { name: 'Apply to lenders' }).click();
  await expect.poll(() => hashOf(page)).toBe('/lenders/apply');
  const apply = page.getByRole('button', { name: 'Apply', exact: true });
  await expect(apply).toBeDisabled();
  await page.getByRole('checkbox', { name: 'Select ClearGage' }).check();
  await apply.click();
  await expect(page.getByText('Your office applied to the selected lenders. Their status is on My Lenders.')).toBeVisible();
  await expect.poll(() => hashOf(page)).toBe('/lenders');
  await expect(myLender(page, 'ClearGage')).toContainText('Applied');

  const admin = await (await browser.newContext({ ignoreHTTPSErrors: true })).newPage();
  await signIn(admin, 'admin@demo.test', /^\/admin\/apps/);
  await admin.goto('/#/admin/offices/lenders?officeId=100');
  const row = myLender(admin, 'ClearGage');
  await expect(row).toContainText('OfficeSubmitted');
  await row.getByRole('button', { name: 'Mark enrolled' }).click();
  await expect(admin.getByText("ClearGage now answers this office's applications.")).toBeVisible();
  await expect(row).toContainText('Completed');
  await expect(row.getByRole('button', { name: 'Mark enrolled' })).toHaveCount(0);
  await admin.context().close();

  await page.reload();
  await expect(myLender(page, 'ClearGage')).toContainText('Enrolled');
  // Nothing is left to apply to but Covered Care.
  await page.goto('/#/lenders/apply');
  await expect(page.locator('main [data-screen="table"] tbody tr')).toHaveText([/Covered Care/]);
});
