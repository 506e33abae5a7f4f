/**
 * Reports (issue 40, items 1 and 4), in Chromium against the real server: an office admin opens Reports from the menu,
 * reads last month's funnel rolled up over her organization's two locations and opens the applications behind one of
 * its steps, adds the locations up one by one, checks the loans funded against the Funded Apps list of the same days,
 * narrows the approvals to one lender and downloads the funnel as CSV. A support member has neither the menu items nor
 * the pages of Reports and the funding tracker; a platform admin narrows the funding tracker to one location, its list
 * following. (An office admin follows a loan on the tracker in after-signature.spec.ts.)
 */
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { menuItem } from './support/navigation.ts';
import { signIn } from './support/session.ts';

test.use({ ignoreHTTPSErrors: true });

const ready = (page: Page) => expect(page.locator('main [data-screen="report"][data-ready]')).toBeVisible();
const section = (page: Page, name: string) => page.getByRole('region', { name, exact: true });

async function applyFilters(page: Page, choose: (filters: ReturnType<Page['locator']>) => Promise<unknown>) {
  const filters = page.locator('#report-filters');
  await choose(filters);
  await filters.getByRole('button', { name: 'Apply' }).click();
  await ready(page);
}

test("an office admin reads last month's financing, checks it against the list, narrows it to a lender and downloads it", async ({ page }) => {
  await signIn(page, 'office.admin@demo.test');
  await menuItem(page, 'Reports');
  await ready(page);
  await applyFilters(page, (f) => f.getByLabel('Period').selectOption({ label: 'Last month' }));

  // The funnel: a chart with its table, each step as many as reached it.
  const funnel = section(page, 'Funnel');
  await expect(funnel.locator('[data-report-chart] svg')).toBeVisible();
  const counts = await funnel.locator('tbody tr td:nth-child(2)').allTextContents();
  expect(counts).toHaveLength(7);
  const numbers = counts.map((c) => Number(c.replace(/,/g, '')));
  expect(numbers[0]).toBeGreaterThan(0);
  expect([...numbers].sort((a, b) => b - a)).toEqual(numbers);
  await expect(funnel.locator('[data-report-summary]')).toContainText(`Of ${counts[0]} applications started from`);

  // Her two offices are locations of one organization: the report rolls them up, and a step's number opens the
  // applications behind it at both, as many as it says. Back, the report keeps its period.
  await expect(page.locator('#filter-officeId option:checked')).toHaveText('All');
  const offers = funnel.locator('tbody tr').filter({ hasText: 'Pre-qualified with offers' });
  await offers.getByRole('link', { name: counts[3]! }).click();
  await expect(page.getByRole('heading', { name: /^Pre-qualified with offers: applications started from \S+ to \S+$/ })).toBeVisible();
  await expect(page.getByText(new RegExp(`^${counts[3]} records? · Page`))).toBeVisible();
  await expect(page.getByRole('columnheader', { name: 'Location' })).toBeVisible();
  await page.goBack();
  await ready(page);
  await expect(page.locator('#filter-period')).toHaveValue('lastMonth');

  // Each location alone adds up to the whole.
  const started = async (location: string) => {
    await applyFilters(page, (f) => f.getByLabel('Location').selectOption({ label: location }));
    return Number((await funnel.locator('tbody tr td:nth-child(2)').first().textContent())!.replace(/,/g, ''));
  };
  const lakeside = await started('Lakeside Family Dental');
  const bright = await started('Bright Smiles Dental');
  expect(bright + lakeside).toBe(numbers[0]);

  // The loans funded at the office signed into equal its Funded Apps list of the same days.
  const summary = (await section(page, 'Financed volume').locator('[data-report-summary]').textContent())!;
  const [, funded, from, to] = /^(\d+) loans? funded from (\S+) to (\S+):/.exec(summary)!;
  await menuItem(page, 'Funded Apps');
  await page.getByRole('button', { name: 'Filter' }).click();
  await page.getByLabel('From').fill(from!);
  await page.getByLabel('To').fill(to!);
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByText(new RegExp(`^${funded} records? · Page`))).toBeVisible();
  await page.goBack();
  await ready(page);

  // One lender: the approvals show its row alone.
  await applyFilters(page, (f) => f.getByLabel('Lender').selectOption({ index: 1 }));
  const lender = await page.locator('#filter-lenderId option:checked').textContent();
  const approvals = section(page, 'Approvals by lender');
  await expect(approvals.locator('tbody tr')).toHaveCount(1);
  await expect(approvals.locator('tbody tr')).toContainText(lender!);

  // The funnel as CSV, with the page's filters.
  const [download] = await Promise.all([page.waitForEvent('download'), section(page, 'Funnel').getByRole('button', { name: 'Download CSV' }).click()]);
  expect(download.suggestedFilename()).toMatch(/^report-funnel-office-\d+-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = readFileSync((await download.path())!, 'utf8').replace(/^\uFEFF/, '').split('\r\n');
  expect(csv[0]).toBe('Step,Applications,Kept from the step before (%),Of those started (%)');
  expect(csv[1]).toMatch(/^Started \(link sent or in the office\),\d+,,$/);

  // Days the wrong way round: the server's words at the field, the days typed kept.
  const filters = page.locator('#report-filters');
  await filters.getByLabel('From').fill('02/01/2026');
  await filters.getByLabel('To').fill('01/01/2026');
  await filters.getByRole('button', { name: 'Apply' }).click();
  await expect(filters.getByText("'To' must be on or after 'From'.")).toBeVisible();
  await expect(filters.getByLabel('To')).toHaveAttribute('aria-invalid', 'true');
  await expect(filters.getByLabel('From')).toHaveValue('02/01/2026');
});

test('a support member has neither Reports nor the funding tracker', async ({ page }) => {
  await signIn(page, 'office.support@demo.test');
  const menu = page.getByRole('navigation', { name: 'Main menu' });
  await expect(menu.getByRole('link', { name: 'Home', exact: true })).toBeVisible();
  for (const [item, path] of [['Reports', '/#/reports'], ['Funding tracker', '/#/funding']] as const) {
    await expect(menu.getByRole('link', { name: item, exact: true })).toHaveCount(0);
    await page.goto(path);
    await expect(page.getByText('You are not authorized to view this page.')).toBeVisible();
  }
});

test("a platform admin reads the funding tracker across offices, then one location's, its list following", async ({ page }) => {
  await signIn(page, 'admin@demo.test');
  await menuItem(page, 'Funding tracker');
  await ready(page);
  const money = section(page, 'Where the money is');
  await expect(money.locator('[data-report-summary]')).toContainText(/^Across every office on /);
  const list = page.locator('main [data-screen="table"]');
  await expect(list.locator('tbody tr').first()).toBeVisible();
  const offices = new Set((await list.locator('tbody tr td:nth-child(3)').allTextContents()).map((name) => name.trim()));
  expect(offices.size).toBeGreaterThan(1);
  await applyFilters(page, (f) => f.getByLabel('Location').selectOption({ label: 'Bright Smiles Dental' }));
  await expect(money.locator('[data-report-summary]')).toContainText(/^(Deposits go to your verified bank account|Your bank account is not verified)/);
  await expect(list.locator('tbody tr td:nth-child(3)').filter({ hasNotText: 'Bright Smiles Dental' })).toHaveCount(0);
  await expect(list.locator('tbody tr').first()).toBeVisible();
});
