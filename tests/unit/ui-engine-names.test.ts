/**
 * Engine code names no lender, brand, role value or route path (issue 3 "Done when"): the values are read from the
 * descriptors themselves, so a new lender, brand, role or route is checked without touching this test.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../core/contract/documents.ts';
import { filesUnder } from '../../core/files.ts';
import { listDescriptorFiles } from '../../core/descriptors/screens.ts';
import { readDescriptor } from '../../core/descriptors/read.ts';

const ENGINE = join(ROOT, 'src', 'engine');

/** Code without comments, so prose about "platform admins" is not a role value. */
function code(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

function collect(): { lenders: string[]; brands: string[]; roles: string[]; paths: string[] } {
  // As the engine reads them: parts written once in screens/fragments/, in place.
  const docs = listDescriptorFiles()
    .filter((f) => f.kind && f.kind !== 'fragments')
    .map((f) => ({ ...f, doc: readDescriptor<Record<string, unknown>>(f.kind!, f.file, f.text) }));
  const lenders = docs.filter((d) => d.kind === 'lender').map((d) => String(d.doc.code));
  const brands = docs.filter((d) => d.kind === 'brand').map((d) => String(d.doc.id));
  const roles = new Set<string>();
  const paths = new Set<string>();
  const walk = (node: unknown, key?: string) => {
    if (Array.isArray(node)) return node.forEach((n) => walk(n, key));
    if (!node || typeof node !== 'object') return;
    for (const [k, v] of Object.entries(node)) {
      if ((k === 'roles' || k === 'userRoles') && Array.isArray(v)) v.forEach((r) => roles.add(String(r)));
      else walk(v, k);
    }
  };
  for (const d of docs) walk(d.doc);
  const table = docs.find((d) => d.kind === 'routes')!.doc as { routes: Array<{ path: string }>; lenderFlows: { pathPrefix: string } };
  for (const r of table.routes) paths.add(r.path);
  for (const d of docs.filter((x) => x.kind === 'lender')) {
    const prefix = table.lenderFlows.pathPrefix.replaceAll('{code}', String(d.doc.code));
    for (const r of d.doc.routes as Array<{ path: string }>) paths.add((prefix + r.path).replace(/\/$/, ''));
  }
  return { lenders, brands, roles: [...roles], paths: [...paths].filter((p) => p.replace(/[/:?]/g, '').length > 1) };
}

describe('the engine (src/engine/)', () => {
  const named = collect();
  const files = filesUnder(ENGINE).map((file) => ({ file: relative(ROOT, file), code: code(readFileSync(file, 'utf8')) }));

  it('reads its names from descriptors that have them', () => {
    expect(named.lenders.length).toBeGreaterThan(0);
    expect(named.brands.length).toBeGreaterThan(1);
    expect(named.roles).toEqual(expect.arrayContaining(['admin', 'support', 'df.admin', 'dfi.admin']));
    expect(named.paths.length).toBeGreaterThan(40);
  });

  it.each([
    ['lender code', () => named.lenders],
    ['brand id', () => named.brands],
    ['role value', () => named.roles],
  ])('names no %s', (_what, values) => {
    for (const { file, code: text } of files) {
      for (const value of values()) {
        const word = new RegExp(`(^|[^A-Za-z0-9_.-])${value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^A-Za-z0-9_-])`);
        expect(word.test(text), `${file} names '${value}'`).toBe(false);
      }
    }
  });

  it('names no route path', () => {
    for (const { file, code: text } of files) {
      // Module specifiers ('../descriptors/errors.ts') are file paths, not route paths.
      const withoutImports = text.replace(/\bfrom\s*(['"])[^'"]*\1/g, '').replace(/\bimport\s*\(\s*(['"])[^'"]*\1\s*\)/g, '').replace(/^\s*import\s*(['"])[^'"]*\1/gm, '');
      const literals = [...withoutImports.matchAll(/(['"`])((?:\\.|(?!\1).)*)\1/g)].map((m) => m[2]!);
      for (const path of named.paths) {
        // A route path, or its static start ('/admin/apps' of '/admin/apps/:id'), inside a string literal.
        const stem = path.split('/:')[0]!;
        const hit = literals.find((literal) => literal === path || (stem.length > 1 && literal.includes(stem)));
        expect(hit, `${file} names the route path '${path}' in '${hit}'`).toBeUndefined();
      }
    }
  });
});
