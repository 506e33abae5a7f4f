/**
 * The product's languages as the borrower reads them, from screens/languages/: each language's words for an English
 * source text, so a spec finds on screen what that language shows (a missing translation fails the spec, not the page).
 */
import { readdirSync, readFileSync } from 'node:fs';

interface LanguageFile {
  locale: string;
  name: string;
  source?: boolean;
  texts: Record<string, string>;
}

/** The words of one language for an English source text, its `{placeholders}` filled from `values`. */
export type Words = (source: string, values?: Record<string, string>) => string;

export interface Language {
  locale: string;
  /** The language's own name, as the pickers show it ('Español'). */
  name: string;
  source: boolean;
  words: Words;
  /** English texts long enough to tell apart from names and numbers whose words here differ: none may remain on a page in this language. */
  foreign: string[];
}

const DIR = new URL('../../screens/languages/', import.meta.url);

export function languages(): Language[] {
  return readdirSync(DIR)
    .filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(readFileSync(new URL(f, DIR), 'utf8')) as LanguageFile)
    .map((file) => ({
      locale: file.locale,
      name: file.name,
      source: file.source === true,
      words: (source, values = {}) => {
        const text = file.source ? source : file.texts[source];
        if (text === undefined) throw new Error(`screens/languages/${file.locale}.json has no translation of '${source}'`);
        return text.replace(/\{([^{}|]+)\}/g, (whole, name: string) => values[name] ?? whole);
      },
      foreign: file.source
        ? []
        : Object.entries(file.texts)
            .filter(([source, text]) => source !== text && source.length >= 14 && !/[{}]/.test(source))
            .map(([source]) => source),
    }));
}
