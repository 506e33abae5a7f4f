import { expect, test } from '@playwright/test';

test('one origin serves the web app, the API and its reference page', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByTestId('api-status')).toContainText('ok');
  await page.goto('/api/docs');
  await expect(page.locator('.swagger-ui .info .title')).toBeVisible({ timeout: 30_000 });
});
