/**
 * The crawl (issue 16, e2e/crawl.spec.ts): what it visits and what it checks, all read from data — the route table
 * with the lender flows joined in (routes.ts), the brand files, the screen descriptors, the enumerations of
 * schemas/enums/ — so that a new route, brand, screen or enumeration is crawled without a line of test code.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page, Request } from '@playwright/test';
import { routeTable, routesFile, visitors, type E2eRoute, type Expectation, type Visitor } from './routes.ts';
import { screensFile } from '../../core/descriptors/read.ts';
import { operationIndex } from '../../codegen/generated/operation-index.ts';
import { watchNetwork } from './network.ts';
import { axeViolations, isSerious } from './axe.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const read = <T>(path: string) => JSON.parse(readFileSync(join(ROOT, path), 'utf8')) as T;

// ---------------------------------------------------------------------------------------------------------------
// Visitors: the route specs' visitors (anonymous, a borrower, each role), plus a session without an office.

/** A visitor of the crawl: the route specs' own, and the staff account that belongs to no office (signed up, not enrolled). */
export type CrawlVisitor = Visitor;

/** The demo account that signed up and enrolled no office yet (README, demo accounts). */
export const OFFICELESS_EMAIL = 'newoffice@demo.test';

export function crawlVisitors(): CrawlVisitor[] {
  return [...visitors(), { name: 'staff without an office', kind: 'staff', role: 'admin', userRole: null, email: OFFICELESS_EMAIL, officeless: true }];
}

// ---------------------------------------------------------------------------------------------------------------
// Screens: which record a path parameter names, which sources poll.

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

const pageNames = new Set(readdirSync(join(ROOT, 'screens', 'pages')).map((f) => f.replace(/\.json$/, '')));
const pageCache = new Map<string, Json>();
function page(name: string): Json {
  if (!pageCache.has(name)) pageCache.set(name, screensFile<Json>(`pages/${name}.json`));
  return pageCache.get(name)!;
}

/** The page and every page it shows inside (composite parts, wizard steps), each once. */
function pagesOf(screen: string | undefined, seen = new Set<string>()): Json[] {
  if (!screen || seen.has(screen) || !pageNames.has(screen)) return [];
  seen.add(screen);
  const out: Json[] = [page(screen)];
  const walk = (node: Json) => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (key === 'screen' && typeof value === 'string') out.push(...pagesOf(value, seen));
        else walk(value);
      }
    }
  };
  walk(page(screen));
  return out;
}

/** The first operation whose binding reads `route.params.<param>` in these pages. */
function operationReading(pages: Json[], param: string): string | undefined {
  let found: string | undefined;
  const walk = (node: Json, operation: string | undefined) => {
    if (found) return;
    if (Array.isArray(node)) node.forEach((n) => walk(n, operation));
    else if (node && typeof node === 'object') {
      const op = typeof node.operation === 'string' ? node.operation : operation;
      for (const value of Object.values(node)) walk(value, op);
    } else if (node === `route.params.${param}` && operation) found = operation;
  };
  pages.forEach((p) => walk(p, undefined));
  return found;
}

/** The shortest `refetchInterval` of the route's pages, if any polls. */
export function pollInterval(route: E2eRoute): number | undefined {
  const intervals: number[] = [];
  const walk = (node: Json) => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object') {
      if (typeof node.refetchInterval === 'number') intervals.push(node.refetchInterval);
      Object.values(node).forEach(walk);
    }
  };
  pagesOf(route.screen).forEach(walk);
  return intervals.length ? Math.min(...intervals) : undefined;
}

/** Does the route's page sign out when it loads (the logout route)? */
export function signsOut(route: E2eRoute): boolean {
  const first = pagesOf(route.screen)[0] as { onLoad?: Array<{ type: string }> } | undefined;
  return (first?.onLoad ?? []).some((a) => a.type === 'signOut');
}

/**
 * What kind of record a parameter names, from the operation that reads it (its contract tag, the part of the
 * operationId before '_'); `code` is an office's landing code wherever it appears.
 */
export type IdKind = 'app' | 'office' | 'user' | 'invite' | 'landing' | 'other';
const KIND_BY_TAG: Record<string, IdKind> = { App: 'app', AdminApps: 'app', Otp: 'app', Files: 'app', Office: 'office', AdminOffices: 'office', AdminUsers: 'user', Users: 'invite' };

