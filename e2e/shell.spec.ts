import { expect, test } from '@playwright/test';

test.use({ ignoreHTTPSErrors: true });

test('one origin serves the web app, the API and its reference page', async ({ page }) => {
  // The sign-in page the guard opens would go on to the identity provider: kept in the app for this check.
  await page.route(/\/oidc\//, (route) => route.abort());
  await page.goto('/');
  // Anonymous at '/': the route guard sends the visitor to staff sign-in, rendered by the engine.
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  const health = await page.request.get(new URL('/api/health', page.url()).toString());
  expect(health.ok()).toBe(true);
  expect(await health.json()).toMatchObject({ status: 'ok' });
  await page.goto('/api/docs');
  await expect(page.locator('.swagger-ui .info .title')).toBeVisible({ timeout: 30_000 });
});

test('the app page is sent with a CSP without unsafe-eval, and runs under it', async ({ page }) => {
  const refused: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) refused.push(m.text());
  });
  const response = await page.goto('/#/app/prequal/0');
  const csp = response!.headers()['content-security-policy'] ?? '';
  expect(csp).toContain("script-src 'self'");
  expect(csp).not.toContain('unsafe-eval');
  // The pre-qualification form: precompiled validators, config-item selects (States), masks — all under the policy.
  await expect(page.getByLabel('First Name')).toBeVisible();
  await expect.poll(() => page.getByLabel('State').locator('option').count()).toBeGreaterThan(10);
  await page.getByRole('button', { name: 'See my offers' }).click();
  await expect(page.locator('[data-error-for="root_firstName"]')).toHaveText('This field is required.');
  await page.getByLabel('Date of Birth').pressSequentially('01012015');
  await expect(page.locator('[data-error-for="root_dob"]')).toHaveText('You are under 18.');
  expect(refused).toEqual([]);
});

test('the brand comes from the host name, or ?brand= for local use: wording and names', async ({ page }) => {
  await page.goto('/?brand=care#/app/prequal/0');
  await expect(page.getByLabel('Estimated Service Amount')).toBeVisible();
  await expect(page.getByRole('contentinfo')).toContainText('CarePay Financing, Inc.');
  await page.goto('/?brand=smile#/app/prequal/0');
  await expect(page.getByLabel('Estimated Treatment Amount')).toBeVisible();
});
