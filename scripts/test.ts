/**
 * `npm test`: every test. The API tests share one server and run one file at a time, which leaves a core to the rest:
 * beside them run the type-check and the unit tests (vitest), then, once those two have passed, the web build and
 * end-to-end in Chromium (Playwright) against the freshly built app.
 */
import { spawn } from 'node:child_process';
import { CHROMIUM_MISSING, hasChromium } from '../e2e/chromium.ts';

if (!hasChromium()) {
  console.error(CHROMIUM_MISSING);
  process.exit(1);
}

type Step = [name: string, command: string[]];

const API: Step = ['API tests', ['npx', 'vitest', 'run', '--project', 'api']];
const FIRST: Step[] = [
  ['type-check', ['npx', 'tsc', '-p', 'tsconfig.json', '--noEmit']],
  ['unit tests', ['npx', 'vitest', 'run', '--project', 'unit']],
];
const THEN: Step[] = [
  ['web build', ['npx', 'vite', 'build', '--logLevel', 'warn']],
  ['end-to-end in Chromium', ['npx', 'playwright', 'test']],
];

const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

/**
 * Runs a step; true when it passed. A quiet step's output is held back and shown when it ends, so that steps running
 * together do not interleave; the others' output is shown as it comes.
 */
function run([name, [command, ...args]]: Step, quiet: boolean): Promise<boolean> {
  const started = Date.now();
  if (!quiet) console.log(`\n▶ ${name}`);
  return new Promise((resolve) => {
    const child = spawn(command!, args, { stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    const output: Buffer[] = [];
    child.stdout?.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => output.push(chunk));
    child.on('close', (code) => {
      if (quiet) {
        console.log(`\n▶ ${name}`);
        process.stdout.write(Buffer.concat(output));
      }
      console.log(code === 0 ? `✔ ${name} (${seconds(started)})` : `✖ ${name} failed (${seconds(started)})`);
      resolve(code === 0);
    });
  });
}

/** The steps after the first ones, each once the one before it has passed; the name of the first that failed. */
async function rest(): Promise<string | undefined> {
  const first = await Promise.all(FIRST.map((step) => run(step, true)));
  const failed = FIRST.find((_, i) => !first[i]);
  if (failed) return failed[0];
  for (const step of THEN) if (!(await run(step, false))) return step[0];
  return undefined;
}

console.log(`\n▶ ${[API, ...FIRST].map(([name]) => name).join(', ')}, side by side (each one's output when it ends); then ${THEN.map(([name]) => name).join(', ')}`);
const [apiPassed, failed] = await Promise.all([run(API, true), rest()]);
const failures = [...(apiPassed ? [] : [API[0]]), ...(failed ? [failed] : [])];
if (failures.length) {
  console.error(`\n✖ ${failures.join(', ')} failed`);
  process.exit(1);
}