export function idKind(route: E2eRoute, param: string): IdKind {
  if (param === 'code') return 'landing';
  const operation = operationReading(pagesOf(route.screen), param);
  return (operation && KIND_BY_TAG[operation.split('_')[0]!]) || 'other';
}

/** Records of the demo data the crawl names, found by crawl.setup.ts for each visitor. */
export interface Samples {
  known?: string;
  foreign?: string;
  unknown: string;
}

export type SampleTable = Record<IdKind, Samples>;

export interface Variant {
  /** The path with sample values. */
  path: string;
  /** known, foreign, unknown or none (an optional parameter left out, or a route without one). */
  id: 'known' | 'foreign' | 'unknown' | 'none';
}

/** The paths to visit for a route: each parameter's known, foreign and unknown value, and none when it is optional. */
export function variants(route: E2eRoute, samples: SampleTable): Variant[] {
  const params = [...route.path.matchAll(/:([A-Za-z]+)(\?)?/g)];
  if (params.length === 0) return [{ path: route.path, id: 'none' }];
  const fill = (which: 'known' | 'foreign' | 'unknown' | 'none') =>
    route.path.replace(/\/:([A-Za-z]+)(\?)?/g, (_m, name: string) => {
      if (which === 'none') return '';
      const value = samples[idKind(route, name)][which];
      return value === undefined ? '/\u0000' : `/${encodeURIComponent(value)}`;
    });
  const out: Variant[] = [];
  for (const which of ['known', 'foreign', 'unknown'] as const) {
    const path = fill(which);
    if (!path.includes('\u0000') && !out.some((v) => v.path === path)) out.push({ path, id: which });
  }
  if (params.every((p) => p[2] === '?')) out.push({ path: fill('none') || '/', id: 'none' });
  return out;
}

export const crawlRoutes = (): E2eRoute[] => routeTable();

// ---------------------------------------------------------------------------------------------------------------
// Words, not codes: the enumeration values that are not words themselves.

interface EnumFile {
  enum?: unknown[];
  'x-labels'?: Record<string, string>;
}

/**
 * Codes people must not see: every enumeration value of schemas/enums/ whose words (x-labels) differ from it.
 * `compound` ones (NotApplicable, df.admin, feature-flag) cannot be ordinary words and are looked for anywhere in the
 * text; `single` words (admin, CT) only as a whole line or table cell, and not when they are the words of another
 * value.
 */
export function enumerationCodes(): { compound: Set<string>; single: Set<string> } {
  const files = readdirSync(join(ROOT, 'schemas', 'enums')).filter((f) => f.endsWith('.json'));
  const codes = new Set<string>();
  const words = new Set<string>();
  for (const f of files) {
    const e = read<EnumFile>(`schemas/enums/${f}`);
    const labels = e['x-labels'] ?? {};
    for (const v of e.enum ?? []) {
      if (typeof v !== 'string') continue;
      words.add(labels[v] ?? v);
      if ((labels[v] ?? v) !== v) codes.add(v);
    }
  }
  const compound = new Set<string>();
  const single = new Set<string>();
  for (const c of codes) {
    if (/[a-z][A-Z]|[A-Z]{2,}[a-z]|[.\-_]/.test(c)) compound.add(c);
    // A capitalised word ('Review', 'Pending', 'Email') is as likely a heading or a label of its own: only codes no
    // sentence would write — lower case (admin, tpa) or capitals (CT) — count as codes when they stand alone.
    else if (/^([a-z]+|[A-Z]{2,})$/.test(c) && !words.has(c)) single.add(c);
  }
  return { compound, single };
}

// ---------------------------------------------------------------------------------------------------------------
// One visit and its checks.

export interface ApiCall {
  key: string;
  status?: number;
  at: number;
}

