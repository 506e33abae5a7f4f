/**
 * The borrower journey end to end (issue 5 "Done when"), in Chromium against the real server: the office admin signs
 * in through the built-in provider, sends a link by text ('New Application' → 'Text a link'), the borrower opens the
 * link from the demo outbox (/api/dev/outbox), pre-qualifies, compares offers, selects one, consents, answers the
 * identity questions from the data they entered and signs; the office watches the application move on its own page
 * (no reload) and downloads the signed PDF (Files_GetContent). Three lenders whose flows differ — gsky (start, agmt
 * with consent + KBA + signature on one page, then cta), ally (esign for consent + KBA, then a separate sign page),
 * powerpay (consent + KBA + signature on its sign page) and upg (the lender hosts its documents) — plus the sandbox's
 * decline and pending-review paths. In the gsky journey the office's practice software listens by webhook (issue 39):
 * down when the link is sent, it hears each chosen event once, in order and signed, once it is back.
 *
 * Each test is independent: its own sign-in, its own application and a mobile phone of its own (the outbox is read by
 * recipient). The sandbox rules steer the lenders: income 60,000 and amount 4,500 get offers from every lender of the
 * demo office; last name 'Decline' gets none; 'Pending' goes to review.
 */
import { readFileSync } from 'node:fs';
import { expect, test, type Browser, type BrowserContext, type Locator, type Page } from '@playwright/test';
import { enterPasscode, hashOf, outbox } from './support/borrower.ts';
import { addWebhook, deleteWebhook } from './support/integrations.ts';
import { tableRow } from './support/navigation.ts';
import { DEMO_PASSWORD, signIn } from './support/session.ts';
import { testDocumentCodeIn } from '../tests/support/pdf-text.ts';
import { signedBy, startReceiver, type Receiver } from '../tests/support/receiver.ts';
import { creditTermsOf, disclose } from '../core/credit.ts';
import { axeViolations } from './support/axe.ts';

test.use({ ignoreHTTPSErrors: true });
// The longest journey takes about a minute alone, and ran past four minutes beside the other group and the crawl on
// 2 cores in three of four full runs (2026-12-02).
test.describe.configure({ timeout: 360_000 });

const OFFICE_ADMIN = 'office.admin@demo.test';

interface Borrower {
  first: string;
  last: string;
  phone: string;
  street: string;
  streetName: string;
  city: string;
  state: string;
  zip: string;
  dob: string;
  ssn: string;
  income: string;
  amount: string;
}

/** A borrower with a mobile phone no other test uses (the outbox is read by recipient). */
function borrower(last: string): Borrower {
  const digits = String(Date.now() % 10_000_000).padStart(7, '0');
  const n = (i: number) => String((Number(digits) + i * 7919) % 10_000_000).padStart(7, '0');
  const phone = `(737) ${n(1).slice(0, 3)}-${n(1).slice(3)}`;
  return {
    first: 'Jamie',
    last,
    phone,
    street: '4100 Juniper Hollow Trl',
    streetName: 'Juniper Hollow Trl',
    city: 'Round Rock',
    state: 'Texas',
    zip: '78664',
    dob: '04/12/1984',
    ssn: '123-45-6789',
    income: '60000',
    amount: '4500',
  };
}

/** The steps whose pages axe-core checks in the gsky and decline tests: every page of the borrower's journey. */
const AXE_STEPS = new Set(['sent', 'prequal', 'match', 'offers', 'select', 'congrats', 'consent', 'kba', 'sign', 'cta', 'nomatch']);
/** On a phone, the steps whose tables are cards (decision 0141). */
const AXE_PHONE_STEPS = new Set(['match', 'offers', 'select']);

/**
 * Looks at a journey step: a full-page screenshot in the test's output folder (nothing compares them), and in the
 * gsky and decline tests and on a phone an axe-core check of the page (no violation of any impact).
 */
async function shot(page: Page, name: string): Promise<void> {
  // Away from the button just clicked: a hovered button is not what the page looks like.
  await page.mouse.move(1, 1);
  await page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });
  const onPhone = page.viewportSize()!.width < 600;
  const checked = ((test.info().title.startsWith('gsky:') || test.info().title.startsWith('decline:')) && AXE_STEPS.has(name)) || (onPhone && AXE_PHONE_STEPS.has(name));
  if (!checked) return;
  // WCAG 2.1 AA for the borrower side (issue 19): no violation of any impact.
  expect((await axeViolations(page)).map((v) => `${name}: ${v.id} ${v.nodes.map((n) => `${n.html} ${n.failureSummary ?? ''}`).slice(0, 3).join(' | ')}`)).toEqual([]);
}

/**
 * How the borrower acts on a page: with the pointer, or — on a page marked with `byKeyboard` — by keyboard alone
 * (WCAG 2.1.1): Tab to each control, which must then show where the focus is (2.4.7), and keys to use it.
 */
interface Hands {
  press(target: Locator): Promise<void>;
  check(target: Locator): Promise<void>;
  type(target: Locator, text: string): Promise<void>;
  choose(select: Locator, label: string): Promise<void>;
  /** A radio of a group: Tab into the group, arrows to the answer. */
  pick(radio: Locator): Promise<void>;
}

const KEYBOARD_PAGES = new WeakSet<Page>();
const byKeyboard = (page: Page) => KEYBOARD_PAGES.add(page);

const pointer: Hands = {
  press: (target) => target.click(),
  check: (target) => target.check(),
  type: (target, text) => target.fill(text),
  choose: async (select, label) => void (await select.selectOption({ label })),
  pick: (radio) => radio.check(),
};

/** Tabs forward until `target` has the focus, and checks that the focus can be seen. */
async function tabTo(page: Page, target: Locator): Promise<void> {
  await expect(target).toBeVisible();
  for (let i = 0; i < 200; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) {
      const ring = await target.evaluate((el) => {
        const style = getComputedStyle(el);
        return el.matches(':focus-visible') && ((style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) || style.boxShadow !== 'none');
      });
      expect(ring, `a visible focus on ${String(target)}`).toBe(true);
      return;
    }
    await page.keyboard.press('Tab');
  }
  throw new Error(`${String(target)} is not reachable with Tab`);
}

