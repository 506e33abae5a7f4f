import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { metaSchemas } from '../../codegen/ui-generators.ts';

/**
 * The studio's help is the meta-schemas' descriptions (issue 41): written for product owners, they say what a field
 * does in their words, never by a decision's or an issue's number or a source file only developers open.
 */
describe("the studio's help", () => {
  it('cites no decision, issue or source file', () => {
    const cited: string[] = [];
    const walk = (node: unknown, at: string) => {
      if (Array.isArray(node)) node.forEach((item, i) => walk(item, `${at}/${i}`));
      else if (node && typeof node === 'object') {
        for (const [key, value] of Object.entries(node)) {
          if (key === 'description' && typeof value === 'string' && /[Dd]ecisions? \d{4}|docs\/decisions|issue \d+|\b[\w/-]+\.tsx?\b|x-text/.test(value)) cited.push(`${at}: ${value.slice(0, 80)}`);
          walk(value, `${at}/${key}`);
        }
      }
    };
    for (const meta of metaSchemas()) walk(meta.schema, meta.file);
    expect(cited).toEqual([]);
  });

  it("lists no shared part's uses by hand: the studio shows where each is used, from the files themselves", () => {
    const fragments: Record<string, { description?: string }> = Object.assign({}, ...readdirSync('screens/fragments').map((file) => (JSON.parse(readFileSync(`screens/fragments/${file}`, 'utf8')) as { fragments: object }).fragments));
    const names = new Set([...readdirSync('screens/pages'), ...readdirSync('screens/dialogs')].map((file) => file.replace(/\.json$/, '')).concat(Object.keys(fragments), 'layouts.json'));
    const item = String.raw`(?:the )?([A-Za-z][A-Za-z0-9.-]*)(?: (?:fragments?|dialogs?))?`;
    const list = new RegExp(String.raw`(?:, |; )(?:also )?in ${item}((?:(?:, | and )${item})*)[.:]?$`);
    const listed = Object.entries(fragments).filter(([, { description = '' }]) => {
      const found = list.exec(description);
      return found !== null && [...found[0].matchAll(new RegExp(item, 'g'))].map((m) => m[1]!).filter((name) => name !== 'in' && name !== 'also').every((name) => names.has(name));
    });
    expect(listed.map(([name]) => name)).toEqual([]);
  });
});