export interface VisitOptions {
  /** The path in the app ('/app/5'). */
  path: string;
  /** Whether the visit ends outside the app (on the identity provider's page): it is read there. */
  leaves?: boolean;
  /**
   * Whether the route is a redirect of the app (the root): the page it goes to is read, however long the machine takes
   * to draw the way there (the network is quiet meanwhile).
   */
  redirects?: boolean;
  /** The shortest poll interval of the route's sources: calls are counted until one more poll would have come. */
  pollMs: number | undefined;
  /**
   * Whether to check what the page shows (texts, heading, axe) where the visit landed: not again for an address
   * already checked (the redirects of many routes to one sign-in page).
   */
  check(landed: string): boolean;
  /**
   * Whether axe-core checks a page of this structure (the markup of its main and of the frame around it, without texts
   * and digits): not again where both were checked, so the same page seen by another visitor or with other rows costs
   * no second check.
   */
  axe(structure: PageStructure): boolean;
}

export interface VisitResult {
  /** The address the visit ended on (after redirects). */
  landed: string;
  /** The paths of the app the tab passed through on the way. */
  addresses: string[];
  /** What the page showed where it landed. */
  texts: string[];
  problems: string[];
  /** Its addresses and the browser's warnings, which explain a failed visit. */
  trail: string;
  /** A page that settled only after SETTLED_MS: when, and what it was waiting for then. */
  slow?: string;
}

/**
 * Whether the visit ended where spec §6 sends this visitor (routes.ts `expectation`): on the page itself, on the
 * not-authorized page at the same address, or redirected (to a sign-in, through which staff pages go on to the
 * provider's own page); a page that signs out on load, or the sign-in, leaves. A signed-in borrower may be sent on
 * along the lender flow (`forwards`), but not through a sign-in.
 */
export function accessProblems(expected: Expectation, path: string, result: VisitResult, forwards: boolean): string[] {
  const { landed, addresses, texts } = result;
  const here = decodeURIComponent(path);
  const forbidden = texts.includes(routesFile.forbidden.message);
  const stayed = landed.split('?')[0] === here;
  const signIns = addresses.filter((a) => a.split('?')[0] !== here && SIGN_IN.test(a));
  switch (expected.kind) {
    case 'redirect':
      return addresses.includes(decodeURI(expected.to)) ? [] : [`should redirect to ${expected.to}`];
    case 'leaves':
      return stayed ? ['should send the visitor on'] : [];
    case 'forbidden':
      return stayed && forbidden ? [] : ['should show the not-authorized page'];
    case 'page':
      return !forbidden && (forwards ? signIns.length === 0 : stayed) ? [] : ['should show the page'];
  }
}

/** The sign-in pages a visitor turned away is sent to (spec §6): the staff's and the borrower's. */
const SIGN_IN = /^\/(app\/)?auth(\/|\?|$)/;

/**
 * A page has settled when no API call was in flight for this long: a loop of calls (an unknown landing code once made
 * hundreds in a few seconds) never lets it, and shows as 'still loading' or as repeated calls.
 */
const QUIET_MS = 200;
/**
 * A page settles within SETTLED_MS alone, and nearly always beside the rest of the suite. One that has not is printed
 * with what it waited for, and fails only if it is still loading at STUCK_MS: on 2 cores shared by three portals and
 * four browsers, both crawl workers went past 10 s at the same moment, the product owner's first visit of the studio
 * (decision 0303). A loop of calls never settles, so it still fails.
 */
const SETTLED_MS = 10_000;
const STUCK_MS = 30_000;

/** What a page's render waits for: its code, its styles and its calls (not images or fonts, which it shows without). */
const LOADS = new Set(['script', 'stylesheet', 'fetch', 'xhr']);
/** The loads of each recorded page still under way: a chunk of code arriving is not an API call, but the page waits for it. */
const inFlight = new WeakMap<Page, ReadonlySet<Request>>();

/** Listens to a page for the whole crawl: console errors, uncaught errors and 5xx answers. */
export class Recorder {
  consoleErrors: string[] = [];
  warnings: string[] = [];
  pageErrors: string[] = [];
  serverErrors: string[] = [];
  /** Every address the tab showed since the last reset, hash changes included: a redirect passes through one. */
  addresses: string[] = [];

