/**
 * Review and approval of offices, and bank verification by micro-deposits, in Chromium against the real server
 * (issue 15, parts 3 and 4; decisions 0150-0154). The platform admin opens the review queue and the pending demo
 * office's file (read only: other specs rely on Cedar Park Orthodontics staying Submitted), then approves one office
 * and declines another, each with a reason. Both offices are new: two people sign up on the identity provider's page
 * and enroll through the API with their own tokens. The declined office's admin sees why; the approved office's admin
 * may start applications and verifies the bank account with the two amounts of the sandbox's 'bank statement'
 * e-mail, read from the demo outbox (one wrong pair first).
 */
import { expect, test, type Browser, type Page } from '@playwright/test';
import { hashOf, outbox } from './support/borrower.ts';
import { menuItem, tableRow } from './support/navigation.ts';
import { confirmSignUp, DEMO_PASSWORD, signIn } from './support/session.ts';

test.use({ ignoreHTTPSErrors: true });
test.describe.configure({ mode: 'serial', timeout: 180_000 });

const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n', 'latin1');

interface NewOffice {
  email: string;
  name: string;
  officeId: number;
}

/** A new person signs up on the identity provider's page, confirms the e-mail and lands on the enrollment; answers their access token. */
async function signUp(page: Page, email: string): Promise<string> {
  await page.goto('/');
  await page.getByRole('link', { name: 'Sign up' }).click();
  await page.getByLabel('First name').fill('Avery');
  await page.getByLabel('Last name').fill('Founder');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(DEMO_PASSWORD);
  await page.getByLabel('Confirm password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign up' }).click();
  const call = page.waitForRequest((request) => request.url().includes('/api/') && Boolean(request.headers().authorization), { timeout: 30_000 });
  await confirmSignUp(page, email, DEMO_PASSWORD);
  const token = (await call).headers().authorization!;
  await expect.poll(() => hashOf(page), { timeout: 30_000 }).toMatch(/^\/enroll/);
  return token;
}

/** Enrolls and submits an office through the API as the person signed up in `page` (the wizard is another spec's). */
async function enrollThroughApi(page: Page, token: string, name: string): Promise<number> {
  const origin = new URL(page.url()).origin;
  const headers = { authorization: token };
  const send = async (method: 'post' | 'put', path: string, options: Record<string, unknown>) => {
    const response = await page.request[method](`${origin}${path}`, { headers, ...options });
    expect(response.status(), `${path}: ${await response.text()}`).toBeLessThan(300);
    return response.status() === 204 ? undefined : response.json();
  };
  const office = await send('post', '/api/Office/UpsertOffice', {
    data: {
      id: 0, name, legalName: `${name} PLLC`, phone: '(512) 555-0142', timeZone: 'CT', category: 'Dental', businessType: 'LLC', taxId: '74-1234567',
      address: { streetAddress: '1100 Congress Ave', city: 'Austin', state: 'TX', zipCode: '78701' },
      bankAccountType: 0, bankName: 'Hill Country Bank', routingNumber: '021000021', accountNumber: '000123454321',
    },
  });
  const officeId = office.id as number;
  const [owner] = await send('post', '/api/Office/UpsertOwners', {
    data: {
      officeId,
      owners: [{
        firstName: 'Avery', lastName: 'Founder', email: 'avery@founder.example', mobilePhone: '(512) 555-0143', dob: '03/14/1980', ssn: '123-45-6789',
        ownership: 100, address: { streetAddress: '9 Hillside Dr', city: 'Austin', state: 'TX', zipCode: '78704' }, isPrimary: true,
      }],
    },
  });
  for (const model of [{ officeId, fileType: 'W9' }, { officeId, fileType: 'VoidedCheck' }, { officeId, fileType: 'PhotoId', isPhotoId: true, ownerId: owner.id }]) {
    await send('post', '/api/Office/UploadDoc', { multipart: { model: JSON.stringify(model), file: { name: `${model.fileType}.pdf`, mimeType: 'application/pdf', buffer: PDF } } });
  }
  await send('put', `/api/Office/SubmitOffice/${officeId}`, {});
  return officeId;
}