function keyboard(page: Page): Hands {
  return {
    async press(target) {
      await tabTo(page, target);
      await page.keyboard.press('Enter');
    },
    async check(target) {
      await tabTo(page, target);
      await page.keyboard.press('Space');
      await expect(target).toBeChecked();
    },
    async type(target, text) {
      await tabTo(page, target);
      await page.keyboard.press('ControlOrMeta+A');
      await page.keyboard.type(text);
    },
    async choose(select, label) {
      await tabTo(page, select);
      for (let i = 0; i < 80 && (await select.evaluate((el: HTMLSelectElement) => el.selectedOptions[0]?.label ?? '')) !== label; i++) await page.keyboard.press('ArrowDown');
      await expect(select).toHaveValue(await select.locator('option', { hasText: label }).first().getAttribute('value') ?? '');
    },
    async pick(radio) {
      // Tab enters a group at its checked radio, or its first; the arrows then move the choice.
      const radios = radio.locator('xpath=ancestor::fieldset[1]').getByRole('radio');
      const checked = radios.locator(':scope:checked');
      await tabTo(page, (await checked.count()) ? checked.first() : radios.first());
      if (await radio.evaluate((el) => el === document.activeElement)) await page.keyboard.press('Space');
      for (let i = 0; i < 8 && !(await radio.isChecked()); i++) await page.keyboard.press('ArrowDown');
      await expect(radio).toBeChecked();
    },
  };
}

const act = (page: Page): Hands => (KEYBOARD_PAGES.has(page) ? keyboard(page) : pointer);

/** 'New Application' → 'Text a link' → the popup → the QR code dialog; answers the application id and the texted link. */
async function sendTextLink(page: Page, b: Borrower): Promise<{ appId: number; link: string }> {
  await page.getByRole('button', { name: 'New Application' }).click();
  await page.getByRole('dialog', { name: 'How would you like to apply?' }).getByRole('button', { name: 'Text a link' }).click();
  const popup = page.getByRole('dialog', { name: 'Text an application link' });
  await popup.getByLabel('First Name').fill(b.first);
  await popup.getByLabel('Last Name').fill(b.last);
  await popup.getByLabel('Mobile Phone').pressSequentially(b.phone.replace(/\D/g, ''));
  await popup.getByLabel('Estimated Treatment Amount').fill(b.amount);
  await popup.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('An Email/SMS has been sent to the Borrower with a link to complete the application.')).toBeVisible();
  // The link as a QR code for the desk (the server drew it).
  const sent = page.getByRole('dialog', { name: 'Application link sent' });
  const qr = sent.getByRole('img', { name: `QR code of the application link for ${b.first} ${b.last}` });
  await expect(qr).toBeVisible();
  await shot(page, 'sent');
  expect(await qr.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
  const [text] = (await outbox(page, b.phone)).filter((m) => m.channel === 'Sms');
  expect(text, 'the link was texted').toBeDefined();
  const link = text!.links[0]!.url;
  expect(link).toMatch(/#\/app\/auth\/\d+\?t=/);
  // The office follows the application on its own page.
  await sent.getByRole('button', { name: 'Follow this application' }).click();
  await expect.poll(() => hashOf(page)).toMatch(/^\/app\/\d+$/);
  const appId = Number(hashOf(page).split('/').at(-1));
  expect(link).toContain(`/app/auth/${appId}?t=`);
  await expect(page.getByRole('heading', { name: 'Where the borrower is' })).toBeVisible();
  await expect(page.getByText('Application link sent: waiting for the borrower')).toBeVisible();
  // How long the texted link still works, and since when the borrower is where they are.
  await expect(page.getByText(/^\d\d\/\d\d\/\d{4} \d\d:\d\d [AP]M \(in 7[12] hours\)$/)).toBeVisible();
  await expect(page.getByText(/^\d\d\/\d\d\/\d{4} \d\d:\d\d [AP]M \((this minute|1 minute ago)\)$/)).toBeVisible();
  return { appId, link };
}

/** A phone's screen: the borrower of the powerpay test goes through the journey on one. */
const PHONE = { width: 375, height: 812 };

/** The borrower's own browser: a context of its own (no staff session in it), on a desktop screen or a phone's. */
async function borrowerPage(browser: Browser, viewport?: typeof PHONE): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ ignoreHTTPSErrors: true, acceptDownloads: true, ...(viewport ? { viewport } : {}) });
  return { context, page: await context.newPage() };
}

/** The pre-qualification form; names, phone and amount come prefilled from what the office sent. */
async function prequalify(page: Page, b: Borrower): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Pre-qualify for financing' })).toBeVisible({ timeout: 20_000 });
  // Prefilled from what the office sent (or typed by the office on its own device).
  await expect(page.getByLabel('First Name')).toHaveValue(b.first);
  await expect(page.getByLabel('Last Name')).toHaveValue(b.last);
  await expect(page.getByLabel('Mobile Phone')).toHaveValue(b.phone);
  await expect(page.getByLabel('Estimated Treatment Amount')).toHaveValue(/^4,?500$/);
  const hands = act(page);
  await hands.type(page.getByLabel('Street Address'), b.street);
  await hands.type(page.getByLabel('City'), b.city);
  await hands.choose(page.getByLabel('State'), b.state);
  await hands.type(page.getByLabel('Zip Code'), b.zip);
  if (KEYBOARD_PAGES.has(page)) await hands.type(page.getByLabel('Date of Birth'), b.dob.replace(/\D/g, ''));
  else await page.getByLabel('Date of Birth').pressSequentially(b.dob.replace(/\D/g, ''));
  await hands.type(page.getByLabel('Social Security Number'), b.ssn);
  await hands.choose(page.getByLabel('Employment Status'), 'Employed full time');
  await hands.type(page.getByLabel('Employer'), 'Hill Country Builders');
  await hands.type(page.getByLabel('Annual Income'), b.income);
  await hands.choose(page.getByLabel('Residence'), 'Rent');
  await hands.type(page.getByLabel('Monthly Housing Payment'), '1200');
  await hands.check(page.getByRole('checkbox', { name: 'I agree to the terms and consent to a soft credit inquiry.' }));
  await hands.check(page.getByRole('checkbox', { name: 'I agree to receive disclosures and documents electronically (ESIGN Act).' }));
  await shot(page, 'prequal');
  await hands.press(page.getByRole('button', { name: 'See my offers' }));
}

