/**
 * Permissions per action (issue 40, decision 0279), in Chromium against the real server: an office admin gives a sales
 * colleague 'Request refunds' on Manage Users, and the colleague's Funded Apps offer Refund; the admin withdraws it, and
 * the colleague's next page no longer offers it, while the API refuses the refund itself. With a refund approval amount
 * set on Settings, a support member's refund above it waits, and the admin approves it on Refunds (maker–checker).
 */
import { expect, test, type Page } from '@playwright/test';
import { menuItem } from './support/navigation.ts';
import { signedInContext } from './support/session.ts';

test.use({ ignoreHTTPSErrors: true });

async function setRefunds(admin: Page, on: boolean): Promise<void> {
  await menuItem(admin, 'Manage Users');
  const row = admin.getByRole('row').filter({ hasText: 'sales@demo.test' });
  await row.getByRole('button', { name: 'Permissions' }).click();
  const dialog = admin.getByRole('dialog', { name: /^What .+ may do$/ });
  const box = dialog.getByRole('checkbox', { name: 'Request refunds' });
  await expect(box).toBeVisible();
  await box.setChecked(on);
  const saved = admin.waitForResponse((r) => r.url().endsWith('/api/Users/SetPermissions'));
  await dialog.getByRole('button', { name: 'Save' }).click();
  expect((await saved).status()).toBe(200);
  await expect(admin.getByText(/permissions were saved\.$/)).toBeVisible();
}

const refundButtons = (page: Page) => page.locator('main').getByRole('button', { name: 'Refund', exact: true });

test("an office admin gives and withdraws 'Request refunds': the colleague's Refund follows, and the API refuses once withdrawn", async ({ browser }) => {
  test.setTimeout(120_000);
  const admin = await signedInContext(browser, 'office.admin@demo.test');
  const sales = await signedInContext(browser, 'sales@demo.test');

  await menuItem(sales.page, 'Funded Apps');
  await expect(sales.page.locator('main [data-screen="table"][data-ready]')).toBeVisible();
  await expect(refundButtons(sales.page)).toHaveCount(0);

  // The colleague's next answer from the server carries what they may do now (a reload asks at once).
  await setRefunds(admin.page, true);
  await sales.page.reload();
  await expect(refundButtons(sales.page).first()).toBeVisible();
  const appId = (await sales.page.getByRole('row').filter({ has: sales.page.getByRole('button', { name: 'Refund', exact: true }) }).first().getByRole('link').first().innerText()).trim();

  await setRefunds(admin.page, false);
  await sales.page.reload();
  await expect(sales.page.locator('main [data-screen="table"][data-ready]')).toBeVisible();
  await expect(refundButtons(sales.page)).toHaveCount(0);
  const origin = new URL(sales.page.url()).origin;
  const refused = await sales.page.request.post(`${origin}/api/App/SubmitRefund`, {
    headers: { authorization: sales.token(), 'idempotency-key': crypto.randomUUID() },
    data: { appId: Number(appId), amount: 1, reason: 'Trying without the permission' },
  });
  expect(refused.status()).toBe(403);
});

async function setApprovalAmount(admin: Page, amount: string): Promise<void> {
  await menuItem(admin, 'Settings');
  await admin.getByRole('tab', { name: 'Refunds' }).click();
  const field = admin.getByLabel('Second approval above');
  await field.fill(amount);
  const saved = admin.waitForResponse((r) => r.url().endsWith('/api/Office/SetRefundApproval'));
  await admin.getByRole('button', { name: 'Save' }).click();
  expect((await saved).status()).toBe(200);
}

test('a refund above the office\'s amount waits for a second person, who approves it on Refunds', async ({ browser }) => {
  test.setTimeout(120_000);
  const admin = await signedInContext(browser, 'office.admin@demo.test');
  const support = await signedInContext(browser, 'office.support@demo.test');
  await setApprovalAmount(admin.page, '50');
  await expect(admin.page.getByText("Refunds above $50.00 now need a second person's approval.")).toBeVisible();
  try {
    // The support member asks for $60: it waits, and they cannot approve it themselves.
    await menuItem(support.page, 'Funded Apps');
    const row = support.page.getByRole('row').filter({ has: support.page.getByRole('button', { name: 'Refund', exact: true }) }).first();
    await row.getByRole('button', { name: 'Refund', exact: true }).click();
    const dialog = support.page.getByRole('dialog', { name: /^Request a refund for application #\d+$/ });
    await dialog.getByLabel('Refund Amount').fill('60.00');
    await dialog.getByLabel('Reason').fill('Whitening not done');
    await dialog.getByRole('button', { name: 'Request Refund' }).click();
    await expect(support.page.getByText(/was submitted; it is above your office's approval amount, so it waits for a second person's approval/)).toBeVisible();
    await menuItem(support.page, 'Refunds');
    const asked = support.page.getByRole('row').filter({ hasText: 'Whitening not done' });
    await expect(asked).toContainText('Awaiting a second approval');
    await expect(asked.getByRole('button', { name: 'Approve' })).toHaveCount(0);

    // The admin approves it.
    await menuItem(admin.page, 'Refunds');
    const waiting = admin.page.getByRole('row').filter({ hasText: 'Whitening not done' });
    await waiting.getByRole('button', { name: 'Approve' }).click();
    await expect(admin.page.getByText(/^Refund #\d+ is approved: the lender is told\.$/)).toBeVisible();
    await expect(waiting).toContainText('Approved');
    await expect(waiting.getByRole('button', { name: 'Approve' })).toHaveCount(0);
  } finally {
    await setApprovalAmount(admin.page, '');
  }
});
