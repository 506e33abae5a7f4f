/**
 * The signature pad takes every stroke (issue 16): many short strokes drawn quickly — with the mouse right after typing
 * the name, and with a finger — each leave ink in the PNG that App_SignAgreement receives. The signing page is the
 * real one (powerpay's sign step, a borrower session seeded for application 5); the calls around it are answered with
 * the contract's shapes, so the test is about the pad and runs in seconds.
 */
import { expect, test, type Page } from '@playwright/test';
import { borrowerState, openApp, seedSession } from './support/session.ts';

test.use({ ignoreHTTPSErrors: true });

const APP = 5;
const APPLICATION = {
  id: APP, officeId: 1, officeName: 'Bright Smiles Dental', firstName: 'Jamie', lastName: 'Rivera', amount: 4500, stage: 'SigningRequired',
  contractSubStatus: 'KBAPassed', lenderCode: 'powerpay', lenderName: 'PowerPay', productName: '24-Month Plan', apr: 9.99, term: 24, monthlyPayment: 207.65,
  statusChip: 'OffersAvailable', statusText: null, nextRoute: `/app/powerpay/sign/${APP}`,
};
const CEREMONY = {
  appId: APP, eSignUrl: null, hostedBy: 'platform', contractSubStatus: 'KBAPassed', consentVersion: 'esign-2025-1', consentText: 'Consent.',
  consentSha256: 'a'.repeat(64), consentedAtUtc: '2031-01-01T00:00:00Z', kbaStatus: 'Passed', documentSha256: 'b'.repeat(64), signedAtUtc: null,
  nextRoute: `/app/powerpay/sign/${APP}`,
};

interface SignStep {
  /** The body App_SignAgreement receives, once the agreement is signed. */
  signedBody: () => Promise<{ signaturePng: string }>;
  /** A point of the pad's drawing (600 × 160) on the screen. */
  at: (x: number, y: number) => { x: number; y: number };
}

/**
 * The sign step with its calls answered, the name typed: the first stroke comes straight after typing in another
 * field (the focus leaves it as the stroke begins).
 */
async function openSignStep(page: Page): Promise<SignStep> {
  const json = (body: unknown) => ({ status: 200, contentType: 'application/json', body: JSON.stringify(body) });
  await page.route('**/api/App/SubmitForESign**', (route) => route.fulfill(json(CEREMONY)));
  await page.route('**/api/App/GetApp/**', (route) => route.fulfill(json(APPLICATION)));
  await page.route('**/api/App/UpdateContractStatus', (route) => route.fulfill(json(APPLICATION)));
  await page.route('**/api/App/GetSendAppInfo/**', (route) => route.fulfill(json({ id: APP, firstName: 'Jamie', lastName: 'Rivera', office: { id: 1, name: 'Bright Smiles Dental' } })));
  let signed: (body: { signaturePng: string }) => void;
  const body = new Promise<{ signaturePng: string }>((resolve) => (signed = resolve));
  await page.route('**/api/App/SignAgreement', async (route) => {
    signed(route.request().postDataJSON() as { signaturePng: string });
    await route.fulfill(json({ ...APPLICATION, stage: 'ReadyToFinalize', nextRoute: null }));
  });
  await seedSession(page, borrowerState(APP));
  await openApp(page, `/app/powerpay/sign/${APP}`);
  const pad = page.getByRole('img', { name: 'Signature pad' });
  await expect(pad).toBeVisible({ timeout: 20_000 });
  await page.getByLabel('Type your full name').fill('Jamie Rivera');
  await pad.scrollIntoViewIfNeeded();
  const box = (await pad.boundingBox())!;
  return { signedBody: () => body, at: (x, y) => ({ x: box.x + (x * box.width) / 600, y: box.y + (y * box.height) / 160 }) };
}

/** Short strokes across the pad, 45 px apart on its drawing (600 × 160), in pad coordinates. */
const STROKES = Array.from({ length: 13 }, (_, i) => ({ x: 30 + i * 45, y: 60 + (i % 3) * 20 }));

/** Which strokes left ink in the PNG (a dark pixel within 3 px of where each began). */
async function inkedStrokes(page: Page, png: string): Promise<boolean[]> {
  return page.evaluate(
    async ({ png, strokes }) => {
      const image = new Image();
      image.src = png;
      await image.decode();
      const canvas = document.createElement('canvas');
      canvas.width = image.width;
      canvas.height = image.height;
      const ctx = canvas.getContext('2d')!;
      ctx.drawImage(image, 0, 0);
      return strokes.map(({ x, y }) => {
        const { data } = ctx.getImageData(x - 3, y - 3, 7, 7);
        for (let i = 3; i < data.length; i += 4) if (data[i]! > 128) return true;
        return false;
      });
    },
    { png, strokes: STROKES },
  );
}

async function finishSigning(page: Page, { signedBody }: SignStep): Promise<boolean[]> {
  await expect(page.getByText('Signature ready.')).toBeVisible();
  await page.getByRole('checkbox', { name: 'I have read the loan agreement and I agree to its terms.' }).check();
  await page.getByRole('button', { name: 'Sign the agreement' }).click();
  const { signaturePng } = await signedBody();
  expect(signaturePng).toMatch(/^data:image\/png;base64,/);
  return inkedStrokes(page, signaturePng);
}

test('the mouse: the name typed, then thirteen quick short strokes, each in the signature sent', async ({ page }) => {
  const step = await openSignStep(page);
  const { at } = step;
  // No waits between strokes: each is a press, one small move and a release.
  for (const stroke of STROKES) {
    const start = at(stroke.x, stroke.y);
    const end = at(stroke.x + 12, stroke.y + 8);
    await page.mouse.move(start.x, start.y);
    await page.mouse.down();
    await page.mouse.move(end.x, end.y);
    await page.mouse.up();
  }
  expect(await finishSigning(page, step)).toEqual(STROKES.map(() => true));
});

test('a finger: thirteen quick short strokes on a touch screen, the last one cancelled, each in the signature sent', async ({ browser }) => {
  const context = await browser.newContext({ ignoreHTTPSErrors: true, hasTouch: true, isMobile: true, viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  const step = await openSignStep(page);
  const { at } = step;
  // Touch events as a touch screen sends them (Chromium makes the pointer events from them).
  const cdp = await context.newCDPSession(page);
  const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd' | 'touchCancel', point?: { x: number; y: number }) =>
    cdp.send('Input.dispatchTouchEvent', { type, touchPoints: point ? [{ x: point.x, y: point.y, id: 1 }] : [] });
  for (const [i, stroke] of STROKES.entries()) {
    await touch('touchStart', at(stroke.x, stroke.y));
    await touch('touchMove', at(stroke.x + 12, stroke.y + 8));
    // The last touch is taken away by the browser (a cancel, as when a gesture wins): its ink stays in the value.
    await touch(i === STROKES.length - 1 ? 'touchCancel' : 'touchEnd');
  }
  expect(await finishSigning(page, step)).toEqual(STROKES.map(() => true));
  await context.close();
});
