/**
 * The texts people read on the borrower's side, found from the data (decision 0216): every place the meta-schemas
 * mark `x-text` in the descriptors a translated route reaches (its page, the pages and dialogs that page names, its
 * layout, its lender file), the titles and words of the forms and enumerations those pages show, the validation
 * messages, and the engine's own words (`tr('…')` in src/). A language file must translate each of them: the unit
 * test names the ones missing, and `npm run texts -- es` lists them for a translator.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../core/contract/documents.ts';
import { filesUnder } from '../core/files.ts';
import { labelNamesIn } from '../core/labels.ts';
import { listDescriptorFiles } from '../core/descriptors/screens.ts';
import { enumerationLabels } from '../core/contract/schema-files.ts';
import { readDescriptor } from '../core/descriptors/read.ts';
import { shownStrings, textsAt } from '../core/descriptors/meta.ts';
import { borrowerSide } from '../core/descriptors/borrower-side.ts';

type Json = unknown;
type Doc = Record<string, Json>;

export { shownStrings };

/** The x-text strings of one descriptor, validated against `schemaRef` ('layouts.schema.json', 'screen.schema.json#/$defs/form'). */
export const markedTexts = (doc: Json, schemaRef: string): Set<string> => new Set([...textsAt(doc, schemaRef).values()].flat());

/** The engine's own words: the literal of each tr('…') call under src/. */
function engineWords(): string[] {
  return filesUnder(join(ROOT, 'src')).flatMap((path) => [...readFileSync(path, 'utf8').matchAll(/\btr\(\s*'((?:[^'\\]|\\.)+)'\s*\)/g)].map((m) => m[1]!.replace(/\\'/g, "'")));
}

export interface FormSchemaSource {
  (name: string): Promise<Doc>;
}

/** Titles and enumeration words of a form's display schema. */
function schemaWords(schema: Json, out: Set<string>): void {
  if (!schema || typeof schema !== 'object') return;
  const node = schema as Doc;
  if (typeof node.title === 'string') out.add(node.title);
  for (const word of Object.values((node['x-labels'] ?? {}) as Record<string, string>)) out.add(word);
  for (const prop of Object.values((node.properties ?? {}) as Doc)) schemaWords(prop, out);
  if (node.items) schemaWords(node.items, out);
}

/**
 * Every text of the borrower's side (the routes marked `translated` and every lender flow) that a language's file must
 * translate, with where it shows: a brand's word translated in the brand itself for that language is not among them.
 */
export async function borrowerTexts(formSchema: FormSchemaSource, locale: string): Promise<Map<string, string>> {
  const files = listDescriptorFiles();
  const docs = new Map(files.filter((f) => f.kind).map((f) => [f.relative, readDescriptor<Doc>(f.kind!, f.file, f.text)]));
  const texts = new Map<string, string>();
  const add = (found: Iterable<string>, where: string) => {
    // A text that is only placeholders ('{item.text}') has no words of its own.
    for (const text of found) if (!texts.has(text) && /\p{L}/u.test(text.replace(/\{[^{}]+\}/g, ''))) texts.set(text, where);
  };
  const side = borrowerSide(docs);
  for (const [place, shown] of side.texts) {
    // A brand's word it translates itself for this language is not the language file's to translate.
    const wording = /^screens\/(brands\/[^#]+)#\/wording\/(.+)$/.exec(place);
    if (wording && ((docs.get(wording[1]!)?.translations ?? {}) as Record<string, Record<string, string>>)[locale]?.[wording[2]!] !== undefined) continue;
    add(shown, wording ? `screens/${wording[1]} (wording)` : place.split('#')[0]!);
  }
  const labels = new Set<string>();
  for (const relative of side.screens) labelNamesIn(docs.get(relative), labels);
  const forms = side.forms;
  const words = new Set<string>();
  for (const form of forms) schemaWords(await formSchema(form), words);
  add(words, 'a form of the borrower side');
  const enumerations = enumerationLabels();
  for (const label of labels) {
    const [kind, name] = label.split(':') as [string, string];
    if (kind === 'label') add(Object.values(enumerations.get(name) ?? {}), `schemas/enums (${name})`);
  }
  const catalogue = JSON.parse(readFileSync(join(ROOT, 'schemas', 'messages.json'), 'utf8')) as { messages: Record<string, string> };
  add(Object.values(catalogue.messages), 'schemas/messages.json');
  add(engineWords(), 'src/ (tr)');
  return texts;
}