/** On the office's device: staff type who and how much, then the rest of the form is filled and sent. */
async function staffTypesAndPrequalifies(page: Page, b: Borrower): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Pre-qualify for financing' })).toBeVisible();
  await page.getByLabel('First Name').fill(b.first);
  await page.getByLabel('Last Name').fill(b.last);
  await page.getByLabel('Mobile Phone').pressSequentially(b.phone.replace(/\D/g, ''));
  await page.getByLabel('Estimated Treatment Amount').fill(b.amount);
  await prequalify(page, b);
}

/** The match page lists every lender's offers; go to one lender's own offers page. */
async function chooseLender(page: Page, lenderName: string): Promise<void> {
  await expect(page.getByRole('heading', { name: 'You are pre-qualified' })).toBeVisible({ timeout: 20_000 });
  await expect(page.locator('[data-screen="table"][data-ready]').first()).toBeVisible();
  const lenders = await page.locator('[data-screen="table"] tbody tr td:first-child').allTextContents();
  expect(new Set(lenders).size, 'offers from at least three lenders').toBeGreaterThanOrEqual(3);
  await shot(page, 'match');
  const see = page.getByRole('button', { name: `See ${lenderName} offers` }).first();
  const width = page.viewportSize()!.width;
  if (width < 600) {
    // On a phone the offers are cards: every term and the button fit the screen, nothing scrolls sideways.
    const table = page.locator('[data-screen="table"] table').first();
    expect(await table.evaluate((t) => t.parentElement!.scrollWidth <= t.parentElement!.clientWidth)).toBe(true);
    await see.scrollIntoViewIfNeeded();
    const box = (await see.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(width);
    await expect(table.locator('tbody tr').first().locator('td[data-label="APR"]')).toBeVisible();
  }
  await act(page).press(see);
  await expect(page.getByRole('heading', { name: `Your offers from ${lenderName}` })).toBeVisible();
}

/** One lender's offers (its own columns, APR with 3 decimals, currency with 2), the first plan chosen and confirmed. */
async function selectFirstOffer(page: Page): Promise<void> {
  const table = page.locator('[data-screen="table"]').first();
  await expect(table.getByRole('columnheader', { name: 'APR' })).toBeVisible();
  const firstRow = table.locator('tbody tr').first();
  await expect(firstRow).toContainText(/\d+\.\d{3}%/);
  await expect(firstRow).toContainText(/\$\d{1,3}(,\d{3})*\.\d{2}/);
  await expect(page.getByRole('heading', { name: 'Disclosures' })).toBeVisible();
  await shot(page, 'offers');
  const hands = act(page);
  await hands.press(firstRow.getByRole('button', { name: 'Choose' }));
  await expect(page.getByRole('heading', { name: 'Confirm your offer' })).toBeVisible();
  const card = page.locator('[data-confirm-card]');
  await expect(card).toBeVisible();
  await hands.press(page.getByRole('button', { name: 'Confirm my choice' }));
  // The checkbox confirmation card must be ticked; the error is said at the box, which has the focus.
  await expect(page.locator('[data-error-for="root_agreeToTerms"]')).toHaveText('This field is required.');
  if (KEYBOARD_PAGES.has(page)) await expect(card.getByRole('checkbox')).toBeFocused();
  await hands.check(card.getByRole('checkbox'));
  await shot(page, 'select');
  await hands.press(page.getByRole('button', { name: 'Confirm my choice' }));
}

async function congratsToDocuments(page: Page): Promise<void> {
  await expect(page.getByRole('heading', { name: /^Congratulations/ })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText('Monthly payment')).toBeVisible();
  await shot(page, 'congrats');
  await act(page).press(page.getByRole('button', { name: 'Continue to my loan documents' }));
}

async function consent(page: Page): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Consent to electronic records and signatures' })).toBeVisible({ timeout: 15_000 });
  // The 15 USC 7001(c) disclosures are shown before the consent.
  await expect(page.getByText(/paper/i).first()).toBeVisible();
  await shot(page, 'consent');
  // The test document shows the borrower can open PDF records (15 USC 7001(c)(1)(C)(ii)): its code is typed to consent.
  const [testDocument] = await Promise.all([page.waitForEvent('download'), act(page).press(page.getByRole('button', { name: 'Open the test document' }))]);
  const code = await testDocumentCodeIn(readFileSync((await testDocument.path())!));
  await act(page).type(page.getByLabel('Code in the test document'), code);
  await act(page).check(page.getByRole('checkbox', { name: 'I have read this notice and I consent to electronic records and signatures.' }));
  await act(page).press(page.getByRole('button', { name: 'I consent' }));
}

/** The identity questions: the right answers are what the borrower entered. */
async function answerKba(page: Page, b: Borrower): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Confirm your identity' })).toBeVisible({ timeout: 15_000 });
  const quiz = page.locator('[data-kba]');
  await expect(quiz.locator('fieldset')).toHaveCount(4);
  for (const answer of [b.streetName, b.city, b.dob.slice(-4), b.zip]) await act(page).pick(quiz.getByRole('radio', { name: answer, exact: true }));
  await shot(page, 'kba');
  await act(page).press(page.getByRole('button', { name: 'Submit my answers' }));
}

