/**
 * Every lender's borrower journey in every language, generated from the data (issue 37): for each file of
 * screens/lenders/ and each of screens/languages/, the office texts a link in the patient's language to a patient of an
 * office that offers the lender; the patient opens it on a browser of its own, pre-qualifies, goes to that lender's
 * offers and walks the steps its `journey` names, in their order — choosing, confirming, consenting, answering the
 * identity questions and signing on the steps the file assigns them, or on the lender's own site when the lender hosts
 * the signing — and ends signed. Every step's page is in the patient's language. A lender or a language added as a
 * file is walked here with no code; a step this walker does not know fails the test by name.
 *
 * journey.spec.ts walks the variations by hand (keyboard alone, a phone, a spent link, a second try at the questions,
 * the office's side); this spec walks the breadth.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import type { operations } from '../codegen/generated/api.ts';
import type { LenderDescriptor, RoutesDescriptor } from '../codegen/generated/descriptors.ts';
import { screensFile } from '../core/descriptors/read.ts';
import { buildRouteTable, type RouteEntry } from '../src/engine/routing.ts';
import { hashOf, outbox } from './support/borrower.ts';
import { signIn } from './support/session.ts';
import { languages, type Language } from './support/words.ts';
import { testDocumentCodeIn } from '../tests/support/pdf-text.ts';

test.use({ ignoreHTTPSErrors: true });
test.describe.configure({ timeout: 180_000 });

const LENDERS = readdirSync(new URL('../screens/lenders/', import.meta.url))
  .filter((f) => f.endsWith('.json'))
  .map((f) => screensFile<LenderDescriptor>(`lenders/${f}`));
const TABLE = buildRouteTable(screensFile<RoutesDescriptor>('routes.json'), LENDERS);
/** Where the borrower walks from: the lender's offers, which the match page's button opens. */
const FIRST_STEP = 'offers';

/** The step of `lender` whose route the hash is on, if any: of the routes it fits, the one with the fewest parameters (`offers/select` before `offers/:id?`). */
function stepOf(lender: LenderDescriptor, hash: string): string | undefined {
  const path = hash.split('?')[0]!;
  const fits = (entry: RouteEntry) =>
    new RegExp(`^${entry.path.replace(/\/:(\w+)\?/g, '(?:/[^/]+)?').replace(/\/:(\w+)/g, '/[^/]+')}$`).test(path);
  const params = (entry: RouteEntry) => entry.path.split(':').length;
  return TABLE.filter((entry) => entry.flow?.code === lender.code && fits(entry)).sort((a, b) => params(a) - params(b))[0]?.flow?.step;
}

interface Borrower {
  first: string;
  last: string;
  phone: string;
  streetName: string;
  city: string;
  zip: string;
  dob: string;
}

let sequence = 0;
/** A Texas patient every lender approves (income 60,000 for 4,500), on a mobile phone no other test uses. */
function borrower(): Borrower {
  const digits = String((Date.now() + sequence++ * 7919) % 10_000_000).padStart(7, '0');
  return { first: 'Lucía', last: 'Peña', phone: `(737) ${digits.slice(0, 3)}-${digits.slice(3)}`, streetName: 'Juniper Hollow Trl', city: 'Round Rock', zip: '78664', dob: '04/12/1984' };
}

/** The office side, by the API the office's screens call: a staff page signed in once, its bearer token, its offices' lenders. */
interface Office {
  page: Page;
  headers: Record<string, string>;
  officeOf: Map<string, number>;
}

/**
 * Reloads the staff page and takes what its API calls carry: the bearer token of its next call (the app renews it
 * before it expires) and the web app's API key from the page's configuration.
 */
async function staffHeaders(page: Page): Promise<Record<string, string>> {
  const call = page.waitForRequest((r) => new URL(r.url()).pathname.startsWith('/api/') && !!r.headers()['authorization']);
  await page.reload();
  const config = JSON.parse((await page.locator('meta[name="pos-config"]').getAttribute('content')) ?? '{}') as { apiKey?: string };
  return { authorization: (await call).headers()['authorization']!, 'x-api-key': config.apiKey ?? '' };
}

