/**
 * After the signature (issue 6 "Done when"), in Chromium with real sign-in through the built-in provider:
 * an application of the demo data that is ready to finalize → the office finalizes it (its funding tracker: requested)
 * → its lender funds it (by callback, seen on the open detail; the tracker: on its way, the deposit expected) → the
 * platform admin marks it funded on Office Funding and the funding file downloads → the office sees it under Funded
 * Apps and in their CSV, and on the tracker deposited on the funded day, which it reconciles →
 * the office requests a partial refund, then a second one that would exceed the rest is refused with spec §5's
 * message (in the browser, and by the server) → the lender takes the refund back (Processing, by callback) → the
 * platform admin completes it.
 *
 * The office and the platform admin each have their own browser context (their own session), side by side.
 */
import { readFile } from 'node:fs/promises';
import { expect as baseExpect, test, type Download, type Page } from '@playwright/test';
import { signedInContext } from './support/session.ts';

test.use({ ignoreHTTPSErrors: true });
/** Calls go to a real server on a small machine: allow them more than the default 5 s. */
const expect = baseExpect.configure({ timeout: 15_000 });

const OFFICE = 'office.admin@demo.test';
const ADMIN = 'admin@demo.test';
const REFUND_EXCEEDS = 'Refund amount cannot exceed the original loan amount.';
const LOAN_EXCEEDS_SIGNED = 'Loan amount cannot exceed the amount the borrower signed for. A larger loan needs a new agreement.';

/** MM/dd/yyyy in the browser's (and this machine's) time zone. */
const usDate = (d: Date) => `${String(d.getMonth() + 1).padStart(2, '0')}/${String(d.getDate()).padStart(2, '0')}/${d.getFullYear()}`;

/** In-app navigation, as a menu link does; waits for the page titled `title` to show its data. */
async function open(page: Page, path: string, title: string): Promise<void> {
  await page.evaluate((p) => (window.location.hash = p), path);
  // A heading of any level: the office's home is a composite whose list is titled by its part (h2).
  await expect(page.locator('main').getByRole('heading', { name: title, exact: true }).first()).toBeVisible({ timeout: 15_000 });
  await expect(page.locator('main [data-screen][data-ready]').first()).toBeVisible({ timeout: 15_000 });
}

/**
 * Applies the table's filters (the filter button) and waits for the list to answer; `operation` null when the same
 * filters were asked before on this page, whose answer may come from the cache.
 */
async function filter(page: Page, operation: string | null, values: Record<string, string>, selects: Record<string, string> = {}): Promise<void> {
  const toggle = page.getByRole('button', { name: /^Filter/ });
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  const form = page.locator('#table-filters');
  for (const [label, value] of Object.entries(values)) await form.getByLabel(label, { exact: true }).fill(value);
  for (const [label, value] of Object.entries(selects)) await form.getByLabel(label, { exact: true }).selectOption({ label: value });
  const answered = operation && page.waitForResponse((r) => r.url().endsWith(`/${operation}`) && r.ok());
  await page.getByRole('button', { name: 'Apply' }).click();
  await answered;
}

async function text(download: Download): Promise<string> {
  return readFile(await download.path(), 'utf8');
}

/** '$1,600.00' or '1,600' → 1600 */
const money = (shown: string) => Number(shown.replace(/[$,\s]/g, ''));

