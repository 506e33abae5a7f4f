import { defineConfig } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { DEMO_WEB_API_KEY } from './server/config.ts';
import { TEST_CHROMIUM } from './e2e/chromium.ts';
import { hostResolverRules } from './e2e/support/brands.ts';

const PORT = Number(process.env.E2E_PORT ?? 3199);
// Where crawl.setup.ts leaves the crawl's sign-ins and records: made once by the runner, inherited by its workers.
process.env.E2E_CRAWL_DIR ??= mkdtempSync(join(tmpdir(), 'pos-crawl-'));

/**
 * The specs share the demo data and change it, so the specs of one group run one at a time, in order, each group
 * against a server of its own on its own copy of the demo data: the groups run side by side, and beside the crawl,
 * which only reads, on a server of its own. A new spec joins the office's group unless its name says otherwise.
 */
const BORROWER_SPECS = /\/(journey[\w-]*|signature|after-signature|send-app)\.spec\.ts$/;
const SPEC_GROUPS = [
  { name: 'borrower', testMatch: BORROWER_SPECS },
  { name: 'office', testMatch: /\.spec\.ts$/, testIgnore: [BORROWER_SPECS, /crawl\./] },
];
const origin = (port: number) => `http://127.0.0.1:${port}`;
const CRAWL_PORT = PORT + SPEC_GROUPS.length;
/**
 * The lender service (decision 0259) every portal speaks to over HTTP, as `npm start` runs it beside one: one service
 * for all the portals, which give it their callback secret and trust it with their self-signed certificates.
 */
const LENDER_SERVICE_PORT = CRAWL_PORT + 1;
const LENDER_CALLBACK_SECRET = randomBytes(32).toString('base64');
const PORTALS = [...SPEC_GROUPS.map((_, i) => PORT + i), CRAWL_PORT].map((port) => ({ port, dataDir: mkdtempSync(join(tmpdir(), 'pos-e2e-')) }));
/**
 * Workers in all (E2E_WORKERS to change): one for each group of specs, two for the crawl's visitors. A third crawl
 * worker took no time off the run (the groups are its longest part) and put several tests past their time (decision
 * 0302).
 */
const WORKERS = Number(process.env.E2E_WORKERS ?? SPEC_GROUPS.length + 2);
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  fullyParallel: false,
  workers: WORKERS,
  // Sign-out and sign-in cross the identity provider's redirects; on a loaded 2-core machine one of them
  // can outlast its wait. A retry reruns the role's whole serial group, sign-in included.
  retries: process.env.CI ? 2 : 0,
  timeout: 60_000,
  // The groups and the crawl keep both cores busy: what a page shows within a second alone can take more than the
  // default 5 s beside them.
  expect: { timeout: 10_000 },
  reporter: 'list',
  use: {
    launchOptions: {
      executablePath: TEST_CHROMIUM,
      // Every host of the brand files reaches the test server (the crawl visits each brand on its own host).
      args: [...CHROMIUM_ARGS, `--host-resolver-rules=${hostResolverRules()}`],
    },
    // A failure's actions, network and console, without the screencast (a third of the specs' CPU) or the DOM snapshot
    // of each step (a seventh): the failure's screenshot and error-context.md show the page as it failed (decision 0304).
    trace: { mode: 'retain-on-failure', screenshots: false, snapshots: false },
    screenshot: 'only-on-failure',
  },
  projects: [
    { name: 'crawl-setup', use: { browserName: 'chromium', baseURL: origin(CRAWL_PORT) }, testMatch: /crawl\.setup\.ts/ },
    // Each group waits for the crawl's setup only to run in the crawl's phase (Playwright starts a phase when the one
    // before has ended), beside it.
    ...SPEC_GROUPS.map((group, i) => ({ ...group, use: { browserName: 'chromium' as const, baseURL: origin(PORT + i) }, workers: 1, dependencies: ['crawl-setup'] })),
    // A trace of a few hundred visits is too large to keep: the crawl's report names each problem's route and visit.
    {
      name: 'crawl',
      use: { browserName: 'chromium', baseURL: origin(CRAWL_PORT), trace: 'off' },
      testMatch: /crawl\.spec\.ts/,
      dependencies: ['crawl-setup'],
      fullyParallel: true,
    },
  ],
  webServer: [
    // First: each portal opens its open applications at the lender service once it listens (decision 0261).
    {
      command: 'node --import tsx lender-service/main.ts',
      url: `${origin(LENDER_SERVICE_PORT)}/health`,
      reuseExistingServer: false,
      timeout: 60_000,
      env: {
        LENDER_SERVICE_PORT: String(LENDER_SERVICE_PORT),
        LENDER_CALLBACK_SECRET,
        LENDER_SERVICE_PORTAL_API_KEY: DEMO_WEB_API_KEY,
        // Written by each portal as it starts; read by the service when it first calls back.
        LENDER_SERVICE_CALLBACK_CA: PORTALS.map(({ dataDir }) => join(dataDir, 'tls', 'localhost.crt')).join(delimiter),
      },
    },
    ...PORTALS.map(({ port, dataDir }) => ({
      command: 'node --import tsx server/main.ts',
      url: `${origin(port)}/api/health`,
      reuseExistingServer: false,
      timeout: 180_000,
      env: { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', APP_MODE: 'demo', LENDER_SERVICE_PORT: String(LENDER_SERVICE_PORT), LENDER_SERVICE_BESIDE: 'true', LENDER_CALLBACK_SECRET },
    })),
  ],
});
