/** `npm run codegen` writes every generated file that is missing or stale (tests/unit/codegen.test.ts checks them). */
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import { ROOT } from '../core/contract/documents.ts';
import { generators } from './generators.ts';
import { rewriteOldDescriptors } from '../core/descriptors/screens.ts';

for (const generator of generators) {
  const content = await generator.generate();
  if (existsSync(generator.file) && readFileSync(generator.file, 'utf8') === content) continue;
  mkdirSync(dirname(generator.file), { recursive: true });
  writeFileSync(generator.file, content);
  console.log(`wrote ${relative(ROOT, generator.file)}`);
}

// UI descriptors in an older format are rewritten in the current one (docs/decisions/0041-descriptor-formats.md).
for (const file of rewriteOldDescriptors()) console.log(`migrated ${file} to the current format`);