type Answer<K extends keyof operations> = operations[K] extends { responses: { 200: { content: { 'application/json': infer T } } } } ? T : never;

/** An API call as the staff page makes it, on the page's origin. */
async function api<T>(page: Page, headers: Record<string, string>, method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const response = await page.request.fetch(new URL(path, page.url()).href, { method, headers: { ...headers, 'idempotency-key': randomUUID() }, data: body });
  expect(response.status(), `${method} ${path}: ${await response.text()}`).toBe(200);
  return (await response.json()) as T;
}

let office: Office;

test.beforeAll(async ({ browser }) => {
  const page = await (await browser.newContext({ ignoreHTTPSErrors: true })).newPage();
  await signIn(page, 'office.admin@demo.test', /^\/home$/);
  const headers = await staffHeaders(page);
  const officeOf = new Map<string, number>();
  const offices = await api<Answer<'Office_GetUserOffices'>>(page, headers, 'GET', '/api/Office/GetUserOffices/-1/1');
  for (const { officeId: id, isApproved } of offices.results) {
    if (!isApproved) continue;
    for (const lender of await api<Answer<'Office_GetLenders'>>(page, headers, 'GET', `/api/Office/GetLenders/${id}/true`)) {
      if (lender.code && !officeOf.has(lender.code)) officeOf.set(lender.code, id);
    }
  }
  office = { page, headers, officeOf };
});

test.afterAll(async () => office?.page.context().close());

