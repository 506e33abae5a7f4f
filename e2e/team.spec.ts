/**
 * An office's team, in Chromium against the real server (issue 15, part 5): the office admin invites a colleague on
 * Manage Users; the colleague, a new person in a browser of their own, opens the e-mailed link (read from the demo
 * outbox), chooses a password on the identity provider's sign-up page, accepts, and lands on the office's home with
 * the role they were given; the admin then sees them Active. Removing the office's last admin is refused in words.
 * The demo accounts stay as they are: the colleague is a fresh e-mail, and the refused removal changes nothing.
 * Several locations (issue 40, item 4): the admin invites a colleague to both locations of her organization at once,
 * and adds a third location, which she then enrolls. These run last in their group (the file's name): the locations
 * they add change nothing another spec reads.
 */
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { hashOf, outbox } from './support/borrower.ts';
import { signIn } from './support/session.ts';

test.use({ ignoreHTTPSErrors: true });
test.describe.configure({ timeout: 180_000 });

const OFFICE = 'Bright Smiles Dental';
const teamRow = (page: Page, email: string) => page.locator('main [data-screen="table"] tbody tr').filter({ hasText: email });

/** The one invitation e-mailed to `email` (the demo outbox), opened by a new person in a browser of their own. */
async function openInvitation(browser: Browser, page: Page, email: string): Promise<{ context: BrowserContext; colleague: Page }> {
  let link = '';
  await expect.poll(async () => (link = (await outbox(page, email))[0]?.links[0]?.url ?? '')).toMatch(/#\/users\/invite\/[0-9a-f-]{36}$/);
  expect(await outbox(page, email)).toHaveLength(1);
  const context = await browser.newContext({ ignoreHTTPSErrors: true });
  const colleague = await context.newPage();
  await colleague.goto(link.replace(/^https:\/\/[^/]+/, new URL(page.url()).origin));
  return { context, colleague };
}

/** Accepts the open invitation as a person without an account: chooses a password on the sign-up page. */
async function signUpAndAccept(colleague: Page, email: string): Promise<void> {
  await colleague.getByRole('button', { name: 'Accept the invitation' }).click();
  await expect(colleague.getByRole('heading', { name: 'Choose your password' })).toBeVisible({ timeout: 30_000 });
  await expect(colleague.getByLabel('Email')).toHaveValue(email);
  await colleague.getByLabel('Password', { exact: true }).fill('colleague-pass-1234');
  await colleague.getByLabel('Confirm password').fill('colleague-pass-1234');
  await colleague.getByRole('button', { name: 'Sign up' }).click();
}

test('an office admin invites a colleague, who signs up from the e-mailed link and lands on the office home with that role', async ({ page, browser }) => {
  const email = `colleague-${Date.now().toString(36)}@example.test`;
  await signIn(page, 'office.admin@demo.test', /^\/home$/);
  await page.goto('/#/users');
  await expect(page.getByRole('heading', { name: 'Manage Users' })).toBeVisible();
  await expect(teamRow(page, 'office.admin@demo.test')).toContainText('Administrator');

  await page.getByRole('button', { name: 'Invite a user' }).click();
  const invite = page.getByRole('dialog', { name: 'Invite a user' });
  await invite.getByLabel('First name').fill('Casey');
  await invite.getByLabel('Last name').fill('Colleague');
  await invite.getByLabel('Email').fill(email);
  await invite.getByLabel('Role').selectOption({ label: 'Support' });
  await invite.getByLabel('Title').fill('Treatment Coordinator');
  // A double-click sends one invitation.
  await invite.getByRole('button', { name: 'Send invitation' }).dblclick();
  // Its expiry by the office's clock, named: Bright Smiles keeps Central time (issue 37).
  await expect(page.getByText(new RegExp(`^An invitation was sent to ${email.replace(/[.]/g, '\\.')}\\. Its link works once, until \\d\\d/\\d\\d/\\d{4} \\d\\d:\\d\\d [AP]M C[SD]T\\.$`)).first()).toBeVisible();
  await expect(invite).toBeHidden();
  const row = teamRow(page, email);
  await expect(row).toContainText('Casey Colleague');
  await expect(row).toContainText('Support');
  await expect(row).toContainText('Invited');
  await expect(row.getByRole('button', { name: 'Resend invite' })).toBeVisible();

  // The colleague: a new person, in a browser of their own.
  const { context: colleagueContext, colleague } = await openInvitation(browser, page, email);
  await expect(colleague.getByText(`Casey, you are invited to join ${OFFICE} as Support.`)).toBeVisible();
  await expect(colleague.getByText(/^\d\d\/\d\d\/\d{4} \d\d:\d\d [AP]M C[SD]T$/)).toBeVisible();
  await signUpAndAccept(colleague, email);
  // Back on the invitation, signed in, the one click accepts it (issue 37): the office is the session's office.
  await expect.poll(() => hashOf(colleague), { timeout: 30_000 }).toBe('/home');
  await expect(colleague.getByText(`Welcome to ${OFFICE}.`)).toBeVisible();
  await expect(colleague.getByRole('heading', { name: 'Active Applications' })).toBeVisible();
  await expect(colleague.getByText(OFFICE).first()).toBeVisible();
  // Support staff: no user management in the menu, and its page is closed to them.
  await expect(colleague.getByRole('link', { name: 'Manage Users' })).toHaveCount(0);
  await colleague.goto('/#/users');
  await expect(colleague.getByText('You are not authorized to view this page.')).toBeVisible();

  await page.reload();
  await expect(teamRow(page, email)).toContainText('Active');
  await expect(teamRow(page, email).getByRole('button', { name: 'Resend invite' })).toHaveCount(0);

  // Made an admin while signed in, the colleague has the admin's menu and pages from their next page on, without
  // signing in again (issue 37).
  await teamRow(page, email).getByRole('button', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Casey Colleague' });
  await edit.getByLabel('Role').selectOption({ label: 'Administrator' });
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(teamRow(page, email)).toContainText('Administrator');
  await colleague.getByRole('link', { name: 'Home' }).click();
  await expect(colleague.getByRole('link', { name: 'Manage Users' })).toBeVisible();
  await colleague.getByRole('link', { name: 'Manage Users' }).click();
  await expect(colleague.getByRole('heading', { name: 'Manage Users' })).toBeVisible();
  await expect(teamRow(colleague, email)).toContainText('Administrator');
  await colleagueContext.close();

  // Disabled by the admin, the colleague is told so as they sign in: no New Application, no office's lists, no error
  // toast (issue 37).
  await teamRow(page, email).getByRole('button', { name: 'Disable' }).click();
  await expect(teamRow(page, email)).toContainText('Disabled');
  const laterContext = await browser.newContext({ ignoreHTTPSErrors: true });
  const later = await laterContext.newPage();
  await later.goto('/');
  await later.getByLabel('Email').fill(email);
  await later.getByLabel('Password').fill('colleague-pass-1234');
  await later.getByRole('button', { name: 'Sign in' }).click();
  await expect(later.getByRole('heading', { name: 'Your access to this office is turned off' })).toBeVisible({ timeout: 30_000 });
  await expect(later.getByText(`An admin of ${OFFICE} turned off your access to its applications.`)).toBeVisible();
  await expect(later.getByRole('button', { name: 'New Application' })).toHaveCount(0);
  await expect(later.getByRole('heading', { name: 'Active Applications' })).toHaveCount(0);
  await expect(later.getByRole('link', { name: 'Inactive Apps' })).toHaveCount(0);
  await expect(later.getByText('Oops!')).toHaveCount(0);
  await laterContext.close();
});

test('a link that no longer works says so on the page, without an error toast', async ({ page }) => {
  await page.goto('/#/users/invite/00000000-0000-4000-8000-000000000000');
  await expect(page.getByText('This invitation link does not work: it may have been replaced by a newer invitation or withdrawn.')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('button', { name: 'Accept the invitation' })).toHaveCount(0);
  await expect(page.getByText('Oops!')).toHaveCount(0);
});

test("the office's last admin cannot be removed: the refusal is said on screen and nothing changes", async ({ page }) => {
  await signIn(page, 'office.admin@demo.test', /^\/home$/);
  await page.goto('/#/users');
  const me = teamRow(page, 'office.admin@demo.test');
  await me.getByRole('button', { name: 'Remove' }).click();
  const confirm = page.getByRole('dialog', { name: 'Remove Olivia Bennett?' });
  await confirm.getByRole('button', { name: 'Remove' }).click();
  // Said where the admin pressed, in plain words: no error toast, no operation id (issue 37).
  await expect(confirm.getByRole('alert')).toHaveText('An office needs at least one active admin.');
  await expect(page.getByText('Oops!')).toHaveCount(0);
  await expect(page.getByText(/OperationId/)).toHaveCount(0);
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(me).toContainText('Administrator');
  await expect(me).toContainText('Active');
});

/** Fills the invitation dialog of Manage Users and sends it. */
async function invite(page: Page, email: string, also: readonly string[] = []) {
  await page.getByRole('button', { name: 'Invite a user' }).click();
  const dialog = page.getByRole('dialog', { name: 'Invite a user' });
  await dialog.getByLabel('First name').fill('Lee');
  await dialog.getByLabel('Last name').fill('Locations');
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByLabel('Role').selectOption({ label: 'Support' });
  for (const location of also) await dialog.getByRole('checkbox', { name: location }).check();
  await dialog.getByRole('button', { name: 'Send invitation' }).click();
  await expect(dialog).toBeHidden();
}

test('an office admin invites a colleague to both locations of her organization with one e-mail, and they join both', async ({ page, browser }) => {
  const email = `two-places-${Date.now().toString(36)}@example.test`;
  await signIn(page, 'office.admin@demo.test', /^\/home$/);
  await page.goto('/#/users');
  await invite(page, email, ['Lakeside Family Dental (Madison, WI)']);
  const { context, colleague } = await openInvitation(browser, page, email);
  await expect(colleague.getByText(`Lee, you are invited to join ${OFFICE} and Lakeside Family Dental as Support.`)).toBeVisible({ timeout: 30_000 });
  await signUpAndAccept(colleague, email);
  await expect.poll(() => hashOf(colleague), { timeout: 30_000 }).toBe('/home');

  // A member of both: the header offers the other, and switching lands on its home.
  await colleague.getByRole('banner').getByRole('button', { name: 'Switch Offices' }).click();
  const dialog = colleague.getByRole('dialog', { name: 'Switch Office' });
  await dialog.getByLabel('Select an Office').selectOption({ label: 'Lakeside Family Dental (Madison, WI)' });
  await dialog.getByRole('button', { name: 'Switch' }).click();
  await expect(colleague.getByRole('banner')).toContainText('Lakeside Family Dental');
  await expect(colleague.getByRole('heading', { name: 'Active Applications' })).toBeVisible();
  await context.close();

  // Lakeside's own list shows the person, joined.
  await page.getByRole('banner').getByRole('button', { name: 'Switch Offices' }).click();
  const mine = page.getByRole('dialog', { name: 'Switch Office' });
  await mine.getByLabel('Select an Office').selectOption({ label: 'Lakeside Family Dental (Madison, WI)' });
  await mine.getByRole('button', { name: 'Switch' }).click();
  await expect(page.getByRole('banner')).toContainText('Lakeside Family Dental');
  await page.goto('/#/users');
  await expect(teamRow(page, email)).toContainText('Active');
});

test('an office admin adds a location to her organization and goes on to enroll it', async ({ page }) => {
  await signIn(page, 'office.admin@demo.test', /^\/home$/);
  await page.goto('/#/offices');
  await expect(page.getByRole('heading', { name: 'Manage Offices' })).toBeVisible();
  await page.getByRole('button', { name: 'Add a location' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a location' });
  // A wrong phone is said at the field, and nothing is sent.
  await dialog.getByLabel('Location name').fill('Bright Smiles Round Rock');
  await dialog.getByLabel('Location phone').fill('512');
  await dialog.getByRole('button', { name: 'Add the location' }).click();
  await expect(dialog.getByLabel('Location phone')).toHaveAttribute('aria-invalid', 'true');
  await dialog.getByLabel('Location phone').fill('5125550111');
  await dialog.getByLabel('Time zone').selectOption({ label: 'Central' });
  await dialog.getByLabel('Street address').fill('901 Main St');
  await dialog.getByLabel('City').fill('Round Rock');
  await dialog.getByLabel('State').selectOption({ label: 'Texas' });
  await dialog.getByLabel('ZIP code').fill('78664');
  await dialog.getByRole('button', { name: 'Add the location' }).click();
  await expect(page.getByText('Bright Smiles Round Rock was added. Finish its enrollment: documents, bank account and lenders.')).toBeVisible();
  await expect.poll(() => hashOf(page)).toMatch(/^\/enroll\?officeId=\d+$/);
  await expect(page.getByRole('banner')).toContainText('Bright Smiles Round Rock');
  // The business came along (profile and owners): its enrollment resumes at the location's own bank account.
  await expect(page.getByRole('heading', { name: 'Bank Info' })).toBeVisible();
  await page.goto('/#/offices');
  await expect(page.locator('main [data-screen="table"] tbody tr')).toHaveCount(3);
});

test('a platform admin groups an office that enrolled apart with the organization, and takes it out again', async ({ page }) => {
  await signIn(page, 'admin@demo.test');
  await page.goto('/#/admin/offices/102');
  const profile = page.locator('main [data-screen="detail"]').filter({ hasText: 'Profile' });
  await expect(profile.getByText('None', { exact: true })).toBeVisible();
  const save = async (withOfficeId: string) => {
    await page.getByRole('button', { name: 'Organization', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Organization of Cedar Park Orthodontics' });
    await dialog.getByLabel('Group with office (id)').fill(withOfficeId);
    await dialog.getByRole('button', { name: 'Save' }).click();
    return dialog;
  };
  // The office itself is no organization to join: said at the field.
  const refused = await save('102');
  await expect(refused.getByText('Choose another office than this one.')).toBeVisible();
  await refused.getByRole('button', { name: 'Cancel' }).click();
  await save('100');
  await expect(page.getByText(/^Cedar Park Orthodontics is now a location of Bright Smiles Dental Group \(\d+ locations\)\.$/)).toBeVisible();
  await expect(profile.getByText(/^Bright Smiles Dental Group \(\d+ locations\)$/)).toBeVisible();
  await save('');
  await expect(page.getByText('Cedar Park Orthodontics belongs to no organization now.')).toBeVisible();
  await expect(profile.getByText('None', { exact: true })).toBeVisible();
});
