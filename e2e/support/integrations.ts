import { expect, type Page } from '@playwright/test';
import { tableRow } from './navigation.ts';

/**
 * Settings → Integrations → 'Add endpoint', as an office admin does it: the address, a description, the events ticked
 * beyond the preset ones; answers the signing secret, copied from the one dialog that shows it.
 */
export async function addWebhook(page: Page, url: string, options: { description: string; events: readonly string[] }): Promise<string> {
  await page.goto('/#/settings/integrations');
  await expect(page.getByRole('heading', { name: 'Integrations' })).toBeVisible();
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  const add = page.getByRole('dialog', { name: 'Add a webhook endpoint' });
  await add.getByLabel('Address').fill(url);
  await add.getByLabel('Description').fill(options.description);
  for (const event of options.events) await add.getByRole('checkbox', { name: event, exact: true }).check();
  await add.getByRole('button', { name: 'Add', exact: true }).click();
  const shown = page.getByRole('dialog', { name: 'The signing secret' });
  await expect(shown).toContainText('it is not shown again');
  const secret = /whsec_[A-Za-z0-9+/=]+/.exec(await shown.innerText())![0];
  await shown.getByRole('button', { name: 'I have copied it' }).click();
  await expect(tableRow(page, url)).toContainText('Active');
  return secret;
}

/** Deletes the endpoint at this address from the Integrations page (the office's, or the platform's at `/#/admin/integrations`), so what other tests do is not sent to it. */
export async function deleteWebhook(page: Page, url: string, where = '/#/settings/integrations'): Promise<void> {
  await page.goto(where);
  await tableRow(page, url).getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('dialog', { name: 'Delete this endpoint?' }).getByRole('button', { name: 'Delete' }).click();
  await expect(tableRow(page, url)).toHaveCount(0);
}