  constructor(readonly page: Page) {
    inFlight.set(page, watchNetwork(page, LOADS).pending);
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) this.addresses.push(frame.url());
    });
    page.on('console', (m) => {
      // Chromium logs every 4xx answer as 'Failed to load resource'; an unknown id answers 404 by design, and the
      // answers themselves are judged by what the page does with them (and 5xx by serverErrors).
      if (m.type() === 'warning') this.warnings.push(m.text().slice(0, 200));
      if (m.type() === 'error' && !/^Failed to load resource: the server responded with a status of 4\d\d/.test(m.text())) this.consoleErrors.push(m.text().slice(0, 300));
    });
    page.on('pageerror', (e) => this.pageErrors.push(`${e.name}: ${e.message}`.slice(0, 300)));
    page.on('response', (r) => {
      if (r.status() >= 500) this.serverErrors.push(`${r.status()} ${r.request().method()} ${new URL(r.url()).pathname}`);
    });
  }

  /** The visit's addresses and warnings: what a failed visit's report shows to explain it. */
  trail(): string {
    return [`addresses ${this.addresses.map((a) => new URL(a).hash || new URL(a).pathname).join(' → ')}`, ...this.warnings.map((w) => `warning ${w}`)].join('; ');
  }

  reset(): void {
    this.warnings = [];
    this.consoleErrors = [];
    this.pageErrors = [];
    this.serverErrors = [];
    this.addresses = [];
  }
}

interface CrawlState {
  calls: ApiCall[];
  /** When the page's event stream brought an event (live screens read again what it changes). */
  heard: number[];
  inflight: number;
  last: number;
  toasts: string[];
}

/**
 * Installed in every document before its scripts: a log of the API calls (method, address and body: the list calls
 * differ only in their bodies, which the browser's network events do not carry for the app's cloned requests), how
 * many are in flight, and every error toast that appears (they close by themselves).
 */
export const INSTRUMENT = () => {
  const state: CrawlState = { calls: [], heard: [], inflight: 0, last: Date.now(), toasts: [] };
  (window as unknown as { __crawl: CrawlState }).__crawl = state;
  const real = window.fetch.bind(window);
  window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input), window.location.href);
    if (!url.pathname.startsWith('/api/')) return real(input, init);
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    let body = '';
    try {
      body = typeof init?.body === 'string' ? init.body : input instanceof Request && init?.body === undefined ? await input.clone().text() : '';
    } catch {
      body = '(unread)';
    }
    const call: ApiCall = { key: `${method} ${url.pathname}${url.search} ${body}`.trim(), at: Date.now() };
    state.calls.push(call);
    state.inflight++;
    state.last = Date.now();
    try {
      const response = await real(input, init);
      call.status = response.status;
      // The event stream: the page's copy, and one the crawl reads to know when an event came.
      if (/^\/api\/(admin\/)?Events\/Stream(\/|$)/.test(url.pathname) && response.ok && response.body) {
        const [mine, theirs] = response.body.tee();
        void (async () => {
          const reader = theirs.pipeThrough(new TextDecoderStream()).getReader();
          for (;;) {
            const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
            if (done) return;
            if (/(^|\n)data:/.test(value ?? '')) state.heard.push(Date.now());
          }
        })();
        return new Response(mine, { status: response.status, statusText: response.statusText, headers: response.headers });
      }
      return response;
    } finally {
      state.inflight--;
      state.last = Date.now();
    }
  };
  new MutationObserver(() => {
    for (const el of document.querySelectorAll<HTMLElement>('[data-toast="error"]:not([data-crawl-seen])')) {
      el.setAttribute('data-crawl-seen', '');
      state.toasts.push((el.innerText || el.textContent || '').replace(/\s+/g, ' ').trim().slice(0, 200));
    }
  }).observe(document, { childList: true, subtree: true });
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The page's state now: calls in flight, ms since the last call began or ended, starting or a visible 'Loading…', its address. */
const probe = (page: Page) =>
  page
    .evaluate(() => {
      const state = (window as unknown as { __crawl?: CrawlState }).__crawl;
      // The app's own page still starting (its scripts loading, its root empty) is loading too.
      const starting = document.readyState !== 'complete' || document.getElementById('root')?.childElementCount === 0;
      const loading = starting || [...document.querySelectorAll<HTMLElement>('[role="status"]')].some((el) => el.offsetHeight > 0 && /Loading/.test(el.textContent ?? ''));
      return { inflight: state?.inflight ?? 0, idle: state ? Date.now() - state.last : 0, loading, href: window.location.href };
    })
    .catch(() => undefined);

