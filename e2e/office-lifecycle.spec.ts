/**
 * A new practice onboards itself, in Chromium against the real server (issue 15): a person signs up from 'Create an
 * account', completes the six enrollment steps (two owners, the documents), stops and comes back where they left
 * off, submits and is told the office is under review; the platform admin approves it with a reason; the office
 * verifies its bank account by the two micro-deposits e-mailed to it; it invites a colleague, who accepts from the
 * e-mailed link, sends an application by text link and sees it on Home. Every person is new: the demo data stays as
 * the other specs know it.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { hashOf, outbox } from './support/borrower.ts';
import { confirmSignUp, signIn } from './support/session.ts';

test.use({ ignoreHTTPSErrors: true });
test.describe.configure({ timeout: 300_000 });

const PASSWORD = 'practice-pass-1234';
const PDF = { name: 'document.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n', 'latin1') };
const unique = Date.now().toString(36);
const OFFICE = `Hill Country Smiles ${unique}`;

const next = (page: Page) => page.getByRole('button', { name: 'Next' }).click();
const onStep = (page: Page, step: string) => expect(page.locator(`[data-screen="wizard"][data-step="${step}"]`)).toBeVisible({ timeout: 30_000 });
const state = (scope: Page | Locator) => scope.getByRole('combobox', { name: /^State/ });

/** The identity provider's sign-up page: names, e-mail and a password twice; then the e-mail's link confirms it. */
async function chooseAccount(page: Page, first: string, last: string, email: string): Promise<void> {
  await page.getByLabel('First name').fill(first);
  await page.getByLabel('Last name').fill(last);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign up' }).click();
  await confirmSignUp(page, email, PASSWORD);
}

async function fillOwner(owner: Locator, o: { first: string; last: string; email: string; phone: string; dob: string; ssn: string; share: string; street: string }) {
  await owner.getByLabel('First name').fill(o.first);
  await owner.getByLabel('Last name').fill(o.last);
  await owner.getByLabel('E-mail').fill(o.email);
  await owner.getByLabel('Mobile phone').fill(o.phone);
  await owner.getByLabel('Date of birth').fill(o.dob);
  await owner.getByLabel('Social Security number').fill(o.ssn);
  await owner.getByLabel('Ownership (%)').fill(o.share);
  await owner.getByLabel('Street address').fill(o.street);
  await owner.getByLabel('City').fill('Austin');
  await state(owner).selectOption({ label: 'Texas' });
  await owner.getByLabel('ZIP code').fill('78704');
}

