/**
 * The borrower's first screens on a phone (issue 17 item 3), in Chromium with the Chrome DevTools Protocol's
 * emulation of Lighthouse's mobile conditions: a 412 px screen, 4× CPU slowdown, 150 ms round trip, 1.6 Mbps down
 * and 750 kbps up. For each screen, median of RUNS:
 * - first view (empty cache): bytes transferred (headers and bodies as they came over the wire), FCP, LCP and CLS (the
 *   largest burst of layout shifts, as Chromium's CLS counts them: shifts less than 1 s apart, in at most 5 s);
 * - repeat view (the same browser, cache kept, opened again from a blank page): bytes, FCP and LCP (the FCP says when
 *   the first paint showed: Chromium's LCP misses its cards in some repeat views of a page of data, decision 0301);
 * - first view with the CPU slowdown alone (no network limit): LCP;
 * - on a screen with fields, when its first field could be typed into (each view): a form's LCP says when the page
 *   could be read, this when a person could start filling it in — the first input on the page, the first paint's
 *   (whose typing the app takes over, decision 0299) or the app's own;
 * and for the pre-qualification form, the slowest keystroke of typing a name under 4× CPU, as the Event Timing API
 * measures it (input delay + processing + the next paint, what INP counts; keys under 16 ms are not reported).
 *
 * bench/run.ts calls `benchPhone({ baseUrl })`; `npx tsx bench/phone.ts <baseUrl>` runs it alone against a demo server.
 */
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { CHROMIUM } from '../e2e/chromium.ts';
import { percentile } from './stats.ts';

export const TARGETS = {
  firstViewBytes: 150 * 1024,
  firstViewLcpMs: 1_200,
  firstViewCls: 0.05,
  repeatViewBytes: 10 * 1024,
  repeatViewLcpMs: 1_000,
  cpuOnlyLcpMs: 800,
  keyMs: 50,
};

const RUNS = 5;
const PHONE = {
  viewport: { width: 412, height: 823 },
  deviceScaleFactor: 1.75,
  isMobile: true,
  hasTouch: true,
  userAgent:
    'Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36',
};
/** Lighthouse's "slow 4G" as DevTools applies it: bytes per second and the added round trip. */
const NETWORK = { offline: false, latency: 150, downloadThroughput: (1_638.4 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 };
const CPU_SLOWDOWN = 4;

export interface PhoneScreen {
  name: string;
  /** The hash route, e.g. '#/app/prequal/0'. */
  route: string;
  /** Resolves when the screen shows what a person came for. */
  ready(page: Page): Promise<unknown>;
}

export const BORROWER_SCREENS: PhoneScreen[] = [
  { name: 'texted link', route: '#/app/auth/1', ready: (page) => page.getByRole('heading', { name: 'Continue your application' }).waitFor() },
  // The app's own field: the first paint's comes first (decision 0299).
  { name: 'pre-qualification', route: '#/app/prequal/0', ready: (page) => page.locator('#root').getByLabel('First Name').waitFor() },
  { name: 'landing page', route: '#/landing/brightsmiles', ready: (page) => page.getByRole('heading', { level: 1 }).first().waitFor() },
];

interface View {
  bytes: number;
  fcpMs: number;
  lcpMs: number;
  requests: number;
  /** When the first field a person can type into came on the page; 0 on a screen without one. */
  fieldMs: number;
  cls: number;
}

export interface PhoneResult {
  screen: string;
  route: string;
  first: View;
  repeat: View;
  /** Left out when only the views are measured. */
  cpuOnlyLcpMs?: number;
  cpuOnlyFieldMs?: number;
  /** Pre-qualification only: the slowest keystroke's Event Timing duration per run, median over runs. */
  slowestKeyMs?: number;
}

const LCP_PROBE = () => {
  const w = window as unknown as { __lcp: number; __keys: number[]; __field: number; __cls: number };
  w.__lcp = 0;
  w.__cls = 0;
  const burst = { value: 0, first: 0, last: 0 };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
      if (entry.hadRecentInput) continue;
      const joins = burst.value > 0 && entry.startTime - burst.last < 1_000 && entry.startTime - burst.first < 5_000;
      if (joins) burst.value += entry.value;
      else Object.assign(burst, { value: entry.value, first: entry.startTime });
      burst.last = entry.startTime;
      w.__cls = Math.max(w.__cls, burst.value);
    }
  }).observe({ type: 'layout-shift', buffered: true });
  w.__keys = [];
  w.__field = 0;
  new MutationObserver((_, observer) => {
    if (!document.querySelector('input:not([type=hidden]):not(:disabled):not([readonly]), select:not(:disabled), textarea:not(:disabled)')) return;
    w.__field = performance.now();
    observer.disconnect();
  }).observe(document, { childList: true, subtree: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) w.__lcp = entry.startTime;
  }).observe({ type: 'largest-contentful-paint', buffered: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as PerformanceEventTiming[]) if (entry.name === 'keydown' || entry.name === 'keyup') w.__keys.push(entry.duration);
  }).observe({ type: 'event', durationThreshold: 16, buffered: true } as PerformanceObserverInit);
};