async function newOffice(browser: Browser, who: string): Promise<NewOffice> {
  const tag = `${who}-${Date.now().toString(36)}`;
  const email = `${tag}@founder.example`;
  const name = `${who === 'approve' ? 'Sunny Hills' : 'Rocky Creek'} Dental ${tag.slice(-5)}`;
  const context = await browser.newContext({ ignoreHTTPSErrors: true });
  const page = await context.newPage();
  const officeId = await enrollThroughApi(page, await signUp(page, email), name);
  await context.close();
  return { email, name, officeId };
}

/**
 * The side menu widens under the pointer, over the page: point at it first, so the click lands where the item then
 * is, and leave it after, so it narrows again.
 */
const row = tableRow;
const field = (page: Page, label: string) => page.locator('main [data-screen="detail"]').getByText(label, { exact: true }).locator('xpath=..');

/** On the office's file: a decision with its reason, through the dialog that requires one. */
async function decide(page: Page, button: string, reason: string, office: NewOffice, words: string): Promise<void> {
  await page.getByRole('button', { name: button, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: `${button}: ${office.name}` });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: button, exact: true }).click();
  await expect(dialog.getByText('This field is required.')).toBeVisible();
  await dialog.getByLabel('Reason').fill(reason);
  await dialog.getByRole('button', { name: button, exact: true }).dblclick();
  await expect(page.getByText(`${office.name} is now ${words}.`).first()).toBeVisible();
  await expect(dialog).toBeHidden();
}

let approved: NewOffice;
let declined: NewOffice;

test.beforeAll(async ({ browser }) => {
  approved = await newOffice(browser, 'approve');
  declined = await newOffice(browser, 'decline');
});

