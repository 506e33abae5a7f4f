/**
 * The crawl (issue 16): every route of the route table (lender flows joined in) × every visitor — anonymous, a
 * borrower, each staff role's demo account and an account of no office — × every brand host (the other brands' hosts
 * as anonymous and the borrower), with the known, foreign and unknown ids of each path parameter (and none, when it is
 * optional). A route that turns the visitor away is opened once for each way of doing so. Generated from data
 * (support/crawl.ts): a new route, brand, screen or enumeration is crawled without writing a test.
 *
 * A visit fails on an uncaught error or console error, a 5xx, an error toast, a call repeated beyond what the page's
 * sources need (a loop, a poll after a failure or faster than its interval), a page still loading after 30 s (one
 * slower than 10 s is printed) or blank, an enumeration code, JSON or a UUID among the visible texts, an axe-core
 * violation of serious or critical impact, and a page without an h1. One test per visitor and brand host, in parallel
 * workers against a server of the crawl's own (playwright.config.ts): the visitor signs in once (staff through the
 * provider session crawl.setup.ts left in the storage state) and visits every path in one tab, as a link would; every
 * problem of every visit is listed at the end.
 */
import { expect, test } from '@playwright/test';
import { brandHosts } from './support/brands.ts';
import { accessProblems, crawlRoutes, crawlVisitors, pollInterval, Recorder, signsOut, INSTRUMENT, variants, visit, type CrawlVisitor } from './support/crawl.ts';
import { expectation, routesFile, type Expectation } from './support/routes.ts';
import { firstInRun, readCrawlData, samplesFor } from './support/crawl-data.ts';
import { DEMO_PASSWORD, seedSession } from './support/session.ts';
import { hashOf } from './support/borrower.ts';

test.use({ ignoreHTTPSErrors: true });
// A visitor's hundred-odd visits take about 2 minutes alone and up to 9.2 beside the other specs on 2 cores (df.admin,
// 2026-12-02); every visit's waits are bounded (a load at 30 s, settling at 30 s), so this only ends a visitor that is
// far behind.
test.describe.configure({ mode: 'parallel', timeout: 900_000 });

const routes = crawlRoutes();
// The route that signs out comes last: it ends the session.
const signInPath = routes.find((r) => r.name === routesFile.signIn.route)!.path;
const ordered = [...routes.filter((r) => !signsOut(r)), ...routes.filter((r) => signsOut(r))];

/** Staff with the most pages to see first, so the longest tests start first. */
const weight = (v: CrawlVisitor) => (v.kind === 'staff' ? 0 : v.kind === 'borrower' ? 1 : 2);

/** How many routes of the table show this visitor their page. */
const reach = (v: CrawlVisitor) => routes.filter((r) => expectation(r, v, r.path).kind === 'page').length;
const widestStaff = crawlVisitors()
  .filter((v) => v.kind === 'staff')
  .reduce((a, b) => (reach(b) > reach(a) ? b : a));

/**
 * The visitors of widest access of each kind — anonymous, the borrower and the staff account the route table shows the
 * most pages (the platform admin, an office admin too) — whose pages include the other roles'. An id that does not
 * exist is unknown to everyone alike: only these visit it.
 */
const widest = (v: CrawlVisitor) => v.kind !== 'staff' || v.name === widestStaff.name;

/**
 * A brand changes words, names and its host, not who may see what: the first brand's host is crawled as every visitor
 * (staff sign-in on a brand's own host included), the other brands' as the people who meet a brand's words first —
 * anonymous and the borrower; the other specs meet the default brand as staff (the suite keeps within its 20 minutes
 * on 2 cores).
 */
const onEveryHost = (v: CrawlVisitor) => v.kind !== 'staff';

