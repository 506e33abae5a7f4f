/**
 * The office's public landing page (#/landing/{code}): a borrower comes back through it — the passcode goes to the
 * contact the office has for them (Otp_SendOtp with the office and a mobile phone, docs/decisions/0067) — or a patient
 * starts an application alone (App_StartApp, decision 0217), the way a New York office's patients apply.
 */
import { expect, test } from '@playwright/test';
import { enterPasscode, hashOf } from './support/borrower.ts';
import { signIn } from './support/session.ts';

test.use({ ignoreHTTPSErrors: true });


test('the landing page: a visitor asks the office for a link, or continues an application with a passcode', async ({ page, browser }) => {
  const digits = String((Date.now() * 13) % 10_000_000).padStart(7, '0');
  const phone = `(737) ${digits.slice(0, 3)}-${digits.slice(3)}`;

  // The office sends a link (real sign-in, real SendApp).
  await signIn(page, 'office.admin@demo.test', /^\/home$/);
  await page.getByRole('button', { name: 'New Application' }).click();
  await page.getByRole('button', { name: 'Text a link' }).click();
  const popup = page.getByRole('dialog', { name: 'Text an application link' });
  await popup.getByLabel('First Name').fill('Robin');
  await popup.getByLabel('Last Name').fill('Lee');
  await popup.getByLabel('Mobile Phone').pressSequentially(phone.replace(/\D/g, ''));
  await popup.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByRole('dialog', { name: 'Application link sent' })).toBeVisible();
  const origin = new URL(page.url()).origin;

  const context = await browser.newContext({ ignoreHTTPSErrors: true });
  const visitor = await context.newPage();
  await visitor.goto(`${origin}/#/landing/brightsmiles`);
  await expect(visitor.getByRole('heading', { level: 1, name: 'Bright Smiles Dental' })).toBeVisible({ timeout: 20_000 });
  await expect(visitor.getByText(/Apply here in about a minute, or ask Bright Smiles Dental to text or e-mail you a link/)).toBeVisible();
  await expect(visitor.getByRole('button', { name: 'Apply on this device' })).toHaveCount(0);
  // On a phone, a tap on the office's number calls it.
  await expect(visitor.getByRole('link', { name: '(512) 555-0142' })).toHaveAttribute('href', 'tel:+15125550142');
  // Its heading names what the list of lenders holds: the one column's header is there for screen readers only, with
  // no empty band above the names.
  const lenders = visitor.locator('[data-screen="table"]', { has: visitor.getByRole('heading', { name: 'Financing from' }) });
  await expect(lenders.getByRole('row').nth(1)).toHaveText('Ally Lending');
  await expect(lenders.getByRole('columnheader', { name: 'Lender' })).toHaveCount(1);
  expect((await lenders.locator('thead').boundingBox())?.height).toBeLessThanOrEqual(1);

  await expect(visitor.getByRole('heading', { name: 'Continue your application' })).toBeVisible();
  await visitor.getByLabel('Mobile Phone').pressSequentially(phone.replace(/\D/g, ''));
  await visitor.getByRole('button', { name: 'Send me a passcode' }).click();
  // A typed contact gets the same answer whether or not the office has it: the dialog does not claim a passcode went.
  await expect(visitor.getByRole('dialog', { name: 'Enter your passcode' })).toContainText(`If (***) ***-${phone.slice(-4)} is the contact the office has for you, we sent it a 6-digit passcode.`);
  await enterPasscode(visitor, phone);
  // Signed in for that application, the borrower goes where it is: the pre-qualification form, prefilled.
  await expect.poll(() => hashOf(visitor), { timeout: 20_000 }).toMatch(/^\/app\/prequal\/\d+$/);
  await expect(visitor.getByLabel('First Name')).toHaveValue('Robin');
  await context.close();
});

test("a patient starts alone from the office's page: Apply now opens the start form, which asks for their consent to be contacted", async ({ browser, baseURL }) => {
  // The whole start (passcode, the application opening) is walked in send-app.spec.ts on the office's device.
  const context = await browser.newContext({ ignoreHTTPSErrors: true });
  const patient = await context.newPage();
  await patient.goto(`${baseURL}/#/landing/empiredental`);
  await expect(patient.getByRole('heading', { level: 1, name: 'Empire State Dental Care' })).toBeVisible({ timeout: 20_000 });
  await patient.getByRole('button', { name: 'Apply now' }).click();
  await expect.poll(() => hashOf(patient)).toBe('/landing/empiredental/start');
  await expect(patient.getByRole('heading', { name: 'Apply for financing' })).toBeVisible();
  await patient.getByLabel('First Name').fill('Maya');
  await patient.getByLabel('Last Name').fill('Goldberg');
  await patient.getByRole('textbox', { name: 'Mobile Phone' }).pressSequentially('5185550177');
  await patient.getByLabel('Estimated Treatment Amount').fill('3200');
  await patient.getByRole('button', { name: 'Send me a passcode' }).click();
  await expect(patient.locator('[data-error-for="root_agreeToContact"]')).toHaveText('This field is required.');
  await context.close();
});
