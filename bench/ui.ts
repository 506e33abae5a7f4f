/**
 * UI figures for `npm run bench` (issue 3 item 12), measured in Chromium against a running server:
 * - the gzip size of all JavaScript the borrower entry route `#/app/prequal/0` loads (target ≤ 200 KB);
 * - the main-thread time per keystroke in the send-application form (target < 16 ms): from keydown to the end of the
 *   work it causes (React commit, style and layout), over ~40 keystrokes.
 *
 * bench/run.ts calls `benchUi({ baseUrl })` with the server it started; `npx tsx bench/ui.ts <baseUrl>` runs it alone.
 */
import { gzipSync } from 'node:zlib';
import { chromium, type Page } from '@playwright/test';
import { CHROMIUM } from '../e2e/chromium.ts';
import { openApp, seedSession, staffState } from '../e2e/support/session.ts';
import { percentile } from './stats.ts';

export const TARGET_JS_GZIP_BYTES = 200 * 1024;
export const TARGET_KEYSTROKE_MS = 16;

export interface UiBenchResult {
  entryRoute: string;
  jsFiles: number;
  jsGzipBytes: number;
  keystrokes: number;
  keystrokeMedianMs: number;
  keystrokeP95Ms: number;
  keystrokeMaxMs: number;
  /** Keystrokes that took 16 ms or more. */
  slowKeystrokes: number;
}

export interface UiBenchOptions {
  baseUrl: string;
  log?: (line: string) => void;
  /** Characters typed into the first-name field. */
  text?: string;
}


async function entryRouteJs(page: Page, baseUrl: string): Promise<{ files: number; bytes: number }> {
  const bodies = new Map<string, Promise<Buffer>>();
  page.on('response', (response) => {
    const type = response.request().resourceType();
    if (type === 'script' || response.url().endsWith('.js')) bodies.set(response.url(), response.body());
  });
  await page.goto(`${baseUrl}/#/app/prequal/0`, { waitUntil: 'networkidle' });
  // The app's own field: the first paint's comes first (decision 0299).
  await page.locator('#root').getByLabel('First Name').waitFor();
  await page.waitForLoadState('networkidle');
  let bytes = 0;
  for (const body of bodies.values()) bytes += gzipSync(await body, { level: 9 }).length;
  return { files: bodies.size, bytes };
}

async function keystrokeTimes(page: Page, baseUrl: string, text: string): Promise<{ times: number[]; slow: number }> {
  await seedSession(page, staffState({}), baseUrl);
  await openApp(page, '/home', baseUrl);
  // The home list answers 401 without a real sign-in: its error toast would animate during the measurement.
  await page.waitForTimeout(500);
  for (const close of await page.getByRole('button', { name: 'Close' }).all()) await close.click({ timeout: 2_000 }).catch(() => undefined);
  await page.getByRole('button', { name: 'New Application' }).click();
  await page.getByRole('button', { name: 'Email a link' }).click();
  const field = page.getByLabel('First Name');
  await field.waitFor();
  await page.evaluate(() => {
    const w = window as unknown as { __keys: number[]; __start: number };
    w.__keys = [];
    w.__start = 0;
    // Start: the keydown reaches the page. End: the input event has passed React's root listener, whose state
    // update commits in the microtask after it; then style and layout are forced. Paint and vsync waits are not
    // counted: this is the main-thread work a keystroke costs.
    window.addEventListener('keydown', () => (w.__start = performance.now()), { capture: true });
    window.addEventListener('input', () => {
      const start = w.__start;
      queueMicrotask(() => {
        document.body.getBoundingClientRect();
        w.__keys.push(performance.now() - start);
      });
    });
  });
  await field.click();
  for (const ch of text) {
    await page.keyboard.press(ch === ' ' ? 'Space' : ch);
    await page.waitForTimeout(30);
  }
  await page.waitForTimeout(300);
  const times = await page.evaluate(() => (window as unknown as { __keys: number[] }).__keys);
  return { times, slow: times.filter((t) => t >= TARGET_KEYSTROKE_MS).length };
}

export async function benchUi(options: UiBenchOptions): Promise<UiBenchResult> {
  const log = options.log ?? ((line: string) => console.log(line));
  const baseUrl = options.baseUrl.replace(/\/$/, '');
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const first = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 1400, height: 900 } });
    const js = await entryRouteJs(await first.newPage(), baseUrl);
    await first.close();
    const second = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 1400, height: 900 } });
    const { times, slow } = await keystrokeTimes(await second.newPage(), baseUrl, options.text ?? 'Alexandria Montgomery-Smythe Oconnell');
    await second.close();
    const result: UiBenchResult = {
      entryRoute: '#/app/prequal/0',
      jsFiles: js.files,
      jsGzipBytes: js.bytes,
      keystrokes: times.length,
      keystrokeMedianMs: percentile(times, 50),
      keystrokeP95Ms: percentile(times, 95),
      keystrokeMaxMs: percentile(times, 100),
      slowKeystrokes: slow,
    };
    const kb = (b: number) => `${(b / 1024).toFixed(1)} KB`;
    const verdict = (ok: boolean) => (ok ? 'PASS' : 'MISS');
    log(`\nUI (Chromium, ${baseUrl})`);
    log(
      `  JS loaded by ${result.entryRoute}: ${kb(result.jsGzipBytes)} gzip in ${result.jsFiles} files — ${verdict(result.jsGzipBytes <= TARGET_JS_GZIP_BYTES)} (target ≤ ${kb(TARGET_JS_GZIP_BYTES)})`,
    );
    log(
      `  send-app keystroke: median ${result.keystrokeMedianMs.toFixed(1)} ms, p95 ${result.keystrokeP95Ms.toFixed(1)} ms, max ${result.keystrokeMaxMs.toFixed(1)} ms over ${result.keystrokes} keys; ` +
        `${result.slowKeystrokes} at 16 ms or more — ${verdict(result.keystrokeP95Ms < TARGET_KEYSTROKE_MS)} (target < ${TARGET_KEYSTROKE_MS} ms)`,
    );
    return result;
  } finally {
    await browser.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const baseUrl = process.argv[2] ?? 'https://localhost:3000';
  await benchUi({ baseUrl });
}