/** A wrong first try at the identity questions: a toast says so and new questions come (two attempts). */
async function failKbaOnce(page: Page, b: Borrower): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Confirm your identity' })).toBeVisible({ timeout: 15_000 });
  const quiz = page.locator('[data-kba]');
  // The questions are the form's fields, drawn after the page's heading and intro (decision 0247).
  await expect(quiz.locator('fieldset')).toHaveCount(4);
  const right = [b.streetName, b.city, b.dob.slice(-4), b.zip];
  for (const fieldset of await quiz.locator('fieldset').all()) {
    const labels = (await fieldset.locator('label').allTextContents()).map((l) => l.trim());
    expect(labels).toHaveLength(4);
    await fieldset.getByRole('radio', { name: labels.find((l) => !right.includes(l))!, exact: true }).check();
  }
  await page.getByRole('button', { name: 'Submit my answers' }).click();
  await expect(page.getByText(/Some answers did not match our records/)).toBeVisible();
}

/** Types the name, draws a signature on the pad, ticks the agreement and signs. */
async function sign(page: Page, b: Borrower): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Your loan', exact: true })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole('button', { name: 'Read the loan agreement (PDF)' })).toBeVisible();
  // The federal box before signing (Reg Z §1026.18), the APR and the finance charge first and in bold.
  await expect(page.getByRole('heading', { name: 'Federal Truth in Lending disclosures' })).toBeVisible();
  for (const term of ['Annual percentage rate', 'Finance charge']) {
    const value = page.locator(`xpath=//dt[normalize-space()="${term}"]/following-sibling::dd[1]`);
    await expect(value).toHaveCSS('font-weight', '700');
  }
  await expect(page.getByText(/^Payment schedule: \d+ monthly payments of \$[\d,]+\.\d\d, starting month 1\.$/)).toBeVisible();
  const hands = act(page);
  await hands.type(page.getByLabel('Type your full name'), `${b.first} ${b.last}`);
  if (KEYBOARD_PAGES.has(page)) {
    // Without a pointer, the name typed under the pad is the signature.
    await hands.type(page.getByPlaceholder('Or type your name to sign'), `${b.first} ${b.last}`);
  } else {
    const pad = page.getByRole('img', { name: 'Signature pad' });
    await pad.scrollIntoViewIfNeeded();
    const box = (await pad.boundingBox())!;
    await page.mouse.move(box.x + 30, box.y + box.height * 0.6);
    await page.mouse.down();
    for (const [dx, dy] of [[60, -30], [110, 10], [160, -25], [220, 15], [280, -10]] as const) await page.mouse.move(box.x + dx, box.y + box.height * 0.5 + dy, { steps: 4 });
    await page.mouse.up();
  }
  await expect(page.getByText('Signature ready.')).toBeVisible();
  await hands.check(page.getByRole('checkbox', { name: 'I have read the loan agreement and I agree to its terms.' }));
  await shot(page, 'sign');
  await hands.press(page.getByRole('button', { name: 'Sign the agreement' }));
  await expect(page.getByText('Your loan agreement is signed.').first()).toBeVisible({ timeout: 15_000 });
}

/** The borrower's end page says where the loan is in the borrower's words, not the office's ('Signed: ready to finalize'). */
async function borrowerWords(page: Page): Promise<void> {
  await expect(page.getByText('Signed: the office finalizes your loan')).toBeVisible();
  await expect(page.getByText(/ready to finalize/i)).toHaveCount(0);
}

/** The office's page followed the borrower without a reload; the signed PDF is downloaded from it (Files_GetContent). */
async function officeDownloadsSignedPdf(page: Page, appId: number): Promise<void> {
  expect(hashOf(page)).toBe(`/app/${appId}`);
  await expect(page.getByText('Ready to finalize', { exact: true })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText('Signed: ready to finalize')).toBeVisible();
  const status = page.locator('[data-chip]').first();
  await expect(status).toHaveText('Action Required');
  const row = page.locator('[data-screen="table"] tbody tr').filter({ hasText: 'Signed loan agreement' });
  await expect(row).toHaveCount(1, { timeout: 15_000 });
  await shot(page, 'office');
  const [download] = await Promise.all([page.waitForEvent('download'), row.getByRole('button', { name: 'Download' }).click()]);
  expect(download.suggestedFilename()).toBe(`loan-agreement-${appId}-signed.pdf`);
  const bytes = readFileSync((await download.path())!);
  expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  expect(bytes.length).toBeGreaterThan(2_000);
}

/** What the gsky borrower's office hears, in this order, each once: the preset events and those ticked beyond them. */
const HEARD = ['application.created', 'application.link_sent', 'application.link_opened', 'application.prequalified', 'application.offer_selected', 'application.identity_passed', 'application.signed'];
const TICKED = ['Application link sent', 'Application link opened', 'Offer selected', 'Identity questions passed'];