for (const visitor of [...crawlVisitors()].sort((a, b) => weight(a) - weight(b))) {
  for (const [index, brand] of brandHosts().entries()) {
    if (index > 0 && !onEveryHost(visitor)) continue;
    test(`${visitor.name} on ${brand.host}`, async ({ browser, baseURL }) => {
      const port = new URL(baseURL!).port;
      const origin = `https://${brand.host}:${port}`;
      const data = readCrawlData();
      const context = await browser.newContext({ ignoreHTTPSErrors: true });
      const page = await context.newPage();
      await page.addInitScript(INSTRUMENT);
      if (visitor.kind === 'borrower') {
        await seedSession(page, { borrowerAuthenticated: true, borrowerAppId: data.borrower.appId, borrowerToken: data.borrower.token }, origin);
      }
      const recorder = new Recorder(page);
      if (visitor.kind === 'staff') {
        // A provider session of this test's own: the visit to #/logout ends it, and no other test may lose theirs.
        await page.goto(`${origin}/#/`);
        await page.getByLabel('Email').fill(visitor.email!);
        await page.getByLabel('Password').fill(DEMO_PASSWORD);
        await page.getByRole('button', { name: 'Sign in' }).click();
        await expect
          .poll(() => (page.url().startsWith(origin) ? hashOf(page) : page.url()), { timeout: 30_000, message: `staff sign-in on ${origin}` })
          .toMatch(/^\/(?!auth|signed-in)[a-z]/);
      }
      const samples = samplesFor(visitor, data);
      // The borrower of the crawl is the one crawl.setup.ts signed in, not the route specs' sample.
      const who = visitor.kind === 'borrower' ? { ...visitor, borrowerAppId: data.borrower.appId } : visitor;
      const checked = new Set<string>();
      const turnedAway = new Set<string>();
      const problems: string[] = [];
      let visits = 0;
      const slow: string[] = [];
      const started = Date.now();
      for (const route of ordered) {
        const all = variants(route, samples);
        const expected = expectation(route, who, all[0]!.path);
        // The sign-in hands over to the identity provider at once, the page that signs out ends the staff session,
        // and a route that is a redirect itself (the root) goes to another page.
        const handsOver = route.name === routesFile.signIn.route || (signsOut(route) && visitor.kind === 'staff');
        const access: Expectation = expected.kind === 'page' && (handsOver || route.redirect) ? { kind: 'leaves' } : expected;
        // The guard turns a visitor away alike on every route: which routes turn whom away is proven for all of them by
        // tests/unit/ui-access.test.ts, and one route of each way — each sign-in it sends to, the 403 page in each
        // layout — shows the browser doing it (decision 0245).
        const way = access.kind === 'redirect' ? `sign-in ${access.to.split('?')[0]}` : access.kind === 'forbidden' ? `403 in ${route.layout}` : undefined;
        if (way && turnedAway.has(way)) continue;
        if (way) turnedAway.add(way);
        // Where the route table turns the visitor away (a sign-in, the 403 page), no id is read: one visit shows it.
        // On another brand's host the words change, not what an id shows: the visitor's own record is enough there.
        const shown =
          access.kind !== 'page' ? all.slice(0, 1)
          : index > 0 ? all.filter((v) => v.id === 'known' || v.id === 'none').slice(0, 1)
          : all.filter((v) => v.id !== 'unknown' || widest(visitor));
        for (const variant of shown) {
          const result = await visit(recorder, origin, {
            path: variant.path,
            // The staff sign-in goes on to the provider's page a moment after it shows: the next visit must not see that.
            leaves: (handsOver && access.kind === 'leaves') || (access.kind === 'redirect' && access.to.startsWith(`${signInPath}?`)),
            redirects: route.redirect !== undefined,
            pollMs: pollInterval(route),
            check: (landed) => !checked.has(landed) && !!checked.add(landed),
            // axe-core checks a page whose main or whose frame it has not seen in this run, for any visitor or host:
            // each role's menu is checked once, not again around every page (decision 0302). A brand's other palette
            // is another structure: its class names differ. Both parts are recorded, so neither is checked again.
            axe: ({ main, frame }) => [firstInRun('axe-main', main), firstInRun('axe-frame', frame)].includes(true),
          });
          visits++;
          if (result.slow) slow.push(`${route.name} ${variant.path}: ${result.slow}`);
          if (variant.id === 'known' || variant.id === 'none') result.problems.push(...accessProblems(access, variant.path, result, visitor.kind === 'borrower'));
          for (const p of result.problems) problems.push(`${route.name} ${variant.path} (${variant.id} id → ${result.landed}): ${p}`);
          if (result.problems.length) problems.push(`${route.name} ${variant.path}: seen ${result.trail}`);
        }
      }
      console.log(`${test.info().title}: ${visits} visits (${checked.size} pages checked) in ${Math.round((Date.now() - started) / 1000)} s`);
      for (const line of slow) console.log(`  slow: ${line}`);
      await context.close();
      expect(problems).toEqual([]);
    });
  }
}
