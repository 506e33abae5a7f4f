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
