/**
 * Settings → Integrations (issue 39, item 2), in Chromium against the real server: an office admin adds a webhook
 * endpoint that a receiver of this test listens on, copies its secret from the one dialog that shows it, sends a test
 * event, reads its delivery in the log and sends it again; the receiver gets it signed with that secret, twice with
 * the same id. Other office roles have no such tab.
 */
import { expect, test } from '@playwright/test';
import { hashOf } from './support/borrower.ts';
import { menuItem, tableRow } from './support/navigation.ts';
import { addWebhook, deleteWebhook } from './support/integrations.ts';
import { signIn } from './support/session.ts';
import { signedBy, startReceiver } from '../tests/support/receiver.ts';

test.use({ ignoreHTTPSErrors: true });

test('an office admin connects its practice software: a signed test event, its delivery in the log, sent again', async ({ page }) => {
  const receiver = await startReceiver();
  try {
    await signIn(page, 'office.admin@demo.test');
    await page.goto('/#/settings/integrations');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const add = page.getByRole('dialog', { name: 'Add a webhook endpoint' });
    await add.getByLabel('Address').fill('ftp://example.com/hook');
    await add.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(add.getByText('The address must start with https://.')).toBeVisible();
    await expect(add.getByRole('checkbox', { name: 'Loan agreement signed' })).toBeChecked();
    await add.getByRole('button', { name: 'Cancel' }).click();
    const secret = await addWebhook(page, receiver.url, { description: 'Front desk software', events: ['Application link opened'] });

    const row = tableRow(page, receiver.url);
    await expect(row).toContainText('Active');
    await expect(row).toContainText('5 chosen');
    await row.getByRole('button', { name: 'Send test' }).click();
    // The endpoint hears the whole office: what colleagues' patients do arrives too.
    const isTest = (post: (typeof receiver.received)[number]) => (JSON.parse(post.body) as { type: string }).type === 'webhook.test';
    const [post] = await receiver.waitFor(1, 15_000, isTest);
    expect(signedBy(secret, post!)).toBe(true);
    expect(JSON.parse(post!.body)).toMatchObject({ type: 'webhook.test', id: post!.headers['webhook-id'] });

    await row.getByRole('button', { name: 'Deliveries' }).click();
    await expect.poll(() => hashOf(page)).toMatch(/^\/settings\/integrations\/\d+$/);
    const delivery = tableRow(page, 'Test event');
    await expect(delivery).toContainText('Delivered');
    await expect(delivery).toContainText('200');
    await delivery.getByRole('button', { name: 'Send again' }).click();
    const posts = await receiver.waitFor(2, 15_000, isTest);
    expect(posts[1]!.headers['webhook-id']).toBe(post!.headers['webhook-id']);
    await deleteWebhook(page, receiver.url);
  } finally {
    await receiver.close();
  }
});