test('the platform admin reviews the queue and the pending demo office, approves one office and declines another, with reasons', async ({ page }) => {
  await signIn(page, 'admin@demo.test', /^\/admin\/apps/);
  await expect(page.getByRole('heading', { name: 'Active Apps' })).toBeVisible();
  await menuItem(page, 'Office Review');
  await expect.poll(() => hashOf(page)).toBe('/admin/offices/review');
  await expect(page.getByRole('heading', { name: 'Office Review' })).toBeVisible();
  await expect(row(page, 'Cedar Park Orthodontics')).toContainText('Submitted');
  await expect(row(page, 'Harbor View Medical Group')).toContainText('Under review');
  await expect(row(page, approved.name)).toContainText('Submitted');
  await expect(row(page, 'Bright Smiles Dental')).toHaveCount(0);

  // The pending demo office's full file, looked at only.
  await row(page, 'Cedar Park Orthodontics').getByRole('link', { name: 'Cedar Park Orthodontics' }).click();
  await expect(page.getByRole('heading', { name: /^Cedar Park Orthodontics \(#\d+\)$/ })).toBeVisible();
  await expect(field(page, 'Status')).toContainText('Submitted');
  for (const button of ['Start review', 'Approve', 'Decline', 'On hold']) await expect(page.getByRole('button', { name: button, exact: true })).toBeVisible();
  for (const button of ['Watch list', 'Terminate']) await expect(page.getByRole('button', { name: button, exact: true })).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Owners' })).toBeVisible();
  await expect(field(page, 'SSN')).toContainText(/•••-••-\d{4}/);
  await expect(field(page, 'Account number')).toContainText(/^Account number••••\d{4}$/);
  await expect(field(page, 'Verification')).toContainText('Not verified');
  await expect(row(page, 'The office submitted its enrollment.')).toContainText('Submitted');

  // Approve a new office: its file shows the documents, the reason is required, a double click acts once.
  await page.goto(`/#/admin/offices/${approved.officeId}`);
  await expect(page.getByRole('heading', { name: `${approved.name} (#${approved.officeId})` })).toBeVisible();
  await expect(row(page, 'W9.pdf')).toBeVisible();
  const download = page.waitForEvent('download');
  await row(page, 'W9.pdf').getByRole('button', { name: 'Download' }).click();
  expect((await download).suggestedFilename()).toBe('W9.pdf');
  await decide(page, 'Approve', 'Licenses, owners and bank documents checked.', approved, 'Approved');
  await expect(field(page, 'Status')).toContainText('Approved');
  await expect(field(page, 'Reason')).toContainText('Licenses, owners and bank documents checked.');
  await expect(page.getByRole('button', { name: 'Approve', exact: true })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Watch list', exact: true })).toBeVisible();
  await expect(row(page, 'Licenses, owners and bank documents checked.')).toHaveCount(1);
  await expect(row(page, 'Licenses, owners and bank documents checked.')).toContainText('Dana Whitfield');
  const approvalMail = (await outbox(page, approved.email)).filter((m) => m.body.includes('is now: Approved.'));
  expect(approvalMail).toHaveLength(1);

  // Decline another, from the queue.
  await menuItem(page, 'Office Review');
  await row(page, declined.name).getByRole('button', { name: 'Open file' }).click();
  await decide(page, 'Decline', 'The state license number could not be confirmed.', declined, 'Declined');
  await expect(field(page, 'Status')).toContainText('Declined');
  await expect(page.getByRole('button', { name: 'Start review', exact: true })).toBeVisible();
  await menuItem(page, 'Office Review');
  await expect(row(page, declined.name)).toHaveCount(0);
});

test('the approved office starts applications and verifies its bank account with the deposits of the bank statement', async ({ page }) => {
  await signIn(page, approved.email, /^\/home$/);
  await expect(page.getByRole('button', { name: 'New Application' })).toBeEnabled();
  await menuItem(page, 'Bank Account');
  await expect.poll(() => hashOf(page)).toBe('/settings/bank');
  await expect(field(page, 'Status')).toContainText('Not verified');
  await expect(field(page, 'Account number')).toContainText('••••4321');

  await page.getByRole('button', { name: 'Send the two deposits' }).dblclick();
  await expect(page.getByText('Two deposits are on their way to the account ending in 4321.').first()).toBeVisible();
  await expect(field(page, 'Status')).toContainText('Waiting for the two deposit amounts');
  let statement = '';
  await expect.poll(async () => (statement = (await outbox(page, approved.email)).find((m) => m.body.includes('Sandbox bank statement'))?.body ?? '')).not.toBe('');
  expect((await outbox(page, approved.email)).filter((m) => m.body.includes('Sandbox bank statement'))).toHaveLength(1);
  const amounts = [...statement.matchAll(/\$(0\.\d\d)/g)].map((m) => m[1]!);
  expect(amounts).toHaveLength(2);

  const first = page.getByLabel('First deposit');
  const second = page.getByLabel('Second deposit');
  // Two amounts that are neither deposit: four candidates leave at least two.
  const wrong = ['0.01', '0.02', '0.03', '0.04'].filter((a) => !amounts.includes(a));
  await first.fill(wrong[0]!);
  await second.fill(wrong[1]!);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByText('The amounts do not match. 2 tries left.')).toBeVisible();
  await expect(field(page, 'Tries left')).toContainText('2');

  await first.fill(amounts[1]!);
  await second.fill(amounts[0]!);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByText('Your bank account is verified.').first()).toBeVisible();
  await expect(field(page, 'Status')).toContainText('Verified');
  await expect(page.getByLabel('First deposit')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Send the two deposits' })).toHaveCount(0);
});

test('the declined office is told why on its home, and cannot start applications', async ({ page }) => {
  await signIn(page, declined.email, /^\/home$/);
  await expect(page.getByText('The state license number could not be confirmed.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'New Application' })).toBeDisabled();
});
