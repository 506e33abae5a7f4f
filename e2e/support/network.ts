import type { Page, Request } from '@playwright/test';

/**
 * How long no request may be under way before a page counts as settled. Playwright's 'networkidle' waits 500 ms and
 * only once, at load: with both cores busy, a page can spend longer than that drawing one answer before it makes its
 * next call.
 */
const QUIET_MS = 1_500;
const QUIET_LIMIT_MS = 30_000;
const STREAMS = /^\/api\/(admin\/)?Events\/Stream(\/|$)/;

/**
 * Watches a page's requests from now on (of these resource types only, when given): the ones under way, and a wait
 * until none was for a while (decision 0143's race).
 */
export function watchNetwork(page: Page, types?: ReadonlySet<string>): { pending: ReadonlySet<Request>; quiet(): Promise<void> } {
  const pending = new Set<Request>();
  let lastChange = Date.now();
  const settle = (request: Request) => {
    if (pending.delete(request)) lastChange = Date.now();
  };
  page.on('request', (request) => {
    if (types && !types.has(request.resourceType())) return;
    // The event stream (the office's, or every office's for platform admins) stays open while the page is (live
    // screens): a stream, not a load under way.
    if (STREAMS.test(new URL(request.url()).pathname)) return;
    pending.add(request);
    lastChange = Date.now();
  });
  page.on('requestfinished', settle);
  page.on('requestfailed', settle);
  return {
    pending,
    async quiet() {
      const limit = Date.now() + QUIET_LIMIT_MS;
      while (pending.size > 0 || Date.now() - lastChange < QUIET_MS) {
        if (Date.now() > limit) throw new Error(`the page's requests did not settle: ${[...pending].map((r) => r.url()).join(', ')}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
  };
}
