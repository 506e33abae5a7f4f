/**
 * What the crawl needs before it starts (project 'crawl-setup', a dependency of 'crawl'): the records each visitor
 * knows, and records of another office, read through the API; a borrower's passcode sign-in for one application of
 * the demo data.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { signIn } from './support/session.ts';
import { outbox } from './support/borrower.ts';
import { crawlDir, type CrawlData } from './support/crawl-data.ts';

test.use({ ignoreHTTPSErrors: true });
test.describe.configure({ mode: 'parallel', timeout: 90_000 });

const API_KEY = 'demo-web-key';

/** Signs in and answers the page's bearer token (read from the app's own API calls). */
async function signInForToken(page: Page, email: string): Promise<string> {
  let token = '';
  page.on('request', (r) => {
    const auth = r.headers().authorization;
    if (r.url().includes('/api/') && auth?.startsWith('Bearer ')) token = auth;
  });
  await signIn(page, email);
  await expect.poll(() => token, { timeout: 20_000 }).not.toBe('');
  return token;
}

async function api<T>(request: APIRequestContext, origin: string, token: string | null, method: string, path: string, body?: unknown): Promise<T> {
  const response = await request.fetch(`${origin}${path}`, {
    method,
    // An Idempotency-Key as the web app sends one per intent (a call that messages a person needs it).
    headers: { ...(token ? { authorization: token } : {}), 'x-api-key': API_KEY, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
    ...(body === undefined ? {} : { data: JSON.stringify(body) }),
  });
  expect(response.status(), `${method} ${path}`).toBeLessThan(300);
  return (await response.json()) as T;
}

interface Paged<T> {
  results: T[];
}

test('the demo records and a borrower session', async ({ page, browser }) => {
  const token = await signInForToken(page, 'admin@demo.test');
  const origin = new URL(page.url()).origin;
  const call = <T>(method: string, path: string, body?: unknown) => api<T>(page.request, origin, token, method, path, body);
  const offices = (await call<Paged<{ id: number; code: string | null }>>('PUT', '/api/admin/Offices/GetOffices', { page: 1, pageSize: 100 })).results;
  const apps = (await call<Paged<{ id: number; officeId: number; statusChip: string }>>('PUT', '/api/admin/Apps/GetApps', { page: 1, pageSize: 100, sortBy: 'id' })).results;
  const users = (await call<Paged<{ userId: string; email: string; offices: Array<{ officeId: number }> }>>('PUT', '/api/admin/Users/GetAllUsers', { page: 1, pageSize: 100 })).results;
  // The borrower: an application with offers, so that the lender flows show data; its passcode is sent at the desk of
  // its office (staff of the office may send it without the link the office texted).
  const desk = users.find((u) => u.email === 'office.admin@demo.test')!;
  const mine = apps.find((a) => a.statusChip === 'OffersAvailable' && desk.offices.some((o) => o.officeId === a.officeId))!;
  const app = await call<{ mobilePhone: string }>('GET', `/api/App/GetApp/${mine.id}/false`);
  const deskPage = await browser.newPage({ ignoreHTTPSErrors: true });
  const deskToken = await signInForToken(deskPage, desk.email);
  const sent = await api<{ challengeId: string }>(page.request, origin, deskToken, 'POST', '/api/Otp/SendOtp', { appId: mine.id, channel: 'Sms' });
  await deskPage.close();
  let code = '';
  await expect
    .poll(async () => (code = /passcode is (\d{6})/.exec((await outbox(page, app.mobilePhone)).find((m) => /passcode is \d{6}/.test(m.body))?.body ?? '')?.[1] ?? ''))
    .toMatch(/^\d{6}$/);
  const verified = await api<{ token: string }>(page.request, origin, null, 'POST', '/api/Otp/VerifyOtp', { challengeId: sent.challengeId, code });
  const data: CrawlData = {
    offices: offices.map((o) => ({ id: o.id, code: o.code })),
    apps: apps.map((a) => ({ id: a.id, officeId: a.officeId })),
    users: users.map((u) => ({ userId: u.userId, email: u.email, officeIds: u.offices.map((o) => o.officeId) })),
    borrower: { appId: mine.id, token: verified.token },
  };
  mkdirSync(crawlDir(), { recursive: true });
  writeFileSync(join(crawlDir(), 'data.json'), JSON.stringify(data));
});
