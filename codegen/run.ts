/**
 * `npm run codegen` writes every generated file; `npm run codegen -- --check` only reports the stale
 * ones (and fails), which the test suite runs so that a generated file can never drift.
 */
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import { ROOT } from '../server/contract/documents.ts';
import { generators } from './generators.ts';

const check = process.argv.includes('--check');
let stale = 0;
for (const generator of generators) {
  const content = await generator.generate();
  const current = existsSync(generator.file) ? readFileSync(generator.file, 'utf8') : undefined;
  if (current === content) continue;
  const name = relative(ROOT, generator.file);
  if (check) {
    stale += 1;
    console.error(`stale: ${name} — run npm run codegen`);
  } else {
    mkdirSync(dirname(generator.file), { recursive: true });
    writeFileSync(generator.file, content);
    console.log(`wrote ${name}`);
  }
}
if (stale) process.exit(1);
