import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../core/contract/documents.ts';
import { filesUnder } from '../../core/files.ts';
import { normalName } from '../../core/typed-name.ts';
import personName from '../../schemas/entities/person-name.json';

/**
 * Names as people write them (issue 37): one definition (schemas/entities/person-name.json), referred to by every
 * property of the contract's schemas that holds a person's name, so the send dialog, the patient's own form, the API
 * and the sign-up page all take 'Lucía Peña' alike.
 */
describe("a person's name", () => {
  const pattern = new RegExp(personName.pattern, 'u');

  it('takes letters of any alphabet, spaces, hyphens and either apostrophe, and nothing else', () => {
    const taken = ['Lucía', 'Peña', 'José María', "O'Brien", 'O’Brien', 'Nguyễn Văn', 'Zoë-Anne', 'Łukasz', 'Ørsted', 'Müller', 'Dvořák', 'Иван', '李'];
    const refused = ['R2D2', 'a<b', 'Ana.', 'Ana_', 'Ana,', '', 'Ana\u0000', '😀'];
    expect(taken.filter((name) => !pattern.test(name))).toEqual([]);
    expect(refused.filter((name) => pattern.test(name))).toEqual([]);
    // A letter written as a base and its accent is the same letter.
    expect(pattern.test('Luci\u0301a')).toBe(true);
  });

  it('is the one definition every name property of the contract refers to', () => {
    const copies: string[] = [];
    const names: string[] = [];
    for (const path of filesUnder(join(ROOT, 'schemas'), /\.json$/)) {
      const walk = (node: unknown, pointer: string) => {
        if (Array.isArray(node)) return node.forEach((child, i) => walk(child, `${pointer}/${i}`));
        if (!node || typeof node !== 'object') return;
        const properties = (node as { properties?: Record<string, { $ref?: string; pattern?: string }> }).properties ?? {};
        for (const [name, property] of Object.entries(properties)) {
          if (!/^(firstName|lastName|typedName)$/.test(name) || property.pattern === undefined && property.$ref === undefined) continue;
          names.push(`${relative(ROOT, path)}${pointer}/properties/${name}`);
          if (!property.$ref?.endsWith('entities/person-name.json')) copies.push(`${relative(ROOT, path)}${pointer}/properties/${name}`);
        }
        for (const [key, child] of Object.entries(node)) walk(child, `${pointer}/${key}`);
      };
      walk(JSON.parse(readFileSync(path, 'utf8')), '#');
    }
    expect(names.length).toBeGreaterThanOrEqual(13);
    expect(copies).toEqual([]);
  });

  it('matches a signature typed with another apostrophe, case or composition of its letters', () => {
    expect(normalName("  maría  o'brien ")).toBe(normalName('María O’Brien'));
    expect(normalName('Luci\u0301a Pen\u0303a')).toBe(normalName('Lucía Peña'));
  });
});