/**
 * Until no API call was in flight for `quietMs`, no code or call is still loading, nothing says 'Loading…' and the
 * address held still; false after `maxMs`.
 */
async function settle(page: Page, quietMs: number, maxMs: number): Promise<boolean> {
  const end = Date.now() + maxMs;
  let href = '';
  let stableSince = Date.now();
  while (Date.now() < end) {
    await sleep(50);
    const now = await probe(page);
    if (!now) continue;
    if (now.href !== href) {
      href = now.href;
      stableSince = Date.now();
    }
    // Code or a call still arriving: the page is quiet only `quietMs` after the last one.
    if (inFlight.get(page)?.size) stableSince = Date.now();
    else if (!now.inflight && !now.loading && now.idle >= quietMs && Date.now() - stableSince >= quietMs) return true;
  }
  return false;
}

/** What a page that does not settle waits for: the loads and calls under way, and what it shows meanwhile. */
async function whatLoads(page: Page): Promise<string> {
  const loads = [...(inFlight.get(page) ?? [])].map((r) => `${r.resourceType()} ${new URL(r.url()).pathname}`);
  const shown = await page
    .evaluate(() => {
      const state = (window as unknown as { __crawl?: CrawlState }).__crawl;
      const calls = state?.calls.filter((c) => c.status === undefined).map((c) => c.key.slice(0, 80)) ?? [];
      const root = document.getElementById('root');
      return [`${document.readyState}`, `root ${root?.childElementCount ?? 'missing'}`, `text '${(root?.innerText ?? '').replace(/\s+/g, ' ').slice(0, 60)}'`, ...calls.map((c) => `call ${c}`)];
    })
    .catch((error: unknown) => [`unreadable: ${String(error).slice(0, 80)}`]);
  return [...shown, ...loads.map((l) => `load ${l}`)].join('; ');
}

/** The calls and error toasts logged since the last take (empty on a page that is not the app). */
const take = (page: Page) =>
  page
    .evaluate(() => {
      const state = (window as unknown as { __crawl?: CrawlState }).__crawl;
      return { calls: state?.calls.splice(0) ?? [], heard: state?.heard.splice(0) ?? [], toasts: state?.toasts.splice(0) ?? [] };
    })
    .catch(() => ({ calls: [] as ApiCall[], heard: [] as number[], toasts: [] as string[] }));

