/**
 * Screen kinds with data: the table (server paging over the paged result, sorting, the filter button, status chips,
 * currency/APR/date formats), the kanban, and the borrower sign-in with the one-time passcode entry. Without real
 * sign-in the server answers these lists 401, so the answers are given by intercepting the calls with the
 * contract's shapes — the requests the engine sends are checked too.
 */
import { expect, test } from '@playwright/test';
import { samples } from '../codegen/generated/samples.ts';
import { openApp, seedSession, staffState } from './support/session.ts';

test.use({ ignoreHTTPSErrors: true });

const CHIPS = ['OffersAvailable', 'Expired', 'ActionRequired', 'Completed', 'Refund', 'Inactive', 'Funded', 'NoOffers', 'AwaitingLenders'];

function row(id: number, chip: string) {
  return {
    id, officeId: 1, officeName: 'Bright Smiles Dental', firstName: `First${id}`, lastName: `Last${id}`, amount: 1234.5 * id, approvedAmount: id % 2 ? null : 1000,
    serviceDate: '03/04/2031', stage: 'NotApplicable', statusChip: chip, statusText: null, contractSubStatus: 'NotApplicable', decisionStatus: null,
    lenderCode: 'gsky', lenderName: 'GreenSky', referenceCode: null, isExpired: false, expirationDateUtc: null, showViewOffersButton: id === 1,
    showSignDocsButton: false, showFinalizeButton: false, showResubmitButton: false, showAddReferenceCodeButton: false, showRefundButton: false,
    showSubmitToLendersButton: false, createdAtUtc: '2031-01-01T00:00:00Z', updatedAtUtc: '2031-01-02T00:00:00Z',
  };
}

test('the table pages and sorts on the server, filters, and shows chips and formats', async ({ page }) => {
  const bodies: Array<Record<string, unknown>> = [];
  await page.route('**/api/App/GetOfficeApps', async (route) => {
    const body = route.request().postDataJSON() as { page?: number; pageSize?: number };
    bodies.push(body as Record<string, unknown>);
    const pageNo = body.page ?? 1;
    const results = pageNo === 1 ? CHIPS.map((chip, i) => row(i + 1, chip)) : [row(99, 'Funded')];
    await route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ currentPage: pageNo, nextPage: pageNo === 1 ? 2 : null, pageSize: 25, rowCount: 26, results }) });
  });
  await seedSession(page, staffState({}));
  await openApp(page, '/home');
  const table = page.getByRole('table');
  await expect(table.getByRole('link', { name: '1', exact: true })).toBeVisible();
  expect(bodies[0]).toMatchObject({ officeId: 1, page: 1, pageSize: 25, sortBy: 'updatedAtUtc', sortDesc: true });
  await expect(table.getByText('$1,234.50')).toBeVisible();
  await expect(table.getByText('03/04/2031').first()).toBeVisible();
  for (const label of ['Offers Available', 'Expired', 'Action Required', 'Completed', 'Refund', 'Inactive', 'Funded', 'No Offers', 'Waiting for Lenders']) {
    await expect(table.getByText(label, { exact: true })).toBeVisible();
  }
  await expect(table.locator('[data-chip="offers-available"]')).toHaveCSS('background-color', 'rgb(26, 206, 72)');
  await expect(table.locator('[data-chip="no-offers"]')).toHaveCount(2);
  await expect(table.getByRole('button', { name: 'View Offers' })).toHaveCount(1);
  await expect(page.getByText('26 records · Page 1 of 2')).toBeVisible();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText('Page 2 of 2')).toBeVisible();
  expect(bodies.at(-1)).toMatchObject({ page: 2 });
  await table.getByRole('button', { name: /Amount/ }).click();
  await expect.poll(() => bodies.at(-1)).toMatchObject({ page: 1, sortBy: 'amount', sortDesc: false });
  await expect(table.getByRole('columnheader', { name: /Amount/ })).toHaveAttribute('aria-sort', 'ascending');
  await page.getByRole('button', { name: 'Filter' }).click();
  await page.getByLabel('From').fill('01/01/2031');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect.poll(() => bodies.at(-1)).toMatchObject({ fromDate: '01/01/2031', page: 1 });
  await expect(page.getByRole('button', { name: 'Filter (1)' })).toBeVisible();
  await page.screenshot({ path: 'test-results/screenshots/table-1400.png', fullPage: true });
});

