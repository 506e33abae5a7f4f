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

/** The new ones of `now`: out of date by a draft, not already in `live`. */
export const addedBy = (now: readonly OutOfDate[], live: readonly OutOfDate[]): OutOfDate[] =>
  now.filter((entry) => !live.some((old) => old.place === entry.place && old.text === entry.text));