test('gsky: link → prequal → offers for another amount → select → congrats → agmt (consent, KBA, signature) → cta; the office downloads the signed PDF and its software heard each step', async ({ page, browser }) => {
  const b = borrower('Rivera');
  await signIn(page, OFFICE_ADMIN, /^\/home$/);
  // The office's practice software listens for its events (issue 39): down when the link is sent, up again later.
  const receiver = await startReceiver();
  const secret = await addWebhook(page, receiver.url, { description: 'Front desk software', events: TICKED });
  await receiver.stop();
  await page.goto('/#/home');
  const { appId, link } = await sendTextLink(page, b);
  const office = page;
  // Sent, not yet filled in: the list says so, as the details do (issue 37), and offers nothing to resubmit.
  await expect(office.locator('[data-chip]').first()).toHaveText('Waiting for the Borrower');
  // The link can be sent again in one click, but not twice in a minute: the page says why, where it was clicked.
  await office.getByRole('button', { name: 'Send the link again' }).click();
  await expect(office.getByText('A link was sent less than a minute ago. Give the borrower a moment to receive it.')).toBeVisible();

  const { context, page: phone } = await borrowerPage(browser);
  // This borrower has no pointer: every step by keyboard alone, with the focus in sight (issue 19, WCAG 2.1.1, 2.4.7).
  byKeyboard(phone);
  await phone.goto(link);
  // The link is exchanged for a borrower session and lands on the form of this application, in the office layout.
  await expect.poll(() => hashOf(phone), { timeout: 20_000 }).toBe(`/app/prequal/${appId}`);
  await expect(phone.locator('[data-office-name]')).toContainText('Bright Smiles Dental');
  await expect(phone.locator('[data-office-name]')).toContainText('#');
  await expect(phone.locator('[data-layout="office"] header')).toContainText('(512) 555-0142');
  await expect(phone.locator('[data-layout="office"] header')).toContainText('Austin');
  await prequalify(phone, b);
  await receiver.start();
  await chooseLender(phone, 'GreenSky');
  // The office sees the offers without reloading its page.
  await expect(office.locator('[data-chip]').first()).toHaveText('Offers Available', { timeout: 15_000 });

  // GetOffers with another amount: the plans are priced again.
  await act(phone).press(phone.getByRole('button', { name: /^Filter/ }));
  await act(phone).type(phone.getByLabel('Amount to finance'), '3000');
  const repriced = phone.waitForResponse((r) => r.url().includes(`/api/App/GetOffers/${appId}?amount=3000`));
  await act(phone).press(phone.getByRole('button', { name: 'Apply' }));
  expect((await repriced).status()).toBe(200);
  await expect(phone.locator('[data-screen="table"] tbody tr').first()).toContainText('$3,000.00');
  // A deferred-interest plan says, beside its monthly payment, the interest charged from the start date if it is not
  // paid in full within the promotion (decision 0236): the one credit calculation's figure.
  const promo = phone.locator('[data-screen="table"] tbody tr', { hasText: '12 Months No Interest if Paid in Full' });
  const unpaid = disclose(creditTermsOf({ productType: 'DeferredInterest', amountCents: 300_000, feeCents: 0, apr: 26.99, term: 24, promoTerm: 12 })!).promotion!.interestIfUnpaidCents;
  await expect(phone.getByRole('columnheader', { name: 'Interest if not paid in promo' })).toBeVisible();
  await expect(promo).toContainText(`$${(unpaid / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })}`);
  // A plan without a promotion has none: its cell is empty, not $0.00.
  await expect(phone.locator('[data-screen="table"] tbody tr', { hasText: '60-Month Fixed Payment Plan' })).not.toContainText('$0.00');
  await selectFirstOffer(phone);
  await congratsToDocuments(phone);
  await expect.poll(() => hashOf(phone), { timeout: 15_000 }).toBe(`/app/gsky/agmt/${appId}`);
  await consent(phone);
  await answerKba(phone, b);
  // The signing part reports that the borrower is reading the agreement (App_UpdateContractStatus); the office sees it.
  await expect(office.getByText('Agreement presented', { exact: true })).toBeVisible({ timeout: 15_000 });
  await expect(office.getByText('Borrower is reading the loan agreement')).toBeVisible();
  // A deferred-interest plan says, where the borrower signs, how long the promotion is, what pays it off and what
  // happens if it is not paid in full (issue 19): $3,000 over 12 months is $250.00 a month.
  await expect(phone.getByRole('heading', { name: 'No interest if paid in full within 12 months' })).toBeVisible({ timeout: 15_000 });
  await expect(phone.getByText(/^Pay \$250\.00 a month to pay the amount in full within 12 months, and no interest is charged\. If it is not paid in full within 12 months, interest at 26\.990% APR is charged from the start date: \$[\d,]+\.\d\d with the scheduled payments above\.$/)).toBeVisible();
  await sign(phone, b);
  await expect.poll(() => hashOf(phone), { timeout: 15_000 }).toBe(`/app/gsky/cta/${appId}`);
  await expect(phone.getByRole('heading', { name: "You're all set" })).toBeVisible();
  await borrowerWords(phone);
  await shot(phone, 'cta');
  const [mine] = await Promise.all([phone.waitForEvent('download'), phone.getByRole('button', { name: 'Download my signed agreement' }).click()]);
  expect(mine.suggestedFilename()).toBe(`loan-agreement-${appId}-signed.pdf`);
  await context.close();

  await officeDownloadsSignedPdf(office, appId);
  await softwareHeardEachStep(office, receiver, secret, appId);
});

/**
 * Each chosen event of the application reached the receiver once, in order and signed — the first ones after it came
 * back up (they waited, and the rest of the application's waited behind them); one sent again from the delivery log
 * arrives again with its id. The endpoint is then deleted: the office's other tests are none of its business.
 */