test("a table wider than its place scrolls sideways with its buttons kept at the right edge, but not on a phone, where they would cover the rest", async ({ page }) => {
  await page.route('**/api/App/GetOfficeApps', (route) =>
    route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ currentPage: 1, nextPage: null, pageSize: 25, rowCount: 1, results: [{ ...row(1, 'OffersAvailable'), statusText: 'Waiting for the borrower to choose an offer' }] }) }),
  );
  await page.setViewportSize({ width: 900, height: 800 });
  await seedSession(page, staffState({}));
  await openApp(page, '/home');
  const region = page.getByRole('region', { name: 'Active Applications' });
  const button = region.getByRole('button', { name: 'View Offers' });
  await expect(button).toBeVisible();
  /** Whether the button is inside the region's box and nothing lies over its middle. */
  const inView = async () => {
    const [box, place] = [(await button.boundingBox())!, (await region.boundingBox())!];
    const top = await page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.closest('button')?.textContent, { x: box.x + box.width / 2, y: box.y + box.height / 2 });
    return box.x >= place.x && box.x + box.width <= place.x + place.width && top === 'View Offers';
  };
  expect(await inView()).toBe(true);
  await region.evaluate((element) => (element.scrollLeft = element.scrollWidth));
  expect(await inView()).toBe(true);
  await region.evaluate((element) => (element.scrollLeft = 0));
  expect(await inView()).toBe(true);
  await page.setViewportSize({ width: 375, height: 800 });
  await expect(region.locator('td.cell-pinned')).toHaveCSS('position', 'static');
});

test('on a phone a table scrolls inside its own box: the page does not pan sideways, not even to a header for screen readers only', async ({ page }) => {
  // Manage Users: a table wider than a phone whose last column, the rows' buttons, has its header for screen readers only.
  await page.route('**/api/Users/GetUsers/*', (route) => route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(samples.Users_GetUsers) }));
  await page.setViewportSize({ width: 375, height: 800 });
  await seedSession(page, staffState({}));
  await openApp(page, '/users');
  const region = page.getByRole('region', { name: 'Manage Users' });
  await expect(region.getByRole('columnheader', { name: 'Actions' })).toBeAttached();
  expect(await region.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(true);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(375);
});

test("a page's part with nothing to show takes no room: an approved office's Home starts with its heading", async ({ page }) => {
  await page.route('**/api/Office/GetOfficeInfo/*', (route) =>
    route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ ...(samples.Office_GetOfficeInfo as object), id: 1, enrollmentStatus: 'Approved', isApproved: true, isEnrollmentCompleted: true }) }),
  );
  await page.route('**/api/App/GetOfficeApps', (route) => route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ currentPage: 1, nextPage: null, pageSize: 25, rowCount: 0, results: [] }) }));
  await seedSession(page, staffState({}));
  await openApp(page, '/home');
  const heading = page.getByRole('heading', { level: 1, name: 'Active Applications' });
  await expect(heading).toBeVisible();
  await expect(page.getByText('No records found.')).toBeVisible();
  const main = page.locator('main');
  const start = await main.evaluate((element) => element.getBoundingClientRect().top + parseFloat(getComputedStyle(element).paddingTop));
  expect((await heading.boundingBox())!.y).toBe(start);
});