/** The office texts a link in the patient's language; answers the application id and the link from the outbox. */
async function textLink(lender: LenderDescriptor, language: Language, b: Borrower): Promise<{ appId: number; link: string }> {
  const officeId = office.officeOf.get(lender.code);
  expect(officeId, `an office of office.admin@demo.test offers ${lender.name}`).toBeDefined();
  office.headers = await staffHeaders(office.page);
  const sent = await api<Answer<'App_SendApp'>>(office.page, office.headers, 'POST', '/api/App/SendApp', {
    officeId, firstName: b.first, lastName: b.last, mobilePhone: b.phone, amount: 4500, language: language.locale,
  });
  const [text] = (await outbox(office.page, b.phone)).filter((m) => m.channel === 'Sms');
  const link = text!.links[0]!.url;
  const appId = Number(/#\/app\/auth\/(\d+)/.exec(link)![1]);
  expect(sent.appId).toBe(appId);
  return { appId, link };
}

/** A field found by its label in the page's language (a required field's label ends in a mark). */
const field = (page: Page, label: string) => page.getByLabel(new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\W*$`));

/** The page is in the language: its `lang`, and no English text of the catalogue left on screen. */
async function inLanguage(page: Page, language: Language, step: string): Promise<void> {
  await expect(page.locator('html')).toHaveAttribute('lang', language.locale);
  const shown = await page.locator('body').innerText();
  expect(language.foreign.filter((source) => shown.includes(source)).map((source) => `${step}: ${source}`)).toEqual([]);
}

async function prequalify(page: Page, language: Language, b: Borrower): Promise<void> {
  const w = language.words;
  await expect(page.getByRole('heading', { name: w('Pre-qualify for financing') })).toBeVisible({ timeout: 20_000 });
  await expect(field(page, w('First Name'))).toHaveValue(b.first);
  await field(page, w('Street Address')).fill(`4100 ${b.streetName}`);
  await field(page, w('City')).fill(b.city);
  await field(page, w('State')).selectOption({ label: 'Texas' });
  await field(page, w('Zip Code')).fill(b.zip);
  await field(page, w('Date of Birth')).pressSequentially(b.dob.replace(/\D/g, ''));
  await field(page, w('Social Security Number')).fill('123-45-6789');
  await field(page, w('Employment Status')).selectOption({ label: w('Employed full time') });
  await field(page, w('Employer')).fill('Hill Country Builders');
  await field(page, w('Annual Income')).fill('60000');
  await field(page, w('Residence')).selectOption({ label: w('Rent') });
  await field(page, w('Monthly Housing Payment')).fill('1200');
  await page.getByRole('checkbox', { name: w('I agree to the terms and consent to a soft credit inquiry.') }).check();
  await page.getByRole('checkbox', { name: w('I agree to receive disclosures and documents electronically (ESIGN Act).') }).check();
  await inLanguage(page, language, 'prequal');
  await page.getByRole('button', { name: w('See my offers') }).click();
}

/** What the borrower does on each kind of step; the steps of the signing ceremony are the ones the file assigns. */
async function walkStep(page: Page, lender: LenderDescriptor, step: string, language: Language, b: Borrower): Promise<void> {
  const w = language.words;
  const { journey } = lender;
  const confirm = async () => {
    await page.locator('[data-confirm-card]').getByRole('checkbox').check();
    await page.getByRole('button', { name: w('Confirm my choice') }).click();
  };
  const parts: Array<() => Promise<void>> = [];
  if (step === FIRST_STEP) {
    parts.push(async () => {
      await expect(page.getByRole('heading', { name: w('Your offers from {flow.name}', { 'flow.name': lender.name }) })).toBeVisible();
      const firstRow = page.locator('[data-screen="table"]').first().locator('tbody tr').first();
      await expect(firstRow).toContainText(/\$\d{1,3}(,\d{3})*\.\d{2}/);
      await firstRow.getByRole('button', { name: w('Choose') }).click();
      // Without a select step, the plan is confirmed where it was chosen.
      if (!journey.steps.includes('select')) await confirm();
    });
  } else if (step === 'select') {
    parts.push(async () => {
      await expect(page.getByRole('heading', { name: w('Confirm your offer') })).toBeVisible();
      await confirm();
    });
  } else if (step === 'congrats') {
    parts.push(async () => {
      await expect(page.getByRole('heading', { name: w('Congratulations, {data.firstName}!', { 'data.firstName': b.first }) })).toBeVisible({ timeout: 15_000 });
      await page.getByRole('button', { name: w('Continue to my loan documents') }).click();
    });
  }
  if (journey.esign === 'platform' && journey.consent === step) parts.push(() => consent(page, language));
  if (journey.esign === 'platform' && journey.kba === step) parts.push(() => answerIdentityQuestions(page, language, b));
  if (journey.esign === 'platform' && journey.sign === step) parts.push(() => sign(page, language, b));
  if (journey.done === step) parts.push(() => expect(page.getByText(w('Signed: the office finalizes your loan'))).toBeVisible());
  expect(parts.length, `the walker knows what a borrower does on the step '${step}' of ${lender.code}`).toBeGreaterThan(0);
  for (const part of parts) await part();
}

async function consent(page: Page, language: Language): Promise<void> {
  const w = language.words;
  await expect(page.getByRole('heading', { name: w('Consent to electronic records and signatures') })).toBeVisible({ timeout: 15_000 });
  const [testDocument] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: w('Open the test document') }).click()]);
  await page.getByLabel(w('Code in the test document')).fill(await testDocumentCodeIn(readFileSync((await testDocument.path())!)));
  await page.getByRole('checkbox', { name: w('I have read this notice and I consent to electronic records and signatures.') }).check();
  await page.getByRole('button', { name: w('I consent') }).click();
}

/** The identity questions: the right answers are what the borrower entered. */
async function answerIdentityQuestions(page: Page, language: Language, b: Borrower): Promise<void> {
  const w = language.words;
  await expect(page.getByRole('heading', { name: w('Confirm your identity') })).toBeVisible({ timeout: 15_000 });
  const quiz = page.locator('[data-kba]');
  await expect(quiz.locator('fieldset')).toHaveCount(4);
  for (const answer of [b.streetName, b.city, b.dob.slice(-4), b.zip]) await quiz.getByRole('radio', { name: answer, exact: true }).check();
  await page.getByRole('button', { name: w('Submit my answers') }).click();
}

async function sign(page: Page, language: Language, b: Borrower): Promise<void> {
  const w = language.words;
  await expect(page.getByRole('heading', { name: w('Federal Truth in Lending disclosures') })).toBeVisible({ timeout: 15_000 });
  await page.getByLabel(w('Type your full name')).fill(`${b.first} ${b.last}`);
  await page.getByPlaceholder(w('Or type your name to sign')).fill(`${b.first} ${b.last}`);
  await expect(page.getByText(w('Signature ready.'))).toBeVisible();
  await page.getByRole('checkbox', { name: w('I have read the loan agreement and I agree to its terms.') }).check();
  await page.getByRole('button', { name: w('Sign the agreement') }).click();
}

/** The lender hosts the signing: from the summary to its site, signed there, and back. */
async function signAtTheLender(page: Page, lender: LenderDescriptor, language: Language, b: Borrower): Promise<void> {
  const w = language.words;
  const name = { 'data.lenderName': lender.name };
  await page.getByRole('button', { name: w("Continue on {data.lenderName}'s site", name) }).click();
  await page.getByRole('button', { name: w("Go to {data.lenderName}'s site", name) }).click();
  // The lender's own pages (the sandbox lender's, served beside the portal) are the lender's words, not ours.
  await page.getByRole('link', { name: 'Review and sign' }).click();
  await page.getByLabel('Type your full name').fill(`${b.first} ${b.last}`);
  await page.getByLabel('I have read the loan agreement and I agree to its terms.').check();
  await page.getByRole('button', { name: `Sign with ${lender.name}` }).click();
}

for (const lender of LENDERS) {
  const steps = lender.journey.steps.slice(lender.journey.steps.indexOf(FIRST_STEP));
  for (const language of languages()) {
    test(`${lender.code} in ${language.name}: ${steps.join(' → ')}${lender.journey.esign === 'lender' ? ` → signed on ${lender.name}'s site` : ''}`, async ({ browser }) => {
      const w = language.words;
      const b = borrower();
      const { appId, link } = await textLink(lender, language, b);
      // The patient's own browser, which speaks English whatever the link's language.
      const context = await browser.newContext({ ignoreHTTPSErrors: true, locale: 'en-US' });
      const page = await context.newPage();
      await page.goto(link);
      await prequalify(page, language, b);
      await expect(page.getByRole('heading', { name: w('You are pre-qualified') })).toBeVisible({ timeout: 20_000 });
      await inLanguage(page, language, 'match');
      await page.getByRole('button', { name: w('See {row.lenderName} offers', { 'row.lenderName': lender.name }) }).first().click();

      for (const step of steps) {
        await expect.poll(() => stepOf(lender, hashOf(page)), { message: `${lender.code} reaches its step '${step}'`, timeout: 20_000 }).toBe(step);
        await inLanguage(page, language, step);
        await walkStep(page, lender, step, language, b);
      }
      if (!lender.journey.done) {
        // No page of its own for the end: the application's summary.
        await expect.poll(() => hashOf(page), { timeout: 20_000 }).toBe(`/app/borrower/${appId}`);
        if (lender.journey.esign === 'lender') {
          await inLanguage(page, language, 'summary');
          await signAtTheLender(page, lender, language, b);
          await expect.poll(() => hashOf(page), { timeout: 20_000 }).toBe(`/app/borrower/${appId}`);
        }
        await expect(page.getByText(w('Signed: the office finalizes your loan'))).toBeVisible({ timeout: 15_000 });
      }
      await inLanguage(page, language, 'end');
      await context.close();
    });
  }
}
