import { readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../core/contract/documents.ts';
import { filesUnder } from '../../core/files.ts';

/**
 * Types the generator makes are not written by hand (issue 18): an object type of core/, src/ or server/ whose
 * property names are exactly those of a type generated from the contract or the meta-schemas (codegen/generated/) is
 * a copy that will drift — import the generated one, or derive from it (Pick, Omit, Partial).
 */
const GENERATED = ['schemas.ts', 'descriptors.ts', 'api.ts'].map((file) => join(ROOT, 'codegen', 'generated', file));
const HAND_WRITTEN = ['core', 'src', 'server'];

interface Shape {
  name: string;
  where: string;
  properties: string[];
}

/** Every interface and object type literal of a source text, named by its declaration or property. */
function shapesOf(where: string, text: string): Shape[] {
  const source = ts.createSourceFile(where, text, ts.ScriptTarget.Latest, true);
  const shapes: Shape[] = [];
  const names = (members: ts.NodeArray<ts.TypeElement>) => members.flatMap((m) => (m.name ? [m.name.getText(source).replace(/^['"]|['"]$/g, '')] : []));
  const visit = (node: ts.Node, name: string) => {
    if (ts.isInterfaceDeclaration(node)) shapes.push({ name: node.name.text, where, properties: names(node.members) });
    else if (ts.isTypeLiteralNode(node)) shapes.push({ name, where, properties: names(node.members) });
    const childName = ts.isTypeAliasDeclaration(node) || ts.isInterfaceDeclaration(node) ? node.name.text : ts.isPropertySignature(node) ? node.name.getText(source) : name;
    ts.forEachChild(node, (child) => visit(child, childName));
  };
  visit(source, '');
  return shapes;
}

const key = (properties: string[]) => [...new Set(properties)].sort().join(',');

/** The hand-written shapes that copy a generated one (three properties or more, the same names). */
function copies(generated: Shape[], handWritten: Shape[]): string[] {
  const made = new Map<string, Shape>();
  for (const shape of generated) if (shape.properties.length >= 3 && !made.has(key(shape.properties))) made.set(key(shape.properties), shape);
  return handWritten
    .filter((shape) => shape.properties.length >= 3 && made.has(key(shape.properties)))
    .map((shape) => `${shape.where} ${shape.name || '(inline type)'} copies ${made.get(key(shape.properties))!.name} of ${made.get(key(shape.properties))!.where}`);
}

const read = (file: string) => shapesOf(relative(ROOT, file).split(sep).join('/'), readFileSync(file, 'utf8'));

describe('generated types', () => {
  it('are not written again by hand in core/, src/ or server/', () => {
    const generated = GENERATED.flatMap(read);
    const handWritten = HAND_WRITTEN.flatMap((dir) => filesUnder(join(ROOT, dir))).flatMap(read);
    expect(generated.length).toBeGreaterThan(500);
    expect(copies(generated, handWritten)).toEqual([]);
  });

  it('finds a copy when there is one', () => {
    const generated = read(GENERATED[0]!);
    const copy = shapesOf('server/x.ts', 'export interface Link { url: string; token: string; expiresAtUtc: string }');
    const derived = shapesOf('server/y.ts', "type Link = Pick<DownloadUrl, 'url' | 'token'>; const f = (): { url: string; token: string } => x;");
    expect(copies(generated, copy)).toEqual(['server/x.ts Link copies DownloadUrl of codegen/generated/schemas.ts']);
    expect(copies(generated, derived)).toEqual([]);
  });
});
