/**
 * `npm test`: every test, in order of cost — type-check, unit tests (generated files up to date among them), API
 * tests (vitest), then end-to-end in Chromium (Playwright) against a freshly built app.
 */
import { spawnSync } from 'node:child_process';
import { CHROMIUM_MISSING, hasChromium } from '../e2e/chromium.ts';

if (!hasChromium()) {
  console.error(CHROMIUM_MISSING);
  process.exit(1);
}

const steps: Array<[string, string[]]> = [
  ['type-check', ['npx', 'tsc', '-p', 'tsconfig.json', '--noEmit']],
  ['unit and API tests', ['npx', 'vitest', 'run']],
  ['web build', ['npx', 'vite', 'build', '--logLevel', 'warn']],
  ['end-to-end in Chromium', ['npx', 'playwright', 'test']],
];

for (const [name, [command, ...args]] of steps) {
  console.log(`\n▶ ${name}`);
  const started = Date.now();
  const result = spawnSync(command!, args, { stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`\n✖ ${name} failed`);
    process.exit(result.status ?? 1);
  }
  console.log(`✔ ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}
