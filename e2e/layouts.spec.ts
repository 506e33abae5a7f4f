/**
 * Each layout (default, esign, office, welcome) at 1400 and 375 px: screenshots under test-results/screenshots/, axe-core
 * with no serious or critical violation (issue 3 items 3 and 13), and a page that does not pan sideways.
 */
import { mkdirSync } from 'node:fs';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { openApp, seedSession, signIn, staffState } from './support/session.ts';
import { watchNetwork } from './support/network.ts';
import { axeViolations, isSerious } from './support/axe.ts';

test.use({ ignoreHTTPSErrors: true });

const SHOTS = 'test-results/screenshots';
mkdirSync(SHOTS, { recursive: true });

interface LayoutCase {
  layout: string;
  path: string;
  /** A demo account signed in for real, so that the page shows its data. */
  account?: string;
  /** Something the page shows once it is ready. */
  ready: (page: Page) => Promise<void>;
}

const CASES: LayoutCase[] = [
  {
    layout: 'default',
    path: '/home',
    account: 'office.admin@demo.test',
    ready: async (page) => {
      await expect(page.locator('nav#side-menu')).toBeAttached();
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    },
  },
  {
    layout: 'default-platform-admin',
    path: '/admin/apps',
    account: 'admin@demo.test',
    ready: async (page) => {
      await expect(page.getByRole('heading', { level: 1, name: 'Active Apps' })).toBeVisible();
    },
  },
  { layout: 'esign', path: '/lenders/esign/5', ready: async (page) => void (await expect(page.getByRole('heading', { level: 1 })).toBeVisible()) },
  { layout: 'office', path: '/app/prequal/0', ready: async (page) => void (await expect(page.getByLabel('First Name')).toBeVisible({ timeout: 20_000 })) },
  { layout: 'welcome', path: '/locator', ready: async (page) => void (await expect(page.getByRole('heading', { level: 1 })).toBeVisible()) },
];

/** A page opened without the sign-in its calls need shows the server's 401 as a toast: closed for the picture. */
async function closeToasts(page: Page, wait = true): Promise<void> {
  const toasts = page.locator('[data-scope="toast"][data-part="root"]');
  for (const close of await toasts.getByRole('button', { name: 'Close' }).all()) await close.click({ timeout: 2_000 }).catch(() => undefined);
  if (wait) await expect(toasts).toHaveCount(0);
}

async function seriousViolations(page: Page, include?: string) {
  return (await axeViolations(page, include))
    .filter(isSerious)
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(' | ')}`);
}

for (const c of CASES) {
  for (const width of [1400, 375]) {
    test(`${c.layout} layout at ${width}px`, async ({ page }) => {
      await page.setViewportSize({ width, height: width > 600 ? 900 : 812 });
      const network = watchNetwork(page);
      if (c.account) await signIn(page, c.account);
      await openApp(page, c.path);
      await c.ready(page);
      await network.quiet();
      await page.waitForTimeout(600);
      await closeToasts(page);
      await expect(page.locator(`[data-layout="${c.layout.split('-')[0]}"]`)).toBeVisible();
      await page.screenshot({ path: `${SHOTS}/${c.layout}-${width}.png`, fullPage: true });
      expect(await seriousViolations(page)).toEqual([]);
      // What is wider than the screen scrolls in its own box: the page itself never pans sideways.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    });
  }
}

/** An office admin's Home on a desktop screen, in a seeded session (fast; its calls that need a token answer 401). */
async function officeHomeOnDesktop(page: Page): Promise<void> {
  await page.setViewportSize({ width: 1400, height: 900 });
  await seedSession(page, staffState({}));
  await openApp(page, '/home');
}

/** Searches for application 42 from the header, then opens Switch Offices at once: the dialog. */
async function searchThenSwitchOffices(page: Page): Promise<Locator> {
  const banner = page.getByRole('banner');
  await banner.getByRole('searchbox', { name: 'Applicant Name or ID' }).fill('42');
  await banner.getByRole('searchbox', { name: 'Applicant Name or ID' }).press('Enter');
  await expect(page).toHaveURL(/#\/search\/42$/);
  await banner.getByRole('button', { name: 'Switch Offices' }).click();
  const dialog = page.getByRole('dialog', { name: 'Switch Office' });
  await expect(dialog).toBeVisible();
  return dialog;
}

test('the side menu collapses to 100px, opens to 320px on hover, and is a menu button under 600px', async ({ page }) => {
  await officeHomeOnDesktop(page);
  const nav = page.getByRole('navigation', { name: 'Main menu' });
  await expect(nav).toBeVisible();
  await expect.poll(async () => (await nav.boundingBox())?.width).toBe(100);
  await nav.hover();
  await expect.poll(async () => (await nav.boundingBox())?.width).toBe(320);
  await page.setViewportSize({ width: 375, height: 812 });
  await page.mouse.move(370, 800);
  await expect(nav).toBeHidden();
  await page.getByRole('button', { name: 'Open the menu' }).click();
  await expect(nav).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/default-375-menu-open.png` });
  await expect(page.getByRole('link', { name: 'Inactive Apps' })).toBeVisible();
});

