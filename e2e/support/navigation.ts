import type { Page } from '@playwright/test';

/** Opens a page of the main menu, as a person does: the collapsed menu opens on hover, and closes after. */
export async function menuItem(page: Page, name: string): Promise<void> {
  const menu = page.getByRole('navigation', { name: 'Main menu' });
  await menu.hover();
  await menu.getByRole('link', { name, exact: true }).click();
  await page.getByRole('banner').hover();
}

/** The rows of the table screen that show this text. */
export const tableRow = (page: Page, text: string) => page.locator('main [data-screen="table"] tbody tr').filter({ hasText: text });
