import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { overriddenField, schemaOfFile, sharedParts, wizardSteps, type Doc, type MetaSchemas, type StudioFile } from '../../src/app/studio/model.ts';
import { metaSchemas } from '../../codegen/ui-generators.ts';
import { kindOfPath } from '../../core/descriptors/kinds.ts';

/**
 * Issue 37: a field the studio's form offers but that cannot take effect in its file is not offered; it says why and
 * goes to the part that shows instead. Over every form and dialog of screens/, as deployed.
 */
const metas: MetaSchemas = Object.fromEntries(metaSchemas().map((m) => [m.file, m.schema]));
const SCREENS = join(import.meta.dirname, '../../screens');
const screens: StudioFile[] = ['pages', 'dialogs'].flatMap((place) =>
  readdirSync(join(SCREENS, place)).map((name) => ({ path: `${place}/${name}`, kind: kindOfPath(`${place}/${name}`)!, doc: JSON.parse(readFileSync(join(SCREENS, place, name), 'utf8')) as Doc, published: false, deployed: true })),
);
const steps = wizardSteps(screens, {});
const partFiles = sharedParts(
  readdirSync(join(SCREENS, 'fragments')).map((name) => ({ path: `fragments/${name}`, kind: 'fragments', doc: JSON.parse(readFileSync(join(SCREENS, 'fragments', name), 'utf8')) as Doc, published: false, deployed: true })),
).fileOf;
const propertyOf = (file: StudioFile, ...path: string[]) => {
  let schema = schemaOfFile(file.path, file.doc, metas)!.schema;
  for (const [i, name] of path.entries()) {
    const property = (schema.properties as Record<string, Record<string, unknown>>)[name]!;
    if (i === path.length - 1) return property;
    // The submit's own definition (screen.schema.json#/$defs/submit).
    schema = ((metas['screen.schema.json']!.$defs as Record<string, Doc>)[String(property.$ref).split('/').pop()!]) as Record<string, unknown>;
  }
  throw new Error('no path');
};
const forms = screens.filter((f) => f.doc.kind === 'form' && f.doc.submit);

describe('fields that cannot take effect (issue 37)', () => {
  it("a form's Submit → Label is not offered where the form's buttons show instead: it goes to the shared part that draws them, or to the buttons", () => {
    const note = forms.find((f) => f.path === 'dialogs/app-note.json')!;
    expect(note.doc.buttons).toEqual({ $use: 'cancelSaveButtons' });
    expect(overriddenField(propertyOf(note, 'submit', 'label'), note.path, note.doc, steps.get(note.path), partFiles)).toEqual({
      says: expect.stringMatching(/^Not shown: the form's own buttons show instead/),
      goTo: { path: 'fragments/actions.json', pointer: '/fragments/cancelSaveButtons', words: "the shared part 'cancelSaveButtons'" },
    });
    const funded = forms.find((f) => f.path === 'dialogs/admin-mark-funded.json')!;
    expect(overriddenField(propertyOf(funded, 'submit', 'label'), funded.path, funded.doc, undefined, partFiles)?.goTo).toEqual({ path: funded.path, pointer: '/buttons', words: 'the buttons' });
  });

  it("a wizard step's Submit → Label goes to the wizard's step, whose Back and Next show instead", () => {
    const bank = forms.find((f) => f.path === 'pages/enroll-bank.json')!;
    expect(bank.doc.buttons).toBeUndefined();
    expect(overriddenField(propertyOf(bank, 'submit', 'label'), bank.path, bank.doc, steps.get(bank.path), partFiles)).toEqual({
      says: expect.stringMatching(/^Not shown: a step of a wizard/),
      goTo: { path: 'pages/enroll.json', pointer: expect.stringMatching(/^\/steps\/\d$/), words: "the wizard's step (pages/enroll.json)" },
    });
    // The same form alone, on no wizard and with no buttons, shows its submit button's label.
    expect(overriddenField(propertyOf(bank, 'submit', 'label'), bank.path, bank.doc, undefined, partFiles)).toBeUndefined();
  });

  it("a dialog's own Title is not offered: the dialog frame's title shows", () => {
    const dialogs = screens.filter((f) => f.path.startsWith('dialogs/') && (f.doc.kind === 'form' || f.doc.kind === 'dialog'));
    expect(dialogs.length).toBeGreaterThan(5);
    for (const dialog of dialogs) expect(overriddenField(propertyOf(dialog, 'title'), dialog.path, dialog.doc, undefined, partFiles)?.goTo, dialog.path).toEqual({ path: dialog.path, pointer: '/dialog', words: 'the dialog' });
    const page = screens.find((f) => f.path === 'pages/enroll-bank.json')!;
    expect(overriddenField(propertyOf(page, 'title'), page.path, page.doc, undefined, partFiles)).toBeUndefined();
  });
});