async function softwareHeardEachStep(office: Page, receiver: Receiver, secret: string, appId: number): Promise<void> {
  const mine = (post: Receiver['received'][number]) => (JSON.parse(post.body) as { appId: number | null }).appId === appId;
  const heard = await receiver.waitFor(HEARD.length, 90_000, mine);
  expect(heard.map((post) => (JSON.parse(post.body) as { type: string }).type)).toEqual(HEARD);
  expect(new Set(heard.map((post) => post.headers['webhook-id'])).size).toBe(HEARD.length);
  expect(heard.every((post) => signedBy(secret, post))).toBe(true);

  await office.goto('/#/settings/integrations');
  await tableRow(office, receiver.url).getByRole('button', { name: 'Deliveries' }).click();
  await office.getByRole('button', { name: 'Filter' }).click();
  await office.getByLabel('App ID').fill(String(appId));
  await office.getByRole('button', { name: 'Apply' }).click();
  await expect(office.locator('main [data-screen="table"] tbody tr')).toHaveCount(HEARD.length);
  // The first event was tried while the receiver was down and again once it was up; the next waited its turn.
  const attempts = async (event: string) => Number(await tableRow(office, event).locator('td').nth(4).innerText());
  await expect(tableRow(office, 'Application created')).toContainText('Delivered');
  expect(await attempts('Application created')).toBeGreaterThan(1);
  expect(await attempts('Application link sent')).toBe(1);
  await tableRow(office, 'Loan agreement signed').getByRole('button', { name: 'Send again' }).click();
  const again = await receiver.waitFor(HEARD.length + 1, 15_000, mine);
  expect(again.at(-1)!.headers['webhook-id']).toBe(heard.at(-1)!.headers['webhook-id']);
  // A time range (the last half hour, where the office is) sends every event of it again, each with its id.
  const localMinute = (ms: number) =>
    office.evaluate((offset) => {
      const at = new Date(Date.now() + offset);
      return new Date(at.getTime() - at.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
    }, ms);
  await office.getByRole('button', { name: 'Send again a time range' }).click();
  const range = office.getByRole('dialog', { name: 'Send again what happened in a time range' });
  // A range in which nothing happened is refused in words, in the dialog.
  await range.getByLabel(/^From/).fill('2001-01-01T10:00');
  await range.getByLabel(/^To/).fill('2001-01-01T11:00');
  await range.getByRole('button', { name: 'Send again' }).click();
  await expect(range.getByText('Nothing this endpoint was sent happened in that time range.')).toBeVisible();
  await range.getByLabel(/^From/).fill(await localMinute(-30 * 60_000));
  await range.getByLabel(/^To/).fill(await localMinute(60_000));
  await range.getByRole('button', { name: 'Send again' }).click();
  await expect(office.getByText(/^Events being sent again: \d+\. Each keeps its event id, so the software handles it once\.$/)).toBeVisible();
  const replayed = (await receiver.waitFor(2 * HEARD.length + 1, 30_000, mine)).slice(HEARD.length + 1);
  expect(replayed.map((post) => post.headers['webhook-id'])).toEqual(heard.map((post) => post.headers['webhook-id']));
  await deleteWebhook(office, receiver.url);
  await receiver.close();
}

test('ally: a used link leads to the passcode; esign (consent, KBA with a second try) then a separate sign page', async ({ page, browser }) => {
  const b = borrower('Nguyen');
  await signIn(page, OFFICE_ADMIN, /^\/home$/);
  const { appId, link } = await sendTextLink(page, b);

  // First visit: the link opens the form; the borrower leaves without submitting.
  const first = await borrowerPage(browser);
  await first.page.goto(link);
  await expect.poll(() => hashOf(first.page), { timeout: 20_000 }).toBe(`/app/prequal/${appId}`);
  await first.context.close();

  // Back later on another device: the link is spent, so a passcode from the outbox signs the borrower in.
  const { context, page: phone } = await borrowerPage(browser);
  await phone.goto(link);
  await expect(phone.getByText('This link has already been used or has expired.')).toBeVisible({ timeout: 20_000 });
  await phone.getByRole('button', { name: 'Text me a passcode' }).click();
  await enterPasscode(phone, b.phone);
  await expect.poll(() => hashOf(phone), { timeout: 20_000 }).toBe(`/app/prequal/${appId}`);

  await prequalify(phone, b);
  await chooseLender(phone, 'Ally Lending');
  await selectFirstOffer(phone);
  await congratsToDocuments(phone);
  await expect.poll(() => hashOf(phone), { timeout: 15_000 }).toBe(`/app/ally/esign/${appId}`);
  await consent(phone);

  await failKbaOnce(phone, b);
  await answerKba(phone, b);

  // Ally signs on a page of its own.
  await expect.poll(() => hashOf(phone), { timeout: 15_000 }).toBe(`/app/ally/sign/${appId}`);
  await sign(phone, b);
  await expect.poll(() => hashOf(phone), { timeout: 15_000 }).toBe(`/app/borrower/${appId}`);
  await expect(phone.getByText('Your loan documents are signed.')).toBeVisible();
  await borrowerWords(phone);
  await context.close();

  await officeDownloadsSignedPdf(page, appId);
});

test('powerpay on a phone: offers as cards; consent, KBA (a second try) and signature on its sign page; the borrower ends on the summary', async ({ page, browser }) => {
  const b = borrower('Okafor');
  await signIn(page, OFFICE_ADMIN, /^\/home$/);
  const { appId, link } = await sendTextLink(page, b);

  const { context, page: phone } = await borrowerPage(browser, PHONE);
  await phone.goto(link);
  await prequalify(phone, b);
  await chooseLender(phone, 'PowerPay');
  await selectFirstOffer(phone);
  await congratsToDocuments(phone);
  await expect.poll(() => hashOf(phone), { timeout: 15_000 }).toBe(`/app/powerpay/sign/${appId}`);
  await consent(phone);
  // The questions and the signature share this page: the first try's toast stays while the borrower is on it …
  await failKbaOnce(phone, b);
  await answerKba(phone, b);
  await sign(phone, b);
  await expect.poll(() => hashOf(phone), { timeout: 15_000 }).toBe(`/app/borrower/${appId}`);
  // … and ends with it: the summary shows the signing's toast, not '… 1 try left.' (well within its 10 seconds).
  await expect(phone.getByText('Your loan agreement is signed.')).toBeVisible();
  await expect(phone.getByText(/try left/)).toHaveCount(0);
  // 'Open my documents' lists the borrower's records as they saw them (App_GetMyDocuments, decision 0220): the signed
  // agreement and the ESIGN consent; each opens by a short-lived link's token.
  await phone.getByRole('button', { name: 'Open my documents' }).click();
  const documents = phone.getByRole('dialog', { name: 'My documents' });
  await expect(documents.getByRole('cell', { name: 'Consent to electronic records' })).toBeVisible();
  const opened = phone.waitForResponse((r) => r.url().includes('/api/Files/GetContentByLink/'));
  const saved = phone.waitForEvent('download');
  await documents.getByRole('row', { name: /Signed loan agreement/ }).getByRole('button', { name: 'Open' }).click();
  const pdf = await opened;
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()['content-type']).toBe('application/pdf');
  expect((await saved).suggestedFilename()).toBe(`loan-agreement-${appId}-signed.pdf`);
  await context.close();

  await officeDownloadsSignedPdf(page, appId);
});

