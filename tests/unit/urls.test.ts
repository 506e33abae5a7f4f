import { describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { metaSchemas } from '../../codegen/ui-generators.ts';
import { safeContactLink, safeImageSource, safeLink } from '../../core/urls.ts';
import { resolveTarget, TargetError } from '../../src/engine/routing.ts';

/**
 * What an expression gives at run time is checked by the rule the meta-schemas hold for written values (decision 0250):
 * the engine follows a link and loads an image only when it passes.
 */

/** A value, and whether a link, a link to reach someone and an image take it. */
type Case = [value: unknown, link: boolean, contact: boolean, image: boolean];
const CASES: Case[] = [
  ['https://smilefinancing.example/terms', true, true, false],
  ['#/app/prequal/0', true, true, false],
  ['/api/Files/GetPublicContent/6b1f', true, true, true],
  ['logo.svg', true, true, true],
  ['mailto:help@smilefinancing.example', false, true, false],
  ['tel:+15125550100', false, true, false],
  ['data:image/png;base64,iVBORw0KGgo=', false, false, true],
  ['data:image/jpeg;base64,/9j/4AAQ', false, false, true],
  ['data:image/gif;base64,R0lGOD', false, false, true],
  ['data:image/webp;base64,UklGR', false, false, true],
  // An SVG image runs no script in an <img>.
  ['data:image/svg+xml,<svg xmlns="http://www.w3.org/2000/svg"/>', false, false, true],
  ['data:text/html,<script>alert(1)</script>', false, false, false],
  ['data:image/svg', false, false, false],
  ['DATA:image/png;base64,iVBORw0KGgo=', false, false, false],
  ['javascript:alert(1)', false, false, false],
  ['JaVaScRiPt:alert(1)', false, false, false],
  // Browsers drop leading control characters and spaces, and tabs and newlines anywhere.
  ['\u0001javascript:alert(1)', false, false, false],
  [' javascript:alert(1)', false, false, false],
  ['java\nscript:alert(1)', false, false, false],
  ['java\tscript:alert(1)', false, false, false],
  ['mailto: help@smilefinancing.example', false, false, false],
  ['http://smilefinancing.example/', false, false, false],
  // This machine's own addresses are secure contexts for browsers (the demo's lender service runs there); no other http.
  ['http://127.0.0.1:3300/signing/upg/abc', true, true, false],
  ['http://localhost:3300/', true, true, false],
  ['http://[::1]/x', true, true, false],
  ['http://127.0.0.1.evil.example/', false, false, false],
  ['http://localhost.evil.example/', false, false, false],
  ['http://localhost@evil.example/', false, false, false],
  ['http://127.0.0.2/', false, false, false],
  ['https:evil.example', false, false, false],
  ['https://', false, false, false],
  // Another site, by a path that looks like one of the portal's: browsers read a backslash as '/'.
  ['//evil.example/x.png', false, false, false],
  ['/\\evil.example/x.png', false, false, false],
  ['\\\\evil.example', false, false, false],
  ['vbscript:msgbox(1)', false, false, false],
  ['blob:https://evil.example/1', false, false, false],
  ['ftp://files.example/x', false, false, false],
  ['', false, false, false],
  [undefined, false, false, false],
  [null, false, false, false],
  [42, false, false, false],
  [{ href: 'https://smilefinancing.example/' }, false, false, false],
];

describe('safe links and image sources (core/urls.ts)', () => {
  it("follow an https address or a page of the portal (for a contact also mailto: and tel:), and load an image of the portal's own files or a data:image/ URL", () => {
    const taken = (value: unknown): Case => [value, safeLink(value) !== undefined, safeContactLink(value) !== undefined, safeImageSource(value) !== undefined];
    expect(CASES.map(([value]) => taken(value))).toEqual(CASES);
    expect(safeLink('https://smilefinancing.example/terms')).toBe('https://smilefinancing.example/terms');
  });

  it('say what the meta-schemas say of the same value written in a descriptor', () => {
    const ajv = new Ajv2020({ strict: false });
    for (const meta of metaSchemas()) {
      const { $schema: _schema, ...schema } = meta.schema;
      ajv.addSchema(schema, meta.file);
    }
    const strings = CASES.map(([value]) => value).filter((value): value is string => typeof value === 'string');
    for (const [def, check] of [['link', safeLink], ['contactLink', safeContactLink], ['imageSource', safeImageSource]] as const) {
      const validate = ajv.compile({ $ref: `common.schema.json#/$defs/${def}` });
      expect(strings.filter((value) => validate(value)), def).toEqual(strings.filter((value) => check(value) !== undefined));
    }
  });

  it('keep the engine from going to an address that fails', () => {
    expect(resolveTarget({ href: { var: 'u' } }, { u: 'https://smilefinancing.example/' }, [])).toEqual({ kind: 'href', href: 'https://smilefinancing.example/' });
    for (const u of ['javascript:alert(1)', 'http://smilefinancing.example/', 'data:text/html,x', undefined]) {
      expect(() => resolveTarget({ href: { var: 'u' } }, { u }, []), String(u)).toThrow(TargetError);
    }
  });
});
