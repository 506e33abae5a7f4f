import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkDescriptors, listDescriptorFiles } from '../../core/descriptors/screens.ts';
import type { DescriptorFile } from '../../core/descriptors/set.ts';
import { kindOfPath } from '../../core/descriptors/kinds.ts';
import { evaluate, text, type Context } from '../../core/expressions.ts';
import { ROOT } from '../../core/contract/documents.ts';
import { labelNamesIn, registerLabels } from '../../core/labels.ts';
import { enumerationLabels } from '../../core/contract/schema-files.ts';

/**
 * The examples of the author guides (docs/authoring/) are run: a block fenced as ```json screens/<file>``` is that file
 * (added, or in place of the one there), ```json screens/<file>#<pointer>``` goes at that place of the file (a pointer
 * ending in '-' appends to a list), and the build's check must pass with all of a page's blocks; a block fenced as
 * ```json expression``` is `{ expression or text, context, result }` and must give its result.
 */
const GUIDES = join(ROOT, 'docs', 'authoring');
const BLOCK = /```json ([^\n]+)\n([\s\S]*?)```/g;

interface Example {
  target: string;
  body: unknown;
}

function examples(page: string): Example[] {
  return [...readFileSync(join(GUIDES, page), 'utf8').matchAll(BLOCK)].map((m) => ({ target: m[1]!.trim(), body: JSON.parse(m[2]!) as unknown }));
}

/** Puts `value` at a JSON pointer of `doc` ('-' as the last step appends). */
function place(doc: unknown, pointer: string, value: unknown): void {
  const steps = pointer.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  const last = steps.pop()!;
  let node = doc as Record<string, unknown>;
  for (const step of steps) {
    node = node[step] as Record<string, unknown>;
    if (!node || typeof node !== 'object') throw new Error(`no ${pointer}`);
  }
  if (Array.isArray(node) && last === '-') node.push(value);
  else node[last] = value;
}

function withExamples(files: DescriptorFile[], blocks: Example[]): DescriptorFile[] {
  const docs = new Map(files.map((f) => [f.file, f]));
  for (const { target, body } of blocks) {
    const [file, pointer] = target.split('#') as [string, string | undefined];
    const relative = file.slice('screens/'.length);
    if (pointer === undefined) {
      docs.set(file, { file, relative, kind: kindOfPath(relative), text: JSON.stringify(body) });
      continue;
    }
    const existing = docs.get(file);
    if (!existing) throw new Error(`${target}: no file ${file}`);
    const doc = JSON.parse(existing.text) as unknown;
    place(doc, pointer, body);
    docs.set(file, { ...existing, text: JSON.stringify(doc) });
  }
  return [...docs.values()];
}

const pages = readdirSync(GUIDES).filter((f) => f.endsWith('.md')).sort();

describe('the examples of the author guides', () => {
  it('are on the pages of each concept', () => {
    for (const page of ['routes.md', 'screens.md', 'widgets.md', 'expressions.md', 'fragments.md', 'brands.md', 'lenders.md', 'migrations.md']) {
      expect(pages).toContain(page);
      expect(examples(page).length, page).toBeGreaterThan(0);
    }
  });

  for (const page of pages) {
    const blocks = examples(page);
    const files = blocks.filter((b) => b.target.startsWith('screens/'));
    const expressions = blocks.filter((b) => b.target === 'expression');
    if (files.length) {
      it(`${page}: the files pass the build's check`, async () => {
        const report = await checkDescriptors(withExamples(listDescriptorFiles(), files));
        expect(report.errors).toEqual([]);
      });
    }
    if (expressions.length) {
      it(`${page}: each expression gives its result`, () => {
        for (const { body } of expressions) {
          const example = body as { expression?: unknown; text?: string; context: Context; result: unknown };
          // The words of the enumerations it names, as the engine loads them with a screen.
          for (const format of labelNamesIn(example)) registerLabels(format, enumerationLabels().get(format.slice('label:'.length)) ?? {});
          const got = example.text !== undefined ? text(example.text, example.context) : evaluate(example.expression, example.context);
          expect({ example, got }).toEqual({ example, got: example.result });
        }
      });
    }
  }
});
