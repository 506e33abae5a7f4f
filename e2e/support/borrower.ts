/** What the borrower journey specs share: the hash route, the demo outbox, the passcode dialog. */
import { expect, type Page } from '@playwright/test';

/** The hash route of the page, decoded (`/app/prequal/match?id=1000`). */
export const hashOf = (page: Page) => decodeURIComponent(new URL(page.url()).hash.replace(/^#/, ''));

export interface OutboxMessage {
  channel: 'Email' | 'Sms';
  recipient: string;
  subject: string | null;
  body: string;
  links: Array<{ label: string; url: string }>;
}

/** The demo outbox as JSON, newest first, for one recipient. */
export async function outbox(page: Page, to: string): Promise<OutboxMessage[]> {
  const origin = new URL(page.url()).origin;
  const response = await page.request.get(`${origin}/api/dev/outbox?to=${encodeURIComponent(to)}`);
  expect(response.status()).toBe(200);
  return ((await response.json()) as { messages: OutboxMessage[] }).messages;
}

/** With the 'Enter your passcode' dialog open: reads the passcode texted to `to` from the outbox, types it, continues. */
export async function enterPasscode(page: Page, to: string): Promise<void> {
  const dialog = page.getByRole('dialog', { name: 'Enter your passcode' });
  await expect(dialog).toBeVisible();
  let code = '';
  await expect
    .poll(async () => {
      code = /passcode is (\d{6})/.exec((await outbox(page, to)).find((m) => /passcode is \d{6}/.test(m.body))?.body ?? '')?.[1] ?? '';
      return code;
    })
    .toMatch(/^\d{6}$/);
  await dialog.getByRole('textbox', { name: /digit 1 of 6/ }).click();
  await page.keyboard.type(code);
  await dialog.getByRole('button', { name: 'Continue' }).click();
}

/**
 * Fills the pre-qualification form: text fields by their labels, the date of birth key by key (MMDDYYYY), the choices
 * by their words, and its two consents.
 */
export async function fillPrequal(page: Page, texts: Record<string, string>, dob: string, choices: Record<string, string>): Promise<void> {
  for (const [label, value] of Object.entries(texts)) await page.getByLabel(label).fill(value);
  await page.getByLabel('Date of Birth').pressSequentially(dob);
  for (const [label, value] of Object.entries(choices)) await page.getByLabel(label).selectOption({ label: value });
  await page.getByRole('checkbox', { name: 'I agree to the terms and consent to a soft credit inquiry.' }).check();
  await page.getByRole('checkbox', { name: 'I agree to receive disclosures and documents electronically (ESIGN Act).' }).check();
}

/**
 * A patient's start on an office's page (/landing/{code}/start): their name, phone and amount, their consent, then the
 * passcode texted to them; they land on their pre-qualification form. Answers the application's id.
 */
export async function startAlone(page: Page, patient: { first: string; last: string; phone: string; amount: string }): Promise<string> {
  await page.getByLabel('First Name').fill(patient.first);
  await page.getByLabel('Last Name').fill(patient.last);
  await page.getByRole('textbox', { name: 'Mobile Phone' }).pressSequentially(patient.phone.replace(/\D/g, ''));
  await page.getByLabel('Estimated Treatment Amount').fill(patient.amount);
  await page.getByRole('checkbox', { name: /^I agree to receive my passcode/ }).check();
  await page.getByRole('button', { name: 'Send me a passcode' }).click();
  await enterPasscode(page, patient.phone);
  await expect.poll(() => hashOf(page), { timeout: 20_000 }).toMatch(/^\/app\/prequal\/\d+$/);
  return hashOf(page).split('/').pop()!;
}