test('finalize → fund and download the file → funded list and CSV → partial refund, refused excess → refund completed', async ({ browser }) => {
  test.setTimeout(150_000);
  const office = await signedInContext(browser, OFFICE);
  const admin = await signedInContext(browser, ADMIN);
  const { page } = office;

  // 1. The office finds an application ready to finalize (Home, filtered by stage) and finalizes it.
  await open(page, '/home', 'Active Applications');
  await filter(page, 'GetOfficeApps', {}, { Stage: 'Ready to finalize' });
  const row = page.getByRole('row').filter({ has: page.getByRole('button', { name: 'Finalize' }) }).first();
  await expect(row).toBeVisible();
  const appId = (await row.getByRole('link').first().innerText()).trim();
  expect(appId).toMatch(/^\d+$/);
  await row.getByRole('button', { name: 'Finalize' }).click();
  const finalize = page.getByRole('dialog', { name: `Finalize application #${appId}` });
  // The amount the borrower signed for binds: the dialog starts from it and refuses more (issue 19).
  await expect(finalize).toContainText(/signed for \$[\d,]+\.\d\d \(approved for \$[\d,]+\.\d\d\)/);
  const signed = money(/signed for (\$[\d,]+\.\d\d)/.exec(await finalize.innerText())![1]!);
  const loanField = finalize.getByLabel('Loan Amount');
  await expect.poll(async () => money(await loanField.inputValue())).toBe(signed);
  await loanField.fill(String(signed + 1));
  await finalize.getByRole('button', { name: 'Finalize' }).click();
  await expect(finalize.getByText(LOAN_EXCEEDS_SIGNED)).toBeVisible();
  const loan = Math.min(signed, 1234.56);
  await loanField.fill(loan.toFixed(2));
  const finalized = page.waitForResponse((r) => r.url().endsWith('/api/App/FinalizeApp'));
  await finalize.getByRole('button', { name: 'Finalize' }).click();
  expect((await finalized).status()).toBe(200);
  await expect(page.getByText(`Application #${appId} is finalized and submitted for funding.`)).toBeVisible();
  await expect(finalize).toBeHidden();

  // The funding tracker shows it requested today (the sandbox lender may have paid already: then on its way).
  await open(page, '/funding', 'Funding tracker');
  await expect(page.locator('#report-filters')).toHaveCount(0);
  await filter(page, 'GetTracker', { 'Applicant Name or ID': appId });
  const tracked = page.getByRole('row').filter({ has: page.getByRole('link', { name: appId, exact: true }) });
  await expect(tracked).toContainText(/Requested from the lender|On its way to you/);
  await expect(tracked).toContainText(usDate(new Date()));
  await open(page, '/home', 'Active Applications');

  // The funding status is shown to the office on the open detail view, and moves as it happens: the lender is asked to
  // fund the loan and tells by callback that it did; the payout to the office (the platform's) is then Processing.
  await filter(page, 'GetOfficeApps', { 'Applicant Name or ID': appId }, { Stage: 'All' });
  await page.getByRole('row').filter({ hasText: appId }).getByRole('button', { name: 'View' }).click();
  const detail = page.getByRole('dialog', { name: `Application #${appId}` });
  await expect(detail.getByText(/^Funded by .+: the payout to the office is on its way$/)).toBeVisible({ timeout: 30_000 });
  await expect(detail.getByText('Processing', { exact: true })).toBeVisible();
  await detail.getByRole('button', { name: 'Close the dialog' }).click();
  // On the tracker: on its way, the deposit expected the next business day.
  await open(page, '/funding', 'Funding tracker');
  await filter(page, null, { 'Applicant Name or ID': appId });
  await expect(tracked).toContainText('On its way to you');
  const expectedOn = /\d\d\/\d\d\/\d{4}/.exec((await tracked.getByRole('cell').nth(7).innerText()))![0];
  expect(new Date(expectedOn).getTime()).toBeGreaterThan(Date.now() - 86_400_000);

  // 2. The platform admin marks it funded on Office Funding; the funding file downloads.
  const ap = admin.page;
  await open(ap, '/admin/apps/funding', 'Office Funding');
  await filter(ap, 'GetFundedApps', { 'Applicant Name or ID': appId });
  await ap.getByRole('checkbox', { name: `Select application ${appId}` }).check();
  await ap.getByRole('button', { name: 'Mark Funded' }).click();
  const confirm = ap.getByRole('dialog', { name: 'Mark applications funded' });
  await expect(confirm).toContainText('Applications to mark funded: 1.');
  // The funding date starts at today; the admin records the day the funds actually went out.
  const day = confirm.getByLabel('Funding Date');
  await expect(day).toHaveValue(usDate(new Date()));
  const fundedOn = usDate(new Date(Date.now() - 86_400_000));
  await day.clear();
  await day.pressSequentially(fundedOn.replace(/\D/g, ''));
  const fundingFile = ap.waitForEvent('download');
  await confirm.getByRole('button', { name: 'Mark Funded' }).click();
  const funding = await fundingFile;
  expect(funding.suggestedFilename()).toMatch(/^funding-\d{8}T\d{6}\.csv$/);
  const fundingCsv = await text(funding);
  expect(fundingCsv.split(/\r\n/).some((line) => line.startsWith(`${appId},`))).toBe(true);
  expect(fundingCsv).toContain(loan.toFixed(2));
  expect(fundingCsv).toContain(fundedOn);
  await expect(ap.getByText(`Applications marked funded on ${fundedOn}: 1. The funding file was downloaded.`)).toBeVisible();
  await expect(ap.getByRole('row').filter({ hasText: appId })).toHaveCount(0);

  // 3. The office sees it under Funded Apps, Completed, and in the CSV download.
  await open(page, '/logs/funded', 'Funded Apps');
  await filter(page, 'GetOfficeFundedApps', { 'Applicant Name or ID': appId });
  const funded = page.getByRole('row').filter({ has: page.getByRole('link', { name: appId, exact: true }) });
  await expect(funded).toContainText('Completed');
  await expect(funded).toContainText(fundedOn);
  await expect(funded).toContainText(`$${loan.toLocaleString('en-US', { minimumFractionDigits: 2 })}`);
  const officeFile = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download CSV' }).click();
  const officeCsv = await text(await officeFile);
  expect(officeCsv.split(/\r\n/).some((line) => line.startsWith(`${appId},`))).toBe(true);

  // The tracker: deposited on the funded day, beside the day it was expected; the office reconciles it with its statement.
  await open(page, '/funding', 'Funding tracker');
  await expect(page.getByRole('region', { name: 'Where the money is', exact: true })).toContainText('Deposits go to your verified bank account ending');
  await filter(page, null, { 'Applicant Name or ID': appId });
  await expect(tracked).toContainText('Deposited');
  await expect(tracked).toContainText(fundedOn);
  await expect(tracked).toContainText(expectedOn);
  await tracked.getByRole('button', { name: 'Mark reconciled' }).click();
  await expect(page.getByText(/^The deposit for .+ is marked reconciled\.$/)).toBeVisible();
  await expect(tracked).toContainText('Reconciled');
  await expect(tracked.getByRole('button', { name: 'Undo reconciled' })).toBeVisible();
  await open(page, '/logs/funded', 'Funded Apps');
  await filter(page, null, { 'Applicant Name or ID': appId });

  // 4. A partial refund, then one more than what is left: refused with the spec's message.
  const partial = 100.25;
  await funded.getByRole('button', { name: 'Refund' }).click();
  let refund = page.getByRole('dialog', { name: `Request a refund for application #${appId}` });
  await refund.getByLabel('Refund Amount').fill(partial.toFixed(2));
  await refund.getByLabel('Reason').fill('Treatment plan reduced');
  const submitted = page.waitForResponse((r) => r.url().endsWith('/api/App/SubmitRefund'));
  await refund.getByRole('button', { name: 'Request Refund' }).click();
  expect((await submitted).status()).toBe(200);
  await expect(page.getByText(/The refund request #\d+ of \$100\.25 was submitted\./)).toBeVisible();
  await expect(refund).toBeHidden();
  await expect(funded).toContainText('$100.25');

  await funded.getByRole('button', { name: 'Refund' }).click();
  refund = page.getByRole('dialog', { name: `Request a refund for application #${appId}` });
  await expect(refund).toContainText('refunds requested so far $100.25');
  const rest = Math.round((loan - partial) * 100) / 100;
  await refund.getByLabel('Refund Amount').fill((rest + 0.01).toFixed(2));
  await refund.getByLabel('Reason').fill('Refund the rest and a cent more');
  await refund.getByRole('button', { name: 'Request Refund' }).click();
  await expect(refund.getByText(REFUND_EXCEEDS)).toBeVisible();
  await refund.getByRole('button', { name: 'Cancel' }).click();
  // The server refuses it too (the browser's rule is a convenience), with the same words.
  const origin = new URL(page.url()).origin;
  const refused = await page.request.post(`${origin}/api/App/SubmitRefund`, {
    headers: { authorization: office.token(), 'idempotency-key': crypto.randomUUID() },
    data: { appId: Number(appId), amount: rest + 0.01, reason: 'Refund the rest and a cent more' },
  });
  expect(refused.status()).toBe(400);
  expect((await refused.json()).errors.amount).toEqual([REFUND_EXCEEDS]);

  // 5. The lender takes the refund back (told by its callback: Processing, on the platform admin's open list); the
  // platform admin completes it once the office is debited.
  await open(ap, '/admin/apps/refunds', 'Refunds');
  await filter(ap, 'GetRefunds', { 'Applicant Name or ID': appId });
  const refundRow = ap.getByRole('row').filter({ has: ap.getByRole('link', { name: appId, exact: true }) });
  await expect(refundRow.getByRole('cell', { name: 'Processing', exact: true }).first()).toBeVisible({ timeout: 30_000 });
  await refundRow.getByRole('button', { name: 'Update Status' }).click();
  const update = ap.getByRole('dialog', { name: /^Refund #\d+ of application/ });
  await expect(update.getByRole('combobox', { name: 'Status', exact: true })).toHaveValue('Completed');
  await update.getByRole('button', { name: 'Save' }).click();
  await expect(ap.getByText(/Refund #\d+ is now Completed\./)).toBeVisible();
  await expect(update).toBeHidden();
  await expect(refundRow.getByRole('cell', { name: 'Completed', exact: true }).first()).toBeVisible();
  await expect(refundRow.getByRole('button', { name: 'Update Status' })).toHaveCount(0);

  // The office's Refunds list shows it completed.
  await open(page, '/logs/refunds', 'Refunds');
  await filter(page, 'GetOfficeRefunds', { 'Applicant Name or ID': appId });
  await expect(page.getByRole('row').filter({ hasText: 'Treatment plan reduced' })).toContainText('Completed');
  await page.screenshot({ path: 'test-results/screenshots/after-signature-refunds.png', fullPage: true });

  // The application's detail (found by the header's search): 'View request' reads the refund request
  // (App_GetRefundRequest), its status in words.
  await open(page, `/search/${appId}`, `Search results for '${appId}'`);
  await page.getByRole('row').filter({ hasText: appId }).getByRole('button', { name: 'View' }).click();
  const summary = page.getByRole('dialog', { name: `Application #${appId}` });
  await summary.getByRole('button', { name: 'View request' }).click();
  const request = page.getByRole('dialog', { name: `Refund request of application #${appId}` });
  await expect(request).toContainText('Treatment plan reduced');
  await expect(request).toContainText('$100.25');
  // The refund and its ACH debit are both completed.
  await expect(request.getByText('Completed', { exact: true })).toHaveCount(2);
  await request.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(request).toBeHidden();
});
