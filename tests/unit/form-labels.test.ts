import { describe, expect, it } from 'vitest';
import { checkDescriptors } from '../../core/descriptors/screens.ts';
import { propertyPaths } from '../../src/engine/forms/model.ts';

/**
 * People see words, not codes: every property a form shows has its words — the field's label, or the schema's title —
 * so no dialog asks for 'endpointId'. A property the form does not show is given the hidden widget, is never visible, or
 * is left out of its `show`. Over every form of screens/, fragments expanded, against the generated form schemas.
 */
type Schema = { title?: string; properties?: Record<string, Schema>; items?: Schema };
type Field = { label?: unknown; widget?: string; visible?: unknown };

const { descriptors } = await checkDescriptors();
const forms = descriptors.filter((d) => d.kind === 'screen' && d.doc.kind === 'form' && typeof d.doc.schema === 'string');

function nodeAt(schema: Schema, path: string): Schema | undefined {
  let node: Schema | undefined = schema;
  for (const part of path.split('.')) {
    node = node?.properties?.[part] ?? node?.items?.properties?.[part];
  }
  return node;
}

describe('the fields forms show', () => {
  it('each have words for their label', async () => {
    const unnamed: string[] = [];
    for (const form of forms) {
      const { schema } = (await import(`../../codegen/generated/forms/${String(form.doc.schema)}.ts`)) as { schema: Schema };
      const fields = (form.doc.fields ?? {}) as Record<string, Field | undefined>;
      const show = form.doc.show as string[] | undefined;
      // Off the form: the hidden widget, never visible, or left out of `show`; a widget of its own (the identity
      // questions) draws what is inside it.
      const unseen = (path: string) =>
        path.split('.').some((_, i, parts) => {
          const at = parts.slice(0, i + 1).join('.');
          const field = fields[at];
          if (at !== path && field?.widget !== undefined) return true;
          return field?.widget === 'hidden' || field?.visible === false || (show !== undefined && !show.some((s) => at === s || s.startsWith(`${at}.`) || at.startsWith(`${s}.`)));
        });
      for (const path of propertyPaths(schema as Record<string, unknown>)) {
        if (unseen(path) || fields[path]?.label !== undefined || nodeAt(schema, path)?.title) continue;
        unnamed.push(`${form.file}: ${path}`);
      }
    }
    expect(unnamed).toEqual([]);
  });
});
