/**
 * `npm test`: every test. The type-check, the unit tests (generated files up to date among them) and the API tests
 * (vitest) run side by side: the API tests share one server and run one file at a time, which leaves a core to the
 * others. Then the web build, then end-to-end in Chromium (Playwright) against the freshly built app.
 */
import { spawn, spawnSync } from 'node:child_process';
import { CHROMIUM_MISSING, hasTestChromium } from '../e2e/chromium.ts';
import { requireSupportedNode } from './runtime.ts';

requireSupportedNode();
console.log(`Node.js ${process.versions.node}`);

if (!hasTestChromium()) {
  console.error(CHROMIUM_MISSING);
  process.exit(1);
}

type Step = [name: string, command: string[]];

const together: Step[] = [
  ['API tests', ['npx', 'vitest', 'run', '--project', 'api']],
  ['type-check', ['npx', 'tsc', '-p', 'tsconfig.json', '--noEmit']],
  ['unit tests', ['npx', 'vitest', 'run', '--project', 'unit']],
  ['lender service tests', ['npx', 'vitest', 'run', '--project', 'lender-service']],
];
const inTurn: Step[] = [
  ['web build', ['npx', 'vite', 'build', '--logLevel', 'warn']],
  ['end-to-end in Chromium', ['npx', 'playwright', 'test']],
];

const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

function fail(name: string): never {
  console.error(`\n✖ ${name} failed`);
  process.exit(1);
}

/** Runs a step with its output held back, so that steps running together do not interleave: shown when it ends. */
function runQuietly([name, [command, ...args]]: Step): Promise<boolean> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command!, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const output: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
    child.on('close', (code) => {
      console.log(`\n▶ ${name}`);
      process.stdout.write(Buffer.concat(output));
      console.log(code === 0 ? `✔ ${name} (${seconds(started)})` : `✖ ${name} failed (${seconds(started)})`);
      resolve(code === 0);
    });
  });
}

console.log(`\n▶ ${together.map(([name]) => name).join(', ')}, side by side (each one's output when it ends)`);
const results = await Promise.all(together.map(runQuietly));
const failed = together.filter((_, i) => !results[i]).map(([name]) => name);
if (failed.length) fail(failed.join(', '));

for (const [name, [command, ...args]] of inTurn) {
  console.log(`\n▶ ${name}`);
  const started = Date.now();
  const result = spawnSync(command!, args, { stdio: 'inherit' });
  if (result.status !== 0) fail(name);
  console.log(`✔ ${name} (${seconds(started)})`);
}
