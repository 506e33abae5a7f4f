import { describe, expect, it } from 'vitest';
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
});