test("upg: the lender hosts the documents; the borrower signs on the sandbox lender's own site and comes back to the portal", async ({ page, browser }) => {
  const b = borrower('Lindqvist');
  await signIn(page, OFFICE_ADMIN, /^\/home$/);
  const { appId, link } = await sendTextLink(page, b);
  const { context, page: phone } = await borrowerPage(browser);
  await phone.goto(link);
  await prequalify(phone, b);
  await chooseLender(phone, 'Upgrade');
  // Upgrade has no select step of its own: the plan is confirmed on its offers page.
  await phone.locator('[data-screen="table"]').first().locator('tbody tr').first().getByRole('button', { name: 'Choose' }).click();
  await phone.getByRole('checkbox', { name: 'I choose this Upgrade plan' }).check();
  await phone.getByRole('button', { name: 'Confirm my choice' }).click();
  await expect.poll(() => hashOf(phone), { timeout: 15_000 }).toBe(`/app/borrower/${appId}`);
  await expect(phone.getByText('Upgrade completes your loan on its own site.')).toBeVisible();
  // The lender's own view of the application (App_GetLenderApp): its number there, its decision in words, its address.
  const read = phone.waitForResponse((r) => r.url().includes(`/api/App/GetLenderApp/${appId}`));
  await phone.getByRole('button', { name: "Continue on Upgrade's site" }).click();
  const lenderApp = (await (await read).json()) as { lenderAppId: string; lenderAppUrl: string };
  const dialog = phone.getByRole('dialog', { name: 'Continue with Upgrade' });
  await expect(dialog).toContainText(lenderApp.lenderAppId);
  await expect(dialog).toContainText('Approved');
  await shot(phone, 'lender-app');
  // The address exists: the sandbox lender's own pages, served by the portal's server (decision 0191).
  await dialog.getByRole('button', { name: "Go to Upgrade's site" }).click();
  await expect.poll(() => phone.url()).toBe(lenderApp.lenderAppUrl);
  await expect(phone.getByRole('heading', { name: `Your application ${lenderApp.lenderAppId}` })).toBeVisible();
  await expect(phone.getByText(`Hello ${b.first}. You are approved`)).toBeVisible();
  await shot(phone, 'lender-site');
  await phone.getByRole('link', { name: 'Review and sign' }).click();
  await expect(phone.getByRole('heading', { name: 'Sign your loan agreement' })).toBeVisible();
  await phone.getByLabel('Type your full name').fill(`${b.first} ${b.last}`);
  await phone.getByLabel('I have read the loan agreement and I agree to its terms.').check();
  await phone.getByRole('button', { name: 'Sign with Upgrade' }).click();
  // The lender reports the signature (a signed callback) and sends the borrower back to the portal's summary.
  await expect.poll(() => hashOf(phone), { timeout: 15_000 }).toBe(`/app/borrower/${appId}`);
  await expect(phone.getByText('Your loan documents are signed.')).toBeVisible({ timeout: 15_000 });
  await borrowerWords(phone);
  await context.close();
  // The office sees it ready to finalize, signed at the lender.
  await expect(page.getByText('Ready to finalize', { exact: true })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText('Signed at the lender: ready to finalize')).toBeVisible();
});

test("decline: last name 'Decline' gets no offer from any lender (the nomatch page)", async ({ page, browser }) => {
  const b = borrower('Decline');
  await signIn(page, OFFICE_ADMIN, /^\/home$/);
  const { appId, link } = await sendTextLink(page, b);
  const { context, page: phone } = await borrowerPage(browser);
  await phone.goto(link);
  const email = `jamie.decline.${Date.now()}@example.com`;
  await expect(phone.getByLabel('Email')).toBeVisible({ timeout: 20_000 });
  await phone.getByLabel('Email').fill(email);
  await prequalify(phone, b);
  await expect.poll(() => hashOf(phone), { timeout: 20_000 }).toBe(`/app/prequal/nomatch?id=${appId}`);
  await expect(phone.getByRole('heading', { name: 'No offers right now' })).toBeVisible();
  await expect(phone.getByText('We could not find an offer for this application at this time.')).toBeVisible();
  // One adverse-action notice names every lender that declined, with its reason and the borrower's rights (issue 19):
  // e-mailed once, and on this page as it was sent.
  const notices = (await outbox(phone, email)).filter((m) => m.subject?.endsWith("the lenders' decisions"));
  expect(notices).toHaveLength(1);
  await expect(phone.getByRole('heading', { name: "Notice of the lenders' decisions" })).toBeVisible();
  // Each creditor by name, postal address and phone (Reg B §1002.9(a)(2)).
  const named = [...notices[0]!.body.matchAll(/^- [^,\n]+, \d+ [^,\n]+(, [^,\n]+)*, [A-Z]{2} \d{5}, \(\d{3}\) \d{3}-\d{4}\./gm)].map((m) => m[0]);
  expect(named.length, 'every lender the office offers declined the name Decline').toBeGreaterThanOrEqual(3);
  const shown = await phone.locator('[data-screen="detail"]').innerText();
  for (const line of named) expect(shown).toContain(line);
  await expect(phone.getByText(/Equal Credit Opportunity Act/)).toBeVisible();
  await shot(phone, 'nomatch');
  await context.close();
  await expect(page.getByText('Declined', { exact: true })).toBeVisible({ timeout: 15_000 });
  await expect(page.locator('[data-chip]').first()).toHaveText('Inactive');
});