test('the side menu opens over the page without moving an item: a prompt click lands on the item that was pointed at', async ({ page }) => {
  await officeHomeOnDesktop(page);
  const nav = page.getByRole('navigation', { name: 'Main menu' });
  await expect.poll(async () => (await nav.boundingBox())?.width).toBe(100);
  const links = nav.getByRole('link');
  const rows = async () => Promise.all((await links.all()).map(async (link) => ({ name: await link.getAttribute('data-menu-item'), ...(await link.boundingBox())! })));
  const collapsed = await rows();
  expect(collapsed.map((r) => r.name)).toContain('refunds');
  const refunds = collapsed.find((r) => r.name === 'refunds')!;
  // The pointer comes to rest on 'Refunds' (lower half, where a re-flow moves another item under it) …
  const point = { x: refunds.x + refunds.width / 2, y: refunds.y + refunds.height * 0.8 };
  await page.mouse.move(point.x, point.y);
  await expect.poll(async () => (await nav.boundingBox())?.width).toBe(320);
  // … and every item keeps its place and height as the menu opens: the one under the pointer is still 'Refunds'.
  const expanded = await rows();
  expect(expanded.map(({ name, y, height }) => ({ name, y, height }))).toEqual(collapsed.map(({ name, y, height }) => ({ name, y, height })));
  expect(await page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.closest('a')?.getAttribute('data-menu-item'), point)).toBe('refunds');
  // The page under the menu stays where it was too (the menu opens over it).
  expect((await page.locator('main').boundingBox())!.x).toBe(100);
  // A prompt click, while the menu is still opening, goes where the pointer was.
  await page.mouse.move(1300, 500);
  await expect.poll(async () => (await nav.boundingBox())?.width).toBe(100);
  await page.mouse.click(point.x, point.y);
  await expect(page).toHaveURL(/#\/logs\/refunds$/);
});

test('the header: searches, New Application, greeting, office and Switch Offices', async ({ page }) => {
  await officeHomeOnDesktop(page);
  const banner = page.getByRole('banner');
  await expect(banner.getByText('Hi Olivia')).toBeVisible();
  await expect(banner.getByText('Bright Smiles Dental #1')).toBeVisible();
  await expect(banner.getByRole('searchbox', { name: 'Applicant Name or ID' })).toBeVisible();
  await expect(banner.getByRole('searchbox', { name: 'Search offices' })).toHaveCount(0);
  const dialog = await searchThenSwitchOffices(page);
  await expect(dialog.getByLabel('Select an Office')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Switch' })).toBeVisible();
  expect(await dialog.evaluate((d) => (d as HTMLElement).offsetWidth)).toBe(450);
  expect(await seriousViolations(page, '[role="dialog"]')).toEqual([]);
  await dialog.getByRole('button', { name: 'Switch' }).click();
  await expect(dialog.getByText('This field is required.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
});

test('a dialog opened from the header while the next page is on its way belongs to that page: it stays open once the page is drawn', async ({ page }) => {
  await officeHomeOnDesktop(page);
  const banner = page.getByRole('banner');
  await expect(banner.getByText('Hi Olivia')).toBeVisible();
  // The search page's code is held back: the address has changed, and the page is not drawn yet.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/assets/search-id-*.js', async (route) => {
    await held;
    await route.continue();
  });
  const dialog = await searchThenSwitchOffices(page);
  release();
  // Drawn behind the dialog (which hides the page from assistive technology while it is open).
  await expect(page.locator('h1', { hasText: "Search results for '42'" })).toBeVisible();
  await expect(dialog).toBeVisible();
  // A later change of page still closes it.
  await page.evaluate(() => (window.location.hash = '/home'));
  await expect(dialog).toBeHidden();
});

test('platform admins search offices, have no New Application, and the DFI admin sees a shorter menu', async ({ page }) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  await seedSession(page, staffState({ role: 'support', userRole: 'dfi.admin', officeId: null, officeName: null }));
  await openApp(page, '/admin/apps');
  const banner = page.getByRole('banner');
  await expect(banner.getByRole('searchbox', { name: 'Search offices' })).toBeVisible();
  await expect(banner.getByRole('button', { name: 'New Application' })).toHaveCount(0);
  const nav = page.getByRole('navigation', { name: 'Main menu' });
  await expect(nav.getByRole('link', { name: 'Active Apps', exact: true })).toBeAttached();
  for (const hidden of ['Office Funding', 'Manage Office Users', 'Manage Admin Users']) await expect(nav.getByRole('link', { name: hidden, exact: true })).toHaveCount(0);
  await banner.getByRole('searchbox', { name: 'Applicant Name or ID' }).fill('Smith');
  await banner.getByRole('searchbox', { name: 'Applicant Name or ID' }).press('Enter');
  await expect(page).toHaveURL(/#\/admin\/apps\?search=Smith$/);
});

test("a product owner's header offers no office work: no New Application, no applicant search (they have no office)", async ({ page }) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  await seedSession(page, staffState({ userRole: 'product.owner', officeId: null, officeName: null, isMultipleOffices: false, givenName: 'Paula' }));
  await openApp(page, '/studio');
  const banner = page.getByRole('banner');
  await expect(banner.getByText('Hi Paula')).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Studio' })).toBeVisible();
  await expect(banner.getByRole('button', { name: 'New Application' })).toHaveCount(0);
  await expect(banner.getByRole('searchbox')).toHaveCount(0);
});