/** Applies the phone's CPU (and network) limits; counts what crosses the network from then on. */
async function emulate(context: BrowserContext, page: Page, network: boolean): Promise<{ bytes: () => { bytes: number; requests: number }; reset: () => void }> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
  if (network) await cdp.send('Network.emulateNetworkConditions', NETWORK);
  let bytes = 0;
  let requests = 0;
  // A file taken from the browser's cache reports its size too, though nothing crossed the network.
  const cached = new Set<string>();
  cdp.on('Network.requestServedFromCache', (event: { requestId: string }) => cached.add(event.requestId));
  cdp.on('Network.responseReceived', (event: { requestId: string; response: { fromDiskCache?: boolean } }) => {
    if (event.response.fromDiskCache) cached.add(event.requestId);
  });
  cdp.on('Network.loadingFinished', (event: { requestId: string; encodedDataLength: number }) => {
    if (cached.has(event.requestId)) return;
    bytes += event.encodedDataLength;
    requests += 1;
  });
  return {
    bytes: () => ({ bytes, requests }),
    reset: () => {
      bytes = 0;
      requests = 0;
    },
  };
}

async function open(page: Page, baseUrl: string, screen: PhoneScreen): Promise<{ fcpMs: number; lcpMs: number; fieldMs: number; cls: number }> {
  await page.goto(`${baseUrl}/${screen.route}`, { waitUntil: 'load' });
  await screen.ready(page);
  await page.waitForLoadState('networkidle');
  return page.evaluate(() => {
    const w = window as unknown as { __lcp: number; __field: number; __cls: number };
    const fcp = performance.getEntriesByName('first-contentful-paint')[0];
    return { fcpMs: fcp ? fcp.startTime : 0, lcpMs: w.__lcp, fieldMs: w.__field, cls: w.__cls };
  });
}

async function newPhone(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ ...PHONE, ignoreHTTPSErrors: true });
  await context.addInitScript(LCP_PROBE);
  return { context, page: await context.newPage() };
}

async function views(browser: Browser, baseUrl: string, screen: PhoneScreen): Promise<{ first: View; repeat: View }> {
  const { context, page } = await newPhone(browser);
  try {
    const meter = await emulate(context, page, true);
    const firstPaints = await open(page, baseUrl, screen);
    const first = { ...meter.bytes(), ...firstPaints };
    await page.goto('about:blank');
    meter.reset();
    const repeatPaints = await open(page, baseUrl, screen);
    return { first, repeat: { ...meter.bytes(), ...repeatPaints } };
  } finally {
    await context.close();
  }
}

/** A fresh phone (empty cache) with the CPU slowdown alone, for `use`. */
async function withSlowCpu<T>(browser: Browser, use: (page: Page) => Promise<T>): Promise<T> {
  const { context, page } = await newPhone(browser);
  try {
    await emulate(context, page, false);
    return await use(page);
  } finally {
    await context.close();
  }
}

const cpuOnly = (browser: Browser, baseUrl: string, screen: PhoneScreen) => withSlowCpu(browser, (page) => open(page, baseUrl, screen));

/** Types a name into the form's first field under 4× CPU; the slowest keystroke (0 when every key took < 16 ms). */
const slowestKey = (browser: Browser, baseUrl: string, screen: PhoneScreen) =>
  withSlowCpu(browser, async (page) => {
    await open(page, baseUrl, screen);
    await page.locator('#root').getByLabel('First Name').click();
    for (const ch of 'Alexandria Montgomery') {
      await page.keyboard.press(ch === ' ' ? 'Space' : ch);
      await page.waitForTimeout(60);
    }
    await page.waitForTimeout(500);
    const keys = await page.evaluate(() => (window as unknown as { __keys: number[] }).__keys);
    return Math.max(0, ...keys);
  });

const median = (values: number[]) => percentile(values, 50);
const medianView = (list: View[]): View => ({
  bytes: median(list.map((v) => v.bytes)),
  fcpMs: median(list.map((v) => v.fcpMs)),
  lcpMs: median(list.map((v) => v.lcpMs)),
  requests: median(list.map((v) => v.requests)),
  fieldMs: median(list.map((v) => v.fieldMs)),
  cls: median(list.map((v) => v.cls)),
});

export interface PhoneOptions {
  baseUrl: string;
  screens?: PhoneScreen[];
  runs?: number;
  /** First and repeat view only (no CPU-only view, no typing), said in the heading: 'with a publication live'. */
  viewsOnly?: string;
  log?: (line: string) => void;
}

