import { describe, expect, it } from 'vitest';
import { conditionWords } from '../../src/app/studio/conditions.ts';
import { findTexts, placeWords, pointerPath, usesOf } from '../../src/app/studio/find.ts';
import { inOrderOf } from '../../src/app/studio/diff.ts';
import { conditionalText, filesOfPage, partAt, schemaOfFile, toConditionalText, type Doc, type MetaSchemas } from '../../src/app/studio/model.ts';
import { metaSchemas } from '../../codegen/ui-generators.ts';
import { listDescriptorFiles } from '../../core/descriptors/screens.ts';

const metas: MetaSchemas = Object.fromEntries(metaSchemas().map((m) => [m.file, m.schema]));
/** The files as deployed, as the studio reads them: authored, shared parts not written out. */
const DOCS = new Map<string, Doc>(listDescriptorFiles().map((f) => [f.relative, JSON.parse(f.text) as Doc]));
const places = (found: ReturnType<typeof findTexts>) => found.map((f) => `${f.place.path}#${f.place.pointer}`);

describe('finding a place by what a person sees (issue 41)', () => {
  it('finds a heading by its words, in English and through its Spanish translation', () => {
    expect(places(findTexts(DOCS, { seen: 'Apply for financing' }))).toContain('pages/landing-code-start.json#/title');
    // Seen in Spanish: the translation first (the words clicked are its), then the text it translates.
    const spanish = findTexts(DOCS, { seen: 'Solicitar financiamiento' });
    expect(places(spanish)[0]).toBe('languages/es.json#/texts/Apply for financing');
    expect(spanish[0]!.language).toBe('Español');
    expect(places(spanish)).toContain('pages/landing-code-start.json#/title');
  });

  it("matches a text's {…} parts to any words, and a typed search to a part of a text or a file's name", () => {
    const rows = findTexts(DOCS, { seen: 'Applications matching \'smith\'' });
    expect(rows.map((r) => r.text)).toContain("Applications matching '{route.query.search}'");
    expect(findTexts(DOCS, { seen: 'Applications matching' }).map((r) => r.text)).not.toContain("Applications matching '{route.query.search}'");
    expect(places(findTexts(DOCS, { query: 'FOR FINANCING' }))).toContain('pages/landing-code-start.json#/title');
    expect(places(findTexts(DOCS, { query: 'landing-code-st' }))).toContain('pages/landing-code-start.json#');
    expect(findTexts(DOCS, { query: 'x' })).toEqual([]);
  });

  it('finds the words of several texts side by side by the longest texts within them', () => {
    const within = findTexts(DOCS, { seen: 'Apply for financing — Bright Smiles Dental' });
    expect(places(within)).toContain('pages/landing-code-start.json#/title');
  });

  it("names a shared part's uses, and puts the page in view first", () => {
    const save = findTexts(DOCS, { seen: 'Save' });
    const shared = save.find((f) => f.place.path === 'fragments/actions.json' && f.place.pointer.startsWith('/fragments/cancelSaveButtons/'));
    expect(shared?.uses?.map((use) => use.path)).toContain('dialogs/app-note.json');
    expect(usesOf(DOCS, 'cancelSaveButtons').every((use) => (DOCS.get(use.path) as unknown) !== undefined)).toBe(true);
    const near = filesOfPage(DOCS, '/landing/brightsmiles/start', 'bright');
    expect(near).toContain('pages/landing-code-start.json');
    expect(near).toContain('brands/bright.json');
    const first = findTexts(DOCS, { query: 'financing' }, near)[0];
    expect(first && near.has(first.place.path)).toBe(true);
  });

  it('reads pointers with escaped steps, and says a place in words', () => {
    expect(pointerPath('/texts/Yes~1No~0')).toEqual(['texts', 'Yes/No~']);
    expect(pointerPath('#/wording/service')).toEqual(['wording', 'service']);
    expect(placeWords(['sections', '2', 'text'])).toBe('Sections › Section 3 › Text');
  });

  it('shows one part of a file at a time: the field at a place, or the expression or shared part that holds it', () => {
    const page = DOCS.get('pages/landing-code-start.json')!;
    const schema = schemaOfFile('pages/landing-code-start.json', page, metas)!;
    expect(partAt(schema, page, ['title'], metas)).toMatchObject({ name: 'title', path: ['title'] });
    expect(partAt(schema, page, [], metas)).toBeUndefined();
    const dialog = DOCS.get('dialogs/app-note.json')!;
    const dialogSchema = schemaOfFile('dialogs/app-note.json', dialog, metas)!;
    // 'Edit note' is one branch of the title's expression: the expression is the part.
    expect(places(findTexts(DOCS, { seen: 'Edit note' }))).toContain('dialogs/app-note.json#/dialog/title/if/1');
    expect(partAt(dialogSchema, dialog, ['dialog', 'title', 'if', '1'], metas)?.path).toEqual(['dialog', 'title']);
    expect(partAt(dialogSchema, dialog, ['buttons', '1', 'label'], metas)?.path).toEqual(['buttons']);
    const fragments = DOCS.get('fragments/actions.json')!;
    expect(partAt(schemaOfFile('fragments/actions.json', fragments, metas)!, fragments, ['fragments', 'cancelSaveButtons', 'value', '1', 'label'], metas)?.path.slice(0, 2)).toEqual(['fragments', 'cancelSaveButtons']);
  });
});

describe("a change's file compared with the live one (decision 0288)", () => {
  it("puts the keys in the live file's order, so only what changed differs", () => {
    const live = { title: 'A', fields: { b: { label: 'B' }, a: { label: 'A' } }, list: [{ y: 1, x: 2 }] };
    const stored = { list: [{ x: 2, y: 1 }], fields: { a: { label: 'A' }, b: { label: 'B2' }, c: {} }, title: 'A' };
    expect(JSON.stringify(inOrderOf(live, stored))).toBe(JSON.stringify({ title: 'A', fields: { b: { label: 'B2' }, a: { label: 'A' }, c: {} }, list: [{ y: 1, x: 2 }] }));
    expect(inOrderOf(undefined, [1, 'x'])).toEqual([1, 'x']);
  });
});

describe('a text chosen by conditions, as a product owner edits it', () => {
  it('reads the cases and the words otherwise, says simple conditions in words, and writes the expression back', () => {
    const title = { if: [{ var: 'dialog.id' }, 'Edit note', 'Add a note'] };
    const chosen = conditionalText(title)!;
    expect(chosen).toEqual({ cases: [{ when: { var: 'dialog.id' }, text: 'Edit note' }], otherwise: 'Add a note' });
    expect(toConditionalText(chosen)).toEqual(title);
    expect(conditionWords({ var: 'dialog.id' })).toBe('dialog.id is set');
    expect(conditionWords({ '!': { var: 'session.enrolled' } })).toBe('session.enrolled is not set');
    expect(conditionWords({ and: [{ var: 'a' }, { '==': [{ var: 'b' }, 'x'] }] })).toBe('a is set and b is "x"');
    expect(conditionWords({ in: [{ var: 'a' }, ['x']] })).toBe('a is one of "x"');
    expect(conditionWords({ in: [{ var: 'a' }, { var: 'b' }] })).toBeUndefined();
    // A choice whose branch is not words, or without an 'otherwise', is edited as JSON.
    expect(conditionalText({ if: [{ var: 'a' }, { var: 'b' }, 'c'] })).toBeUndefined();
    expect(conditionalText({ if: [{ var: 'a' }, 'b'] })).toBeUndefined();
    expect(conditionalText('plain')).toBeUndefined();
  });
});
