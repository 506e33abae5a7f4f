import { describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { metaSchemas } from '../../codegen/ui-generators.ts';
import { checkDescriptors, listDescriptorFiles } from '../../core/descriptors/screens.ts';
import type { DescriptorFile } from '../../core/descriptors/set.ts';
import { eachSchemaObject, escape, isObject, kindOfRef, URL_KINDS as KINDS, urlPlaces } from '../support/address-places.ts';

/**
 * URLs in descriptors (issue 36, decision 0250): every place a descriptor gives an image or a link refers to one of the
 * URL kinds of common.schema.json, found here by walking the meta-schemas, so a field added later is tested too, and
 * one named like a URL that does not refer to them fails.
 */
const META_ID = 'https://pos.local/screens/_meta/';

const REFUSED_EVERYWHERE = [
  'javascript:alert(1)',
  'JavaScript:alert(1)',
  ' javascript:alert(1)',
  'java\tscript:alert(1)',
  'http://smilefinancing.example/terms',
  '//evil.example/x.png',
  '/\\evil.example/x.png',
  '\\\\evil.example/x.png',
  'https:evil.example/x.png',
  'data:text/html,<script>alert(1)</script>',
  'vbscript:msgbox(1)',
  'blob:https://evil.example/1',
  '',
];

const SAMPLES = {
  image: {
    accepted: ['/logo.svg', 'logo.svg', 'images/logo.png?v=2', 'data:image/png;base64,iVBORw0KGgo=', 'data:image/svg+xml,<svg xmlns="http://www.w3.org/2000/svg"/>'],
    refused: [...REFUSED_EVERYWHERE, 'https://evil.example/x.png', 'data:image/svg', 'mailto:help@smilefinancing.example', '#/home'],
  },
  link: {
    accepted: ['https://smilefinancing.example/terms', '#/home', '/terms', 'terms.html'],
    refused: [...REFUSED_EVERYWHERE, 'mailto:help@smilefinancing.example', 'tel:+15125550100', 'data:image/png;base64,iVBORw0KGgo='],
  },
  contact: {
    accepted: ['https://smilefinancing.example/contact', '#/home', 'mailto:help@smilefinancing.example', 'tel:+15125550100'],
    refused: [...REFUSED_EVERYWHERE, 'mailto: help@smilefinancing.example', 'data:image/png;base64,iVBORw0KGgo='],
  },
};

const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: false });
for (const meta of metaSchemas()) {
  const { $schema: _schema, ...schema } = meta.schema;
  ajv.addSchema(schema, META_ID + meta.file);
}

describe('URLs in descriptors (decision 0250)', () => {
  const places = urlPlaces();

  it('are found wherever a descriptor gives an image or a link', () => {
    expect(places.map((p) => `${p.file}${p.pointer}`)).toEqual(
      expect.arrayContaining([
        'brand.schema.json#/properties/logo/properties/src',
        'brand.schema.json#/properties/footer/properties/termsUrl',
        'brand.schema.json#/properties/footer/properties/privacyUrl',
        'brand.schema.json#/properties/footer/properties/homeUrl',
        'common.schema.json#/$defs/target/properties/href',
        'layouts.schema.json#/$defs/footer/properties/links/items/properties/href',
        'layouts.schema.json#/$defs/office/properties/logo',
        'screen.schema.json#/$defs/detail/properties/sections/items/properties/image/properties/src',
      ]),
    );
  });

  it('are taken or refused by the kind of URL each place gives, written out or as an expression', () => {
    expect(places).not.toEqual([]);
    for (const place of places) {
      const validate = ajv.compile({ $ref: `${META_ID}${place.file}${place.pointer}` });
      const samples = SAMPLES[KINDS[place.def]!];
      const at = `${place.file}${place.pointer} (${place.def})`;
      expect(samples.accepted.filter((value) => !validate(value)), at).toEqual([]);
      expect(samples.refused.filter((value) => validate(value)), at).toEqual([]);
      if (place.def.endsWith('Expression')) expect(validate({ var: 'data.address' }), at).toBe(true);
    }
  });

  it('leave no property named like a URL or an image outside the URL kinds', () => {
    const stray: string[] = [];
    eachSchemaObject((node, file, pointer) => {
      for (const [name, property] of Object.entries(isObject(node.properties) ? node.properties : {})) {
        if (!/(url|href|src|logo|image)$/i.test(name) || !isObject(property)) continue;
        // An object (the brand's logo, a detail section's image) holds its URL in a property of its own.
        if (property.type === 'object') continue;
        if (!kindOfRef(property.$ref, file)) stray.push(`${file}${pointer}/properties/${escape(name)}`);
      }
    });
    expect(stray).toEqual([]);
  });

  it('are refused at the check before publishing in words a product owner understands', async () => {
    const changes: Record<string, (doc: Record<string, any>) => void> = {
      'brands/smile.json': (doc) => {
        doc.logo.src = 'https://evil.example/x.png';
        doc.footer.termsUrl = 'javascript:alert(1)';
      },
      'pages/error.json': (doc) => {
        doc.buttons = [{ id: 'away', label: 'Away', actions: [{ type: 'navigate', to: { href: 'http://evil.example/' } }] }];
      },
    };
    const files = listDescriptorFiles().map((f): DescriptorFile => {
      const change = changes[f.relative];
      if (!change) return f;
      const doc = JSON.parse(f.text) as Record<string, unknown>;
      change(doc);
      return { ...f, text: JSON.stringify(doc) };
    });
    expect((await checkDescriptors(files)).errors).toEqual([
      "screens/brands/smile.json#/logo/src: Images come only from the portal's own files (a path such as /logo.svg) or data:image/… URLs.",
      'screens/brands/smile.json#/footer/termsUrl: Links must start with https://, or lead to a page of the portal itself (#/… or /…).',
      'screens/pages/error.json#/buttons/0/actions/0/to/href: Links must start with https://, or lead to a page of the portal itself (#/… or /…).',
    ]);
  });
});