export async function benchPhone(options: PhoneOptions): Promise<PhoneResult[]> {
  const log = options.log ?? ((line: string) => console.log(line));
  const baseUrl = options.baseUrl.replace(/\/$/, '');
  const runs = options.runs ?? RUNS;
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
  const results: PhoneResult[] = [];
  try {
    const heading = options.viewsOnly ? `, ${options.viewsOnly}: first and repeat view` : '';
    log(`\nPhone (Chromium, ${PHONE.viewport.width} px, ${CPU_SLOWDOWN}× CPU, ${NETWORK.latency} ms RTT, 1.6 Mbps down; median of ${runs}${heading})`);
    for (const screen of options.screens ?? BORROWER_SCREENS) {
      const pairs: { first: View; repeat: View }[] = [];
      const cpu: { fcpMs: number; lcpMs: number; fieldMs: number; cls: number }[] = [];
      const keys: number[] = [];
      for (let run = 0; run < runs; run++) {
        pairs.push(await views(browser, baseUrl, screen));
        if (options.viewsOnly) continue;
        cpu.push(await cpuOnly(browser, baseUrl, screen));
        if (screen.route.startsWith('#/app/prequal')) keys.push(await slowestKey(browser, baseUrl, screen));
      }
      const result: PhoneResult = {
        screen: screen.name,
        route: screen.route,
        first: medianView(pairs.map((p) => p.first)),
        repeat: medianView(pairs.map((p) => p.repeat)),
        cpuOnlyLcpMs: cpu.length ? median(cpu.map((v) => v.lcpMs)) : undefined,
        cpuOnlyFieldMs: cpu.length ? median(cpu.map((v) => v.fieldMs)) : undefined,
        slowestKeyMs: keys.length ? median(keys) : undefined,
      };
      results.push(result);
      for (const line of phoneLines(result)) log(`  ${line}`);
    }
    return results;
  } finally {
    await browser.close();
  }
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const verdict = (ok: boolean) => (ok ? 'PASS' : 'MISS');

/** The figures of one screen against the targets, one line per measure. */
export function phoneLines(r: PhoneResult): string[] {
  const lines = [
    `${r.screen} (${r.route}) first view: ${kb(r.first.bytes)} in ${r.first.requests} requests — ${verdict(r.first.bytes <= TARGETS.firstViewBytes)} (≤ ${kb(TARGETS.firstViewBytes)}); ` +
      `FCP ${s(r.first.fcpMs)}; LCP ${s(r.first.lcpMs)} — ${verdict(r.first.lcpMs <= TARGETS.firstViewLcpMs)} (≤ ${s(TARGETS.firstViewLcpMs)}); ` +
      `CLS ${r.first.cls.toFixed(3)} — ${verdict(r.first.cls <= TARGETS.firstViewCls)} (≤ ${TARGETS.firstViewCls})`,
    `${r.screen} repeat view: ${kb(r.repeat.bytes)} in ${r.repeat.requests} requests — ${verdict(r.repeat.bytes <= TARGETS.repeatViewBytes)} (≤ ${kb(TARGETS.repeatViewBytes)}); ` +
      `FCP ${s(r.repeat.fcpMs)}; LCP ${s(r.repeat.lcpMs)} — ${verdict(r.repeat.lcpMs <= TARGETS.repeatViewLcpMs)} (≤ ${s(TARGETS.repeatViewLcpMs)})`,
  ];
  if (r.cpuOnlyLcpMs !== undefined) lines.push(`${r.screen} with ${CPU_SLOWDOWN}× CPU alone: LCP ${s(r.cpuOnlyLcpMs)} — ${verdict(r.cpuOnlyLcpMs <= TARGETS.cpuOnlyLcpMs)} (≤ ${s(TARGETS.cpuOnlyLcpMs)})`);
  // No target: it says how long after the LCP a person can type (decision 0247).
  if (r.first.fieldMs) {
    const cpuOnly = r.cpuOnlyFieldMs ? `, ${CPU_SLOWDOWN}× CPU alone ${s(r.cpuOnlyFieldMs)}` : '';
    lines.push(`${r.screen} first field usable: first view ${s(r.first.fieldMs)}, repeat view ${s(r.repeat.fieldMs)}${cpuOnly}`);
  }
  if (r.slowestKeyMs !== undefined) {
    lines.push(
      `${r.screen} typing under ${CPU_SLOWDOWN}× CPU: slowest key ${r.slowestKeyMs < 16 ? 'under 16 ms' : `${r.slowestKeyMs.toFixed(0)} ms`} — ${verdict(r.slowestKeyMs <= TARGETS.keyMs)} (≤ ${TARGETS.keyMs} ms)`,
    );
  }
  return lines;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const baseUrl = process.argv[2];
  if (!baseUrl) {
    console.error('usage: npx tsx bench/phone.ts <baseUrl> [runs]');
    process.exit(2);
  }
  await benchPhone({ baseUrl, ...(process.env.VIEWS_ONLY ? { viewsOnly: 'views only' } : {}), runs: process.argv[3] ? Number(process.argv[3]) : RUNS });
}
