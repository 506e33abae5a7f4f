/**
 * The language a visitor reads (decision 0216): chosen once — the picker, a link's `lang`, or else the browser's
 * languages — and kept for the tab (sessionStorage: on the office's device the next patient starts afresh). A translation is a descriptor (screens/languages/<locale>.json) loaded only
 * when chosen: an English first view carries none.
 */
import type { LanguageDescriptor } from '../../codegen/generated/descriptors.ts';
import { languageOf, negotiate } from '../../core/i18n.ts';
import { languageIndex } from '../../codegen/generated/languages.ts';
import { migrate } from '../../core/descriptors/migrations.ts';
import { currentLanguage, setLanguage, SOURCE_LANGUAGE } from '../../core/current-language.ts';

const files = import.meta.glob<unknown>('../../screens/languages/*.json', { import: 'default' });
const localeOf = (path: string) => path.replace(/^.*\//, '').replace(/\.json$/, '');

/** The languages offered, by code, with their own names ('es' → 'Español'). */
export const languages = languageIndex;

const KEY = 'pos.language';

function stored(): string | null {
  try {
    return sessionStorage.getItem(KEY);
  } catch {
    return null;
  }
}

/** The language to start in: the one chosen on this device, a link's `lang`, or the browser's. */
export function startingLocale(query: Record<string, string>, browser: readonly string[]): string {
  const available = languages.map((l) => l.locale);
  const asked = query.lang ?? stored();
  if (asked && available.includes(asked)) return asked;
  return negotiate(browser.join(','), available, SOURCE_LANGUAGE.locale);
}

/** Loads a language and makes it current; `remember` keeps the choice for the tab. */
export async function chooseLanguage(locale: string, remember: boolean): Promise<void> {
  const load = Object.entries(files).find(([path]) => localeOf(path) === locale)?.[1];
  if (!load || locale === currentLanguage().locale) return;
  const { doc } = migrate<LanguageDescriptor>('language', await load());
  if (remember) {
    try {
      sessionStorage.setItem(KEY, locale);
    } catch {
      // A browser that stores nothing still shows the language for this visit.
    }
  }
  setLanguage(languageOf(doc));
}