test('a new practice signs up, enrolls, is approved, verifies its bank and builds its team', async ({ page, browser }) => {
  const email = `owner-${unique}@hill.example`;

  // 'Create an account' opens the sign-up page itself; a new account, its e-mail confirmed, lands on step 1.
  await page.goto('/#/signup');
  await page.getByRole('button', { name: 'Create an account' }).click();
  await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible({ timeout: 30_000 });
  await chooseAccount(page, 'Nadia', 'Reyes', email);
  await onStep(page, 'profile');

  // Profile: Next saves it, or says what is wrong at each field.
  await next(page);
  await expect(page.getByText('This field is required.').first()).toBeVisible();
  await page.getByLabel('Office name').fill(OFFICE);
  await page.getByLabel('Legal name').fill(`${OFFICE} PLLC`);
  await page.getByLabel('Office phone').fill('5125550150');
  await page.getByLabel('Website').fill('hillcountry.example');
  await page.getByLabel('Category').selectOption({ label: 'Dental' });
  await page.getByLabel('Business type').selectOption({ label: 'Limited Liability Company' });
  await page.getByLabel('Federal tax id (EIN)').fill('741234567');
  await page.getByLabel('Time zone').selectOption({ label: 'Central' });
  await page.getByLabel('Street address').fill('100 Congress Ave');
  await page.getByLabel('City').fill('Austin');
  await state(page).selectOption({ label: 'Texas' });
  await page.getByLabel('ZIP code').fill('78701');
  await next(page);
  await expect(page.getByText('This field must be a web address starting with https:// or http://.')).toBeVisible();
  await page.getByLabel('Website').fill('https://hillcountry.example');
  await next(page);
  await onStep(page, 'owners');

  // Owners: shares total 100, owners are adults, and live somewhere else than the office.
  const first = page.locator('[data-group-item="0"]');
  await fillOwner(first, { first: 'Maria', last: "O'Neil", email: 'maria@hill.example', phone: '5125550111', dob: '07041976', ssn: '123456789', share: '60', street: '100 congress ave' });
  await next(page);
  await expect(page.getByText('Must total to 100. Please add all owners.')).toBeVisible();
  await page.getByRole('button', { name: 'Add an owner' }).click();
  const second = page.locator('[data-group-item="1"]');
  await fillOwner(second, { first: 'Sam', last: 'Lee', email: 'sam@hill.example', phone: '5125550112', dob: '02282015', ssn: '987654321', share: '40', street: '9 Hillside Dr' });
  await next(page);
  await expect(page.getByText('You are under 18.')).toBeVisible();
  await second.getByLabel('Date of birth').fill('02281980');
  await next(page);
  await expect(first.getByText("The owner's address must differ from the office street address.")).toBeVisible();
  await first.getByLabel('Street address').fill('7 Residence Ln');
  await next(page);
  await onStep(page, 'bank-info');

  // Signing out and in again resumes at the first step not done; Back shows what was saved.
  await page.goto('/#/logout');
  await expect(page.getByLabel('Email')).toBeVisible({ timeout: 30_000 });
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await onStep(page, 'bank-info');
  await page.getByRole('button', { name: 'Back' }).click();
  await onStep(page, 'owners');
  await expect(page.locator('[data-group-item="1"]').getByLabel('First name')).toHaveValue('Sam');
  await next(page);

  // Bank info: the routing number's check digit, and the account number typed twice.
  await onStep(page, 'bank-info');
  await page.getByLabel('Account type').selectOption({ label: 'Checking' });
  await page.getByLabel('Bank name').fill('Hill Country Bank');
  await page.getByLabel('Routing number').fill('021000022');
  await page.getByLabel(/^Account number(?! again)/).fill('123456789012');
  await page.getByLabel('Account number again').fill('123456789013');
  await next(page);
  await expect(page.getByText('This field must be a valid 9-digit routing number.')).toBeVisible();
  await expect(page.getByText('This field does not match.')).toBeVisible();
  await page.getByLabel('Routing number').fill('021000021');
  await page.getByLabel('Account number again').fill('123456789012');
  await next(page);
  await onStep(page, 'docs');

  // Docs: what is missing is listed; a photo-id needs its owner.
  await next(page);
  await expect(page.getByText('Upload every document marked Missing to continue.')).toBeVisible();
  await page.getByRole('button', { name: 'Upload another document' }).click();
  const other = page.getByRole('dialog', { name: 'Upload a document' });
  await other.getByLabel('Document type').selectOption({ label: 'Owner Photo ID' });
  await other.getByLabel('File').setInputFiles(PDF);
  await other.getByRole('button', { name: 'Upload' }).click();
  await expect(other.getByText('Please select the owner for whom you are uploading a photo-id.')).toBeVisible();
  await other.getByRole('button', { name: 'Cancel' }).click();
  const needed = page.locator('[data-screen="table"]').first().locator('tbody tr');
  await expect(needed).toHaveText([/W-9 Form\s*Missing/, /Voided Check\s*Missing/, /Owner Photo ID: Maria O'Neil\s*Missing/, /Owner Photo ID: Sam Lee\s*Missing/]);
  for (let i = 0; i < 4; i++) {
    await needed.nth(i).getByRole('button', { name: 'Upload' }).click();
    const upload = page.getByRole('dialog');
    await upload.getByLabel('File').setInputFiles(PDF);
    await upload.getByRole('button', { name: 'Upload' }).click();
    await expect(upload).toBeHidden();
    await expect(needed.nth(i)).toContainText('Uploaded');
  }
  await expect(page.getByText('Upload every document marked Missing to continue.')).toHaveCount(0);
  await next(page);

  // Review: everything, secrets to their last four digits, an Edit link per section; then the submission.
  await onStep(page, 'review');
  const review = page.locator('[data-screen="detail"]');
  await expect(review).toContainText(`${OFFICE} PLLC`);
  await expect(review).toContainText('Limited Liability Company');
  await expect(review).toContainText('•••-••-6789');
  await expect(review).toContainText('•••-••-4321');
  await expect(review).toContainText('•••••0021');
  await expect(review).toContainText('••••9012');
  await expect(review).not.toContainText('123456789012');
  await expect(review.getByRole('button', { name: 'Edit' })).toHaveCount(5);
  await page.getByRole('button', { name: 'Submit my enrollment' }).click();
  await expect(page.getByText('Your enrollment was submitted. We will e-mail you as soon as it is reviewed.')).toBeVisible();

  // Lender apply is the last step; then home says what happens next.
  await onStep(page, 'lender-apply');
  await page.getByRole('checkbox', { name: 'Select GreenSky' }).check();
  await page.getByRole('button', { name: 'Apply', exact: true }).click();
  // Applied: the lender leaves the list of lenders the office does not offer, and the wizard stays.
  await expect(page.getByRole('checkbox', { name: 'Select GreenSky' })).toHaveCount(0);
  await onStep(page, 'lender-apply');
  await page.getByRole('button', { name: 'Go to my home page' }).click();
  await expect.poll(() => hashOf(page)).toBe('/home');
  await expect(page.getByRole('heading', { name: 'Your enrollment is being reviewed' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'New Application' })).toBeDisabled();

  // The platform admin approves it from the review queue, with a reason.
  const adminContext = await browser.newContext({ ignoreHTTPSErrors: true });
  const admin = await adminContext.newPage();
  await signIn(admin, 'admin@demo.test', /^\/admin\/apps/);
  await admin.goto('/#/admin/offices/review');
  await admin.locator('main tbody tr').filter({ hasText: OFFICE }).getByRole('link').first().click();
  await expect(admin.getByText(`${OFFICE} PLLC`).first()).toBeVisible();
  await admin.getByRole('button', { name: 'Approve' }).click();
  const decision = admin.getByRole('dialog');
  await decision.getByRole('button', { name: 'Approve' }).click();
  await expect(decision.getByText('This field is required.')).toBeVisible();
  await decision.getByLabel('Reason').fill('Owners, documents and bank checked.');
  await decision.getByRole('button', { name: 'Approve' }).click();
  await expect(decision).toBeHidden();
  await adminContext.close();

  // The office sees it on its next page: the notice is gone and New Application opens.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Active Applications' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Your enrollment is being reviewed' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'New Application' })).toBeEnabled();
  expect((await outbox(page, email)).some((m) => m.body.includes('Owners, documents and bank checked.'))).toBe(true);

  // Bank verification: two deposits under $1 arrive as a bank statement; the office types them in.
  await page.goto('/#/settings/bank');
  await page.getByRole('button', { name: 'Send the two deposits' }).click();
  let amounts: string[] = [];
  await expect
    .poll(async () => (amounts = [...((await outbox(page, email)).find((m) => /\$0\.\d\d/.test(m.body))?.body ?? '').matchAll(/\$(0\.\d\d)/g)].map((m) => m[1]!)))
    .toHaveLength(2);
  await page.getByLabel('First deposit').fill(amounts[0]!);
  await page.getByLabel('Second deposit').fill(amounts[1]!);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByText('Verified').first()).toBeVisible();

  // The team: a colleague invited by e-mail accepts from the link.
  const colleagueEmail = `colleague-${unique}@hill.example`;
  await page.goto('/#/users');
  await page.getByRole('button', { name: 'Invite a user' }).click();
  const invite = page.getByRole('dialog', { name: 'Invite a user' });
  await invite.getByLabel('First name').fill('Casey');
  await invite.getByLabel('Last name').fill('Coordinator');
  await invite.getByLabel('Email').fill(colleagueEmail);
  await invite.getByLabel('Role').selectOption({ label: 'Support' });
  await invite.getByRole('button', { name: 'Send invitation' }).click();
  await expect(invite).toBeHidden();
  let link = '';
  await expect.poll(async () => (link = (await outbox(page, colleagueEmail))[0]?.links[0]?.url ?? '')).toMatch(/#\/users\/invite\//);

  const colleagueContext = await browser.newContext({ ignoreHTTPSErrors: true });
  const colleague = await colleagueContext.newPage();
  await colleague.goto(link.replace(/^https:\/\/[^/]+/, new URL(page.url()).origin));
  await colleague.getByRole('button', { name: 'Accept the invitation' }).click();
  await expect(colleague.getByRole('heading', { name: 'Choose your password' })).toBeVisible({ timeout: 30_000 });
  await colleague.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await colleague.getByLabel('Confirm password').fill(PASSWORD);
  await colleague.getByRole('button', { name: 'Sign up' }).click();
  // One click accepts: back from sign-up, the invitation is accepted on its own (issue 37).
  await expect.poll(() => hashOf(colleague), { timeout: 30_000 }).toBe('/home');

  // The colleague texts an application link and sees the application on Home.
  await colleague.getByRole('button', { name: 'New Application' }).click();
  await colleague.getByRole('dialog', { name: 'How would you like to apply?' }).getByRole('button', { name: 'Text a link' }).click();
  const send = colleague.getByRole('dialog', { name: 'Text an application link' });
  await send.getByLabel('First Name').fill('Pat');
  await send.getByLabel('Last Name').fill('Patient');
  await send.getByLabel('Mobile Phone').pressSequentially('7375550188');
  await send.getByRole('button', { name: 'Submit' }).click();
  await expect(colleague.getByText('An Email/SMS has been sent to the Borrower with a link to complete the application.')).toBeVisible();
  await colleague.keyboard.press('Escape');
  await colleague.goto('/#/home');
  await expect(colleague.locator('main [data-screen="table"] tbody tr').filter({ hasText: 'Pat Patient' })).toBeVisible({ timeout: 30_000 });
  await colleagueContext.close();
});