test("pending: last name 'Pending' goes to manual review", async ({ page, browser }) => {
  const b = borrower('Pending');
  await signIn(page, OFFICE_ADMIN, /^\/home$/);
  const { appId, link } = await sendTextLink(page, b);
  const { context, page: phone } = await borrowerPage(browser);
  await phone.goto(link);
  await prequalify(phone, b);
  await expect.poll(() => hashOf(phone), { timeout: 20_000 }).toBe(`/app/prequal/nomatch?id=${appId}`);
  await expect(phone.getByRole('heading', { name: 'Your application is under review' })).toBeVisible();
  await context.close();
  await expect(page.getByText('In review', { exact: true })).toBeVisible({ timeout: 15_000 });
  await expect(page.locator('[data-chip]').first()).toHaveText('Action Required');
});

test('a borrower in a state a lender does not serve never reaches it: West Virginia, without Ally Lending (issue 19)', async ({ page }) => {
  const b = { ...borrower('Kanawha'), street: '12 Kanawha Blvd', streetName: 'Kanawha Blvd', city: 'Charleston', state: 'West Virginia', zip: '25301' };
  await signIn(page, OFFICE_ADMIN, /^\/home$/);
  await page.getByRole('button', { name: 'New Application' }).click();
  await page.getByRole('dialog', { name: 'How would you like to apply?' }).getByRole('button', { name: 'On this device' }).click();
  await staffTypesAndPrequalifies(page, b);
  await expect(page.getByRole('heading', { name: 'You are pre-qualified' })).toBeVisible({ timeout: 20_000 });
  await expect(page.locator('[data-screen="table"][data-ready]').first()).toBeVisible();
  const lenders = new Set(await page.locator('[data-screen="table"] tbody tr td:first-child').allTextContents());
  expect(lenders.size, 'the other lenders answered').toBeGreaterThanOrEqual(3);
  expect([...lenders]).not.toContain('Ally Lending');
});

test('on this device: the office fills the form (id 0), the borrower takes over with a passcode at the desk', async ({ page }) => {
  const b = borrower('Castillo');
  await signIn(page, OFFICE_ADMIN, /^\/home$/);
  // The desk's Home has read its list: TanStack Query holds that answer as fresh for 30 s.
  await expect(page.locator('main [data-screen="table"][data-ready]').first()).toBeVisible({ timeout: 15_000 });
  const homeReadAt = Date.now();
  await page.getByRole('button', { name: 'New Application' }).click();
  await page.getByRole('dialog', { name: 'How would you like to apply?' }).getByRole('button', { name: 'On this device' }).click();
  await expect.poll(() => hashOf(page)).toBe('/app/prequal/0');
  // The office layout's header shows the signed-in office.
  await expect(page.locator('[data-office-name]')).toContainText('Bright Smiles Dental');
  await staffTypesAndPrequalifies(page, b);
  await expect.poll(() => hashOf(page), { timeout: 20_000 }).toMatch(/^\/app\/prequal\/match\?id=\d+$/);
  const appId = Number(hashOf(page).split('=')[1]);
  await expect(page.getByRole('heading', { name: 'You are pre-qualified' })).toBeVisible();
  // Back at Home without a reload, the new application is listed: the submit refreshed the lists it changed (within
  // the 30 s a list stays fresh, so a stale copy would still be shown).
  await page.evaluate(() => (window.location.hash = '/home'));
  await expect(page.locator('main').getByRole('link', { name: String(appId), exact: true })).toBeVisible();
  expect(Date.now() - homeReadAt, 'Home was read less than 30 s ago').toBeLessThan(30_000);
  await page.evaluate((id) => (window.location.hash = `/app/prequal/match?id=${id}`), appId);
  await expect(page.getByRole('heading', { name: 'You are pre-qualified' })).toBeVisible();
  // The offers are the borrower's: the borrower signs in with a passcode sent to their phone.
  await page.getByRole('button', { name: 'See PowerPay offers' }).first().click();
  await expect.poll(() => hashOf(page)).toBe(`/app/auth/${appId}`);
  // Sending the passcode hands the device over at once, before the patient types it (issue 37).
  const handOver = page.waitForResponse((r) => new URL(r.url()).pathname === '/oidc/hand-over');
  await page.getByRole('button', { name: 'Text me a passcode' }).click();
  expect((await handOver).status(), 'the provider ended the staff session of this browser').toBe(204);
  await enterPasscode(page, b.phone);
  await expect(page.getByRole('heading', { name: 'You are pre-qualified' })).toBeVisible({ timeout: 20_000 });
  await page.getByRole('button', { name: 'See PowerPay offers' }).first().click();
  await expect(page.getByRole('heading', { name: 'Your offers from PowerPay' })).toBeVisible();

  // The device is now the patient's (issue 19): no staff screen opens, and the provider asks for the password again
  // rather than signing staff in on its own session.
  const apiCalls: string[] = [];
  const authorize: URL[] = [];
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.pathname.match(/^\/api\/(App\/GetOfficeApps|User\/GetUserInfo)/)) apiCalls.push(r.url());
    if (url.searchParams.has('client_id') && url.searchParams.has('code_challenge')) authorize.push(url);
  });
  await page.evaluate(() => (window.location.hash = '/home'));
  await expect(page.getByLabel('Password')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByLabel('Email')).toBeVisible();
  expect(authorize.map((url) => url.searchParams.get('prompt'))).toEqual(['login']);
  expect(apiCalls, 'no office data was asked for as the patient').toEqual([]);
  // A sign-in request made by hand, without prompt=login, finds no provider session either (decision 0232).
  const byHand = new URL(authorize[0]!);
  byHand.searchParams.delete('prompt');
  const answer = await page.request.get(byHand.href);
  expect(new URL(answer.url()).pathname, 'the provider shows its sign-in page').toMatch(/^\/oidc\/interaction\//);
  expect(await answer.text()).toContain('Password');
  // The staff member signs in again and is back at work.
  await page.getByLabel('Email').fill(OFFICE_ADMIN);
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect.poll(() => hashOf(page), { timeout: 30_000 }).toBe('/home');
  await expect(page.locator('main').getByRole('link', { name: String(appId), exact: true })).toBeVisible({ timeout: 15_000 });
});