test('the kanban shows a lane per stage with its cards', async ({ page }) => {
  await page.route('**/api/App/GetOfficeAppsByStage', (route) =>
    route.fulfill({
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify([
        { stage: 'NotApplicable', count: 2, results: [row(1, 'OffersAvailable'), row(2, 'NoOffers')] },
        { stage: 'ReadyToFinalize', count: 1, results: [row(3, 'ActionRequired')] },
      ]),
    }),
  );
  await seedSession(page, staffState({}));
  await openApp(page, '/kanban');
  await expect(page.getByRole('region', { name: 'Started' })).toContainText('First1 Last1 #1');
  await expect(page.getByRole('region', { name: 'Ready to finalize' })).toContainText('Action Required');
  await expect(page.getByRole('link', { name: 'First3 Last3 #3' })).toHaveAttribute('href', '#/app/3');
});

test('the platform admin kanban asks each lane on its own across offices, with the full count of the lane', async ({ page }) => {
  const asked: string[] = [];
  await page.route('**/api/admin/Apps/GetApps', async (route) => {
    const body = route.request().postDataJSON() as { stages?: string[]; pageSize?: number };
    const stage = body.stages?.[0] ?? '';
    asked.push(stage);
    const results = stage === 'ReadyToFinalize' ? [{ ...row(7, 'ActionRequired'), stage }] : [];
    await route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ currentPage: 1, nextPage: null, pageSize: body.pageSize, rowCount: stage === 'ReadyToFinalize' ? 137 : 0, results }) });
  });
  await seedSession(page, staffState({ role: 'admin', userRole: 'df.admin', officeId: null, officeName: null }));
  await openApp(page, '/admin/apps/kanban');
  const lane = page.getByRole('region', { name: 'Ready to finalize' });
  await expect(lane).toContainText('First7 Last7 #7');
  await expect(lane).toContainText('137');
  expect([...asked].sort()).toEqual(['Finalized', 'NeedsAttention', 'NotApplicable', 'OfferSelected', 'ReadyToFinalize', 'Review', 'SigningRequired', 'SubmittedForFunding']);
});

test('borrower sign-in: a passcode by text, the passcode entry, then the borrower page', async ({ page }) => {
  await page.route('**/api/Otp/SendOtp', (route) =>
    route.fulfill({
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify({ challengeId: '3f2b1c4d-0000-4000-8000-000000000001', channel: 'Sms', destination: '(***) ***-0142', expiresAtUtc: '2031-01-01T00:10:00Z', resendAfterSeconds: 30 }),
    }),
  );
  let verified: unknown;
  await page.route('**/api/Otp/VerifyOtp', async (route) => {
    verified = route.request().postDataJSON();
    await route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ token: 'borrower-token', expiresAtUtc: '2031-01-01T01:00:00Z', appId: 5 }) });
  });
  await openApp(page, '/app/borrower/5');
  await expect(page).toHaveURL(/#\/app\/auth\/5$/);
  // Without the office's link nobody may have a passcode texted to this borrower (decision 0173).
  await expect(page.getByText('Open the link you received by text or e-mail to continue your application.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Text me a passcode' })).toHaveCount(0);
  // A spent link keeps its token in the address: the passcode buttons send it.
  let sent: unknown;
  page.on('request', (r) => {
    if (r.url().includes('/api/Otp/SendOtp')) sent = r.postDataJSON();
  });
  const spent = 'a'.repeat(43);
  await page.evaluate((k) => (window.location.hash = `/app/auth/5?expired=1&k=${k}`), spent);
  await page.getByRole('button', { name: 'Text me a passcode' }).click();
  const dialog = page.getByRole('dialog', { name: 'Enter your passcode' });
  await expect(dialog.getByText('We sent a 6-digit passcode to (***) ***-0142.')).toBeVisible();
  expect(sent).toEqual({ appId: 5, linkToken: spent, channel: 'Sms' });
  await dialog.getByRole('textbox', { name: 'Passcode digit 1 of 6' }).click();
  await page.keyboard.type('123456');
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/#\/app\/borrower\/5$/);
  expect(verified).toEqual({ challengeId: '3f2b1c4d-0000-4000-8000-000000000001', code: '123456' });
  await expect(page.getByRole('heading', { level: 1, name: 'Your application' })).toBeVisible();
});