const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/i;
const JSON_TEXT = /[{[]\s*"[^"\n]{1,60}"\s*:/;

/**
 * What the page shows: its rendered text (innerText leaves out what is hidden) cut into lines and table cells, and
 * how many h1 it shows.
 */
async function visibleTexts(page: Page): Promise<{ texts: string[]; h1: number }> {
  return page.evaluate(() => ({
    texts: document.body.innerText
      .split(/[\n\t]+/)
      .map((t) => t.replace(/\s+/g, ' ').trim())
      .filter(Boolean),
    h1: [...document.querySelectorAll('h1')].filter((h) => (h as HTMLElement).offsetHeight > 0).length,
  }));
}

const codes = enumerationCodes();

/** Codes, JSON and UUIDs among the page's texts. */
export function wordsProblems(texts: readonly string[]): string[] {
  const out = new Set<string>();
  for (const t of texts) {
    if (codes.single.has(t)) out.add(`shows the code '${t}'`);
    for (const token of t.split(/[\s,;:()'"“”]+/)) {
      const bare = token.replace(/[.!?]+$/, '');
      if (codes.compound.has(bare)) out.add(`shows the code '${bare}'`);
    }
    if (JSON_TEXT.test(t)) out.add(`shows JSON: '${t.slice(0, 80)}'`);
    const uuid = UUID.exec(t);
    if (uuid) out.add(`shows an id: '${uuid[0]}'`);
  }
  return [...out];
}

/**
 * The app asks which descriptor set is live on a change of page when no answer said so within a second
 * (src/app/live-descriptors.ts): a visit that goes on to another page (a redirect) may ask once per page it shows.
 */
const LIVE_SET_CALL = `${operationIndex.Descriptors_GetLive.method.toUpperCase()} ${operationIndex.Descriptors_GetLive.path}`;

/** Calls that repeat beyond what the page's sources need: the same call twice, or again after it failed. */
/** How soon after an event of the stream a read is the live screen's refresh (the app waits 150 ms for a burst). */
const REFRESH_MS = 2_000;

export function callProblems(calls: readonly ApiCall[], pollMs: number | undefined, watchedMs: number, pagesShown: number, heard: readonly number[] = []): string[] {
  const out: string[] = [];
  const byKey = new Map<string, ApiCall[]>();
  // A read again just after an event came is the page following what happened, not a loop.
  const refresh = (c: ApiCall) => heard.some((at) => c.at >= at && c.at - at <= REFRESH_MS);
  for (const c of calls) {
    const earlier = byKey.get(c.key) ?? [];
    if (earlier.length > 0 && refresh(c)) continue;
    byKey.set(c.key, [...earlier, c]);
  }
  // A poll may call again once per interval while the page is watched; anything else calls once.
  const polled = pollMs ? 1 + Math.ceil(watchedMs / pollMs) : 1;
  for (const [key, list] of byKey) {
    const allowed = key === LIVE_SET_CALL ? Math.max(polled, pagesShown) : polled;
    const afterFailure = list.findIndex((c) => c.status !== undefined && c.status >= 400);
    if (afterFailure >= 0 && afterFailure < list.length - 1) out.push(`calls again after a ${list[afterFailure]!.status}: ${key.slice(0, 120)} (${list.length}×)`);
    else if (list.length > allowed) out.push(`calls ${list.length}× (at most ${allowed}): ${key.slice(0, 120)}`);
  }
  if (calls.length > 40) out.push(`${calls.length} API calls`);
  return out;
}

/** How long a page's load event may take before the visit reports what it still loads. */
const LOAD_MS = 30_000;

/**
 * Opens a page by its address; a redirect the last page started as it left may interrupt that once or twice. A load
 * that does not end fails the visit with what it waits for (unbounded, it took the role's whole time, unexplained).
 */
async function openAnew(page: Page, url: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await page.goto(url, { timeout: LOAD_MS });
      return;
    } catch (error) {
      if (/Timeout/.test(String(error))) throw new Error(`${url} did not load in ${LOAD_MS / 1000} s: ${await whatLoads(page)}`);
      if (attempt === 3 || !/interrupted by another navigation/.test(String(error))) throw error;
      await settle(page, QUIET_MS, SETTLED_MS);
    }
  }
}

/**
 * A page's structure in two parts, each its markup without texts and digits: the page's main and the frame around it
 * (header, menu, dialogs), which a role's menu changes on every page alike.
 */
export interface PageStructure {
  main: string;
  frame: string;
}

async function structureOf(page: Page): Promise<PageStructure> {
  const markup = await page.evaluate(() => {
    const frame = document.body.cloneNode(true) as HTMLElement;
    frame.querySelector('main')?.replaceChildren();
    return { main: document.querySelector('main')?.outerHTML ?? '', frame: frame.outerHTML };
  });
  const bare = (html: string) => html.replace(/>[^<]*</g, '><').replace(/\d+/g, '0');
  return { main: bare(markup.main), frame: bare(markup.frame) };
}

/** Where a visit ended, and the texts it showed there (none outside the app). */
interface Seen {
  landed: string;
  texts: string[];
}

/** Where the visit landed, and (the first time a landed page is seen) what it shows that it should not. */
async function inspect(page: Page, inApp: (url: string) => boolean, options: VisitOptions, problems: string[]): Promise<Seen> {
  const url = new URL(page.url());
  const here = inApp(page.url());
  const landed = here ? decodeURIComponent(url.hash.replace(/^#/, '')) : `${url.origin}${url.pathname}`;
  if (!here) return { landed, texts: [] };
  const seen = await visibleTexts(page);
  const { texts } = seen;
  if (!options.check(landed)) return { landed, texts };
  // A heading may arrive a moment after the network went quiet (a form renders once its validator is compiled).
  const h1 = seen.h1 || (await page.waitForFunction(() => [...document.querySelectorAll('h1')].some((h) => (h as HTMLElement).offsetHeight > 0), null, { timeout: 2_000 }).then(() => 1, () => 0));
  const found: string[] = [];
  if (texts.length < 2) found.push('blank page');
  if (h1 === 0) found.push('no heading (h1)');
  found.push(...wordsProblems(texts));
  if (options.axe(await structureOf(page))) {
    const violations = (await axeViolations(page)).filter(isSerious);
    for (const v of violations) found.push(`axe ${v.impact} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(' | ')}`);
  }
  problems.push(...found);
  return { landed, texts };
}

/**
 * Opens `path` in the running app as a link would (a hash change; a full load when the page is not in the app), waits
 * until it settles, keeps counting calls for `watchMs`, and checks what it shows.
 */
export async function visit(recorder: Recorder, appOrigin: string, options: VisitOptions): Promise<VisitResult> {
  const page = recorder.page;
  recorder.reset();
  await take(page);
  const problems: string[] = [];
  // The app is the page at the origin's root; anything else (the provider's pages, a JSON document) is not.
  const inApp = (url: string) => new URL(url).origin === appOrigin && new URL(url).pathname === '/';
  // The page may be leaving as the visit starts (the last visit's redirect to sign-in): then it is opened anew.
  const followed = inApp(page.url()) && (await page.evaluate((p) => (window.location.hash = p), options.path).then(() => true, () => false));
  if (!followed) await openAnew(page, `${appOrigin}/#${options.path}`);
  const started = Date.now();
  let slow: string | undefined;
  if (!(await settle(page, QUIET_MS, SETTLED_MS))) {
    const loads = await whatLoads(page);
    if (await settle(page, QUIET_MS, STUCK_MS - SETTLED_MS)) slow = `settled after ${((Date.now() - started) / 1000).toFixed(1)} s (at ${SETTLED_MS / 1000} s: ${loads})`;
    else problems.push(`still loading after ${STUCK_MS / 1000} s (${await whatLoads(page)}; ${recorder.trail()})`);
  }
  const left = options.leaves && (await page.waitForURL((url) => !inApp(url.href), { timeout: 10_000, waitUntil: 'commit' }).then(() => true, () => false));
  if (left) await settle(page, QUIET_MS, SETTLED_MS);
  const redirected =
    options.redirects &&
    (await page.waitForURL((url) => !inApp(url.href) || decodeURIComponent(url.hash.replace(/^#/, '')).split('?')[0] !== options.path, { timeout: 10_000, waitUntil: 'commit' }).then(() => true, () => false));
  if (redirected) await settle(page, QUIET_MS, SETTLED_MS);
  // A page may still leave after it settled (a guard's redirect to the provider waits for the browser's crypto):
  // then it is read where it went.
  let seen: Seen = { landed: '', texts: [] };
  for (let attempt = 1; ; attempt++) {
    const before = page.url();
    try {
      seen = await inspect(page, inApp, options, problems);
      break;
    } catch (error) {
      const left = page.url() !== before || /Execution context was destroyed|navigat/i.test(String(error));
      if (attempt === 3 || !left) throw error;
      await settle(page, QUIET_MS, SETTLED_MS);
    }
  }
  const settledAt = Date.now();
  // A poll goes on only while its reads answer: after a refused read there is nothing more to watch.
  const refused = await page.evaluate(() => (window as unknown as { __crawl?: CrawlState }).__crawl?.calls.some((c) => (c.status ?? 0) >= 400) ?? false).catch(() => false);
  if (options.pollMs && !refused) {
    const rest = options.pollMs + 1_000 - (Date.now() - settledAt);
    if (rest > 0) await sleep(rest);
    await settle(page, 100, 5_000);
  }
  const { calls, heard, toasts } = await take(page);
  const addresses = recorder.addresses.filter(inApp).map((a) => decodeURI(new URL(a).hash.replace(/^#/, '')));
  problems.push(...callProblems(calls, options.pollMs, Date.now() - started, new Set(addresses).size, heard));
  problems.push(...toasts.map((t) => `error toast: ${t}`));
  problems.push(...recorder.pageErrors.map((e) => `uncaught: ${e}`));
  problems.push(...recorder.consoleErrors.map((e) => `console error: ${e}`));
  problems.push(...recorder.serverErrors.map((e) => `server error ${e}`));
  return { ...seen, addresses, problems, trail: recorder.trail(), ...(slow ? { slow } : {}) };
}
