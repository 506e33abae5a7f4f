import { defineConfig } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHROMIUM } from './e2e/chromium.ts';
import { hostResolverRules } from './e2e/support/brands.ts';

const PORT = Number(process.env.E2E_PORT ?? 3199);
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'pos-e2e-'));
// Where crawl.setup.ts leaves the crawl's sign-ins and records: made once by the runner, inherited by its workers.
process.env.E2E_CRAWL_DIR ??= mkdtempSync(join(tmpdir(), 'pos-crawl-'));
/** The crawl's parallel workers (E2E_CRAWL_WORKERS to change); every other spec runs in one worker, in order. */
const CRAWL_WORKERS = Number(process.env.E2E_CRAWL_WORKERS ?? 4);
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  fullyParallel: false,
  workers: CRAWL_WORKERS,
  // Sign-out and sign-in cross the identity provider's redirects; on a loaded 2-core machine one of them
  // can outlast its wait. A retry reruns the role's whole serial group, sign-in included.
  retries: process.env.CI ? 2 : 0,
  timeout: 60_000,
  reporter: 'list',
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    launchOptions: {
      executablePath: CHROMIUM,
      // Every host of the brand files reaches the test server (the crawl visits each brand on its own host).
      args: [...CHROMIUM_ARGS, `--host-resolver-rules=${hostResolverRules()}`],
    },
    trace: 'retain-on-failure',
  },
  projects: [
    // The specs share the demo data and change it: one at a time, in order.
    { name: 'chromium', use: { browserName: 'chromium' }, testIgnore: /crawl\./, workers: 1 },
    // The crawl only reads: its tests run side by side.
    { name: 'crawl-setup', use: { browserName: 'chromium' }, testMatch: /crawl\.setup\.ts/, fullyParallel: true },
    // A trace of a few hundred visits is too large to keep: the crawl's report names each problem's route and visit.
    { name: 'crawl', use: { browserName: 'chromium', trace: 'off' }, testMatch: /crawl\.spec\.ts/, dependencies: ['crawl-setup'], fullyParallel: true },
  ],
  webServer: {
    command: 'node --import tsx server/main.ts',
    url: `http://127.0.0.1:${PORT}/api/health`,
    reuseExistingServer: false,
    timeout: 180_000,
    env: { PORT: String(PORT), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', APP_MODE: 'demo' },
  },
});
