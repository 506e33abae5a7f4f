/**
 * Each language's state against the source texts (issue 37, decision 0255). A translation is keyed by its source text
 * (decision 0216), so a changed source text silently loses it: readers of that language see the new text in English.
 * A text is out of date in a language when its place (a file and a pointer to an x-text) showed a text the language
 * translated, and now shows one it does not translate. A place may have a translation of its own (a brand's word in a
 * language, beside its wording): the place's text changed and its own translation not is out of date too.
 */
import type { Texts } from '../i18n.ts';
import type { StudioCheck } from '../../codegen/generated/schemas.ts';

/** The texts of files by place: 'screens/brands/smile.json#/wording/service' → the strings it can show. */
export type TextsByPlace = ReadonlyMap<string, readonly string[]>;

/** A text out of date in a language (the contract's, without whether a draft made it so). */
export type OutOfDate = Omit<StudioCheck['languages'][number]['outOfDate'][number], 'draft'>;

export type LanguageState = Omit<StudioCheck['languages'][number], 'outOfDate'> & { outOfDate: OutOfDate[] };

/** A language's translations: of source texts, and of places with their own (before and after), by place. */
export interface Translations {
  texts: Texts;
  ownBefore: ReadonlyMap<string, string>;
  ownAfter: ReadonlyMap<string, string>;
}

/** The texts out of date in a language, from the deployed texts to the texts of a set. */
export function outOfDate(before: TextsByPlace, after: TextsByPlace, { texts, ownBefore, ownAfter }: Translations): OutOfDate[] {
  const found: OutOfDate[] = [];
  for (const [place, shown] of after) {
    const earlier = before.get(place) ?? [];
    const own = ownAfter.get(place);
    const translationBefore = (text: string | undefined) => (text === undefined ? undefined : (ownBefore.get(place) ?? texts[text]));
    shown.forEach((text, i) => {
      if (earlier.includes(text)) return;
      if (own !== undefined ? own !== ownBefore.get(place) : texts[text] !== undefined) return;
      // The text in the same position of the expression, else the first one translated there.
      const was = [earlier[i], ...earlier].find((old) => old !== undefined && !shown.includes(old) && translationBefore(old) !== undefined);
      if (was !== undefined) found.push({ place, text, was, translation: translationBefore(was)! });
    });
  }
  return found;
}

/** A text worth translating: words, not only placeholders ('{row.firstName} {row.lastName}' is not). */
const hasWords = (text: string) => /\p{L}/u.test(text.replace(/\{[^{}]+\}/g, ''));

/**
 * How much of the borrower side's texts a language translates (issue 41, item 4): each text of words at each place
 * counts once; translated by the language's texts, or by a place's own translation (a brand's word). The files with
 * untranslated texts come most first.
 */
export function coverage(borrowerTexts: TextsByPlace, { texts, ownAfter }: Pick<Translations, 'texts' | 'ownAfter'>): LanguageState['coverage'] {
  let total = 0;
  let translated = 0;
  const missing = new Map<string, number>();
  for (const [place, shown] of borrowerTexts) {
    const file = place.split('#')[0]!;
    for (const text of shown) {
      if (!hasWords(text)) continue;
      total += 1;
      if (ownAfter.has(place) || texts[text] !== undefined) translated += 1;
      else missing.set(file, (missing.get(file) ?? 0) + 1);
    }
  }
  const files = [...missing].map(([file, count]) => ({ file, missing: count })).sort((a, b) => b.missing - a.missing || a.file.localeCompare(b.file));
  return { translated, total, files: files.slice(0, 300) };
}

/** The new ones of `now`: out of date by a draft, not already in `live`. */
export const addedBy = (now: readonly OutOfDate[], live: readonly OutOfDate[]): OutOfDate[] =>
  now.filter((entry) => !live.some((old) => old.place === entry.place && old.text === entry.text));