test('office support has no Integrations tab', async ({ page }) => {
  await signIn(page, 'office.support@demo.test');
  await page.goto('/#/settings');
  await expect(page.getByRole('tab', { name: 'Alerts' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Integrations' })).toHaveCount(0);
});

test("an office's open Home follows what happens without a reload: a colleague's new application shows by itself", async ({ page }) => {
  await signIn(page, 'office.admin@demo.test');
  const call = page.waitForRequest((request) => new URL(request.url()).pathname === '/api/App/GetOfficeApps' && Boolean(request.headers().authorization));
  await page.goto('/#/home');
  const token = (await call).headers().authorization!;
  await expect(page.locator('main [data-screen="table"] tbody tr').first()).toBeVisible();
  // The header names the office the person works in: 'Bright Smiles Dental #100'.
  const officeId = Number(/#(\d+)$/.exec((await page.getByRole('banner').getByText(/ #\d+$/).innerText()).trim())![1]);
  const loads = await page.evaluate(() => performance.getEntriesByType('navigation').length);

  // Someone else in the office sends a link: the API, as another desk would.
  const lastName = `Livewell${[...crypto.getRandomValues(new Uint8Array(5))].map((n) => String.fromCharCode(97 + (n % 26))).join('')}`;
  const sent = await page.request.post(new URL('/api/App/SendApp', page.url()).href, {
    headers: { authorization: token, 'idempotency-key': crypto.randomUUID() },
    data: { officeId, firstName: 'Lena', lastName, email: `lena.${lastName.toLowerCase()}@gmail.com`, amount: 2500 },
  });
  expect(sent.status(), await sent.text()).toBe(200);
  await expect(tableRow(page, lastName)).toBeVisible({ timeout: 5_000 });
  expect(await page.evaluate(() => performance.getEntriesByType('navigation').length)).toBe(loads);
});

test("an office admin gives its practice software a key: shown once, used, its last use shown, revoked", async ({ page }) => {
  await signIn(page, 'office.admin@demo.test');
  await page.goto('/#/settings');
  await page.getByRole('tab', { name: 'API Keys' }).click();
  await page.getByRole('button', { name: 'Make a key' }).click();
  const add = page.getByRole('dialog', { name: 'Make an API key' });
  const name = `Front desk ${Date.now()}`;
  await add.getByLabel('Name').fill(name);
  await add.getByRole('button', { name: 'Make the key' }).click();
  const shown = page.getByRole('dialog', { name: 'The API key' });
  await expect(shown).toContainText('it is not shown again');
  const key = /pk_[A-Za-z0-9_-]{43}/.exec(await shown.innerText())![0];
  await shown.getByRole('button', { name: 'I have copied it' }).click();
  const row = tableRow(page, name);
  await expect(row).toContainText(key.slice(0, 10));
  await expect(row).toContainText('Active');
  await expect(row).not.toContainText(key.slice(10));

  // The practice software lists the office's applications with it, and nothing else.
  const officeId = Number(/#(\d+)$/.exec((await page.getByRole('banner').getByText(/ #\d+$/).innerText()).trim())![1]);
  const list = () => page.request.put(new URL('/api/App/GetOfficeApps', page.url()).href, { headers: { 'x-api-key': key }, data: { officeId } });
  expect((await list()).status()).toBe(200);
  await page.goto('/#/settings/api-keys');
  await expect(row.locator('td').nth(4)).not.toBeEmpty();

  await row.getByRole('button', { name: 'Revoke' }).click();
  await page.getByRole('dialog', { name: 'Revoke this key?' }).getByRole('button', { name: 'Revoke' }).click();
  await expect(row).toContainText('Revoked');
  await expect(row.getByRole('button', { name: 'Revoke' })).toHaveCount(0);
  expect((await list()).status()).toBe(401);
});

test("a platform admin's endpoint hears every office, and the admin's open list follows what offices do", async ({ page }) => {
  const receiver = await startReceiver();
  try {
    await signIn(page, 'admin@demo.test');
    await menuItem(page, 'Integrations');
    await expect.poll(() => hashOf(page)).toBe('/admin/integrations');
    await expect(page.getByText("Software of the platform's own")).toBeVisible();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const add = page.getByRole('dialog', { name: 'Add a webhook endpoint' });
    await add.getByLabel('Address').fill(receiver.url);
    await add.getByLabel('Description').fill('Data warehouse');
    await add.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByRole('dialog', { name: 'The signing secret' }).getByRole('button', { name: 'I have copied it' }).click();
    await expect(tableRow(page, receiver.url)).toContainText('Active');

    // The list of every office's applications, open; an office sends a link, as its desk would, through the API.
    await menuItem(page, 'Active Apps');
    await expect(page.locator('main [data-screen="table"] tbody tr').first()).toBeVisible();
    const loads = await page.evaluate(() => performance.getEntriesByType('navigation').length);
    const office = await page.context().browser()!.newContext({ ignoreHTTPSErrors: true });
    const desk = await office.newPage();
    await signIn(desk, 'office.admin@demo.test');
    const call = desk.waitForRequest((request) => new URL(request.url()).pathname.startsWith('/api/') && Boolean(request.headers().authorization));
    await desk.goto('/#/home');
    const token = (await call).headers().authorization!;
    const lastName = `Platformwatch${[...crypto.getRandomValues(new Uint8Array(5))].map((n) => String.fromCharCode(97 + (n % 26))).join('')}`;
    const sent = await desk.request.post(new URL('/api/App/SendApp', desk.url()).href, {
      headers: { authorization: token, 'idempotency-key': crypto.randomUUID() },
      data: { officeId: 100, firstName: 'Pia', lastName, email: `pia.${lastName.toLowerCase()}@gmail.com`, amount: 2100 },
    });
    expect(sent.status(), await sent.text()).toBe(200);
    await office.close();
    await expect(tableRow(page, lastName)).toBeVisible({ timeout: 5_000 });
    expect(await page.evaluate(() => performance.getEntriesByType('navigation').length)).toBe(loads);
    // The platform's endpoint heard it, from an office it does not belong to.
    const created = await receiver.waitFor(1, 15_000, (post) => (JSON.parse(post.body) as { type: string; data: { amount?: number } }).type === 'application.created');
    expect(JSON.parse(created[0]!.body)).toMatchObject({ officeId: 100 });
    await deleteWebhook(page, receiver.url, '/#/admin/integrations');
  } finally {
    await receiver.close();
  }
});
