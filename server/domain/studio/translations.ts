/**
 * The state of each language in a set (issue 37, decision 0255): the texts its files show in place of ones the
 * language translated, read from the deployed files to the set's (the files it serves: every one a draft or a shared
 * part changed).
 */
import type { LanguageDescriptor } from '../../../codegen/generated/descriptors.ts';
import { kindOfPath } from '../../../core/descriptors/kinds.ts';
import { textsAt } from '../../../core/descriptors/meta.ts';
import { addedBy, coverage, outOfDate, type LanguageState, type TextsByPlace } from '../../../core/descriptors/translation-state.ts';
import type { StudioCheck } from '../../../codegen/generated/schemas.ts';
import { quoted, shortened } from '../../../core/descriptors/errors.ts';
import { builtExpanded, servedFiles } from '../../descriptors/live.ts';
import { borrowerSide } from '../../../core/descriptors/borrower-side.ts';

type Doc = Record<string, unknown>;

/** The meta-schema a file's texts are read by: its kind's; a page's or dialog's, its screen kind's. */
function schemaRefOf(path: string, doc: Doc): string | undefined {
  const kind = kindOfPath(path);
  if (!kind || kind === 'language' || kind === 'fragments') return undefined;
  return kind === 'screen' ? `screen.schema.json#/$defs/${String(doc.kind)}` : `${kind}.schema.json`;
}

function textsOf(files: ReadonlyArray<readonly [string, unknown]>): TextsByPlace {
  const texts = new Map<string, string[]>();
  for (const [path, doc] of files) {
    const schemaRef = schemaRefOf(path, doc as Doc);
    if (schemaRef) for (const [pointer, shown] of textsAt(doc, schemaRef)) texts.set(`screens/${path}#${pointer}`, shown);
  }
  return texts;
}

/** A brand's own words in a language, by the place of the word they translate. */
function ownWords(files: ReadonlyArray<readonly [string, unknown]>, locale: string): Map<string, string> {
  const words = new Map<string, string>();
  for (const [path, doc] of files) {
    if (kindOfPath(path) !== 'brand') continue;
    const own = ((doc as { translations?: Record<string, Record<string, string>> }).translations ?? {})[locale] ?? {};
    for (const [key, word] of Object.entries(own)) words.set(`screens/${path}#/wording/${key}`, word);
  }
  return words;
}

/** Every language but the source one, in a set with `overlay`: the texts out of date in each. */
export function languageStates(overlay: Readonly<Record<string, unknown>>): LanguageState[] {
  const served = Object.entries(servedFiles(overlay));
  const built = builtExpanded();
  const deployed = served.flatMap(([path]) => (built.has(path) ? [[path, built.get(path)] as const] : []));
  const before = textsOf(deployed);
  const after = textsOf(served);
  // Coverage reads the whole borrower side of the set, not only the files the overlay serves.
  const all = [...new Map([...built, ...served])];
  const borrower = borrowerSide(new Map(all as Array<[string, Doc]>)).texts;
  const languages = new Map([...built, ...served].filter(([path]) => kindOfPath(path) === 'language') as Array<[string, LanguageDescriptor]>);
  return [...languages.values()]
    .filter((language) => !language.source)
    .sort((a, b) => a.locale.localeCompare(b.locale))
    .map(({ locale, name, texts }) => {
      const translations = { texts: texts as Record<string, string>, ownBefore: ownWords(deployed, locale), ownAfter: ownWords(served, locale) };
      return { locale, name, coverage: coverage(borrower, { texts: translations.texts, ownAfter: ownWords(all, locale) }), outOfDate: outOfDate(before, after, translations) };
    });
}

/** The languages of the set a draft makes out of a live one, each text out of date marked when the draft makes it so. */
export function draftLanguageStates(live: Readonly<Record<string, unknown>>, after: Readonly<Record<string, unknown>>): StudioCheck['languages'] {
  const before = new Map(languageStates(live).map((language) => [language.locale, language.outOfDate]));
  return languageStates(after).map((language) => {
    const added = addedBy(language.outOfDate, before.get(language.locale) ?? []);
    return { ...language, outOfDate: language.outOfDate.map((entry) => ({ ...entry, draft: added.includes(entry) })) };
  });
}

/** Why a draft is not published as it is: the texts it makes out of date, by language, in a sentence. */
export function outOfDateRefusal(states: ReturnType<typeof draftLanguageStates>): string | undefined {
  const named = states.flatMap(({ name, outOfDate }) => {
    const texts = outOfDate.filter((entry) => entry.draft);
    return texts.length ? [`${name}: ${texts.map((entry) => `${quoted(entry.text)} (was ${quoted(entry.was)}, ${quoted(entry.translation)})`).join(', ')}`] : [];
  });
  if (!named.length) return undefined;
  return `Not published: the draft changes texts that are translated, and the translations would be out of date (${shortened(named.join('; '), 1_000)}). Translate them in the language files, or choose to publish with these texts in English for now.`;
}
