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
import { filesOf, withPublished, type SetFiles } from '../../core/descriptors/overlay.ts';
import { appMode } from './mode.ts';
import { TAB_KEYS } from '../../core/tab-keys.ts';

const files = import.meta.glob<unknown>('../../screens/languages/*.json', { import: 'default' });
const localeOf = (path: string) => path.replace(/^.*\//, '').replace(/\.json$/, '');

/** A published set's language files, in the current format (decision 0238). */
const publishedIn = (set: SetFiles): LanguageDescriptor[] => filesOf(set, 'languages').map(({ doc }) => migrate<LanguageDescriptor>('language', doc).doc);

/** The languages offered, by code, with their own names ('es' → 'Español'): the built ones and a published set's. */
export const languagesOf = (set: SetFiles): readonly Pick<LanguageDescriptor, 'locale' | 'name'>[] =>
  withPublished<Pick<LanguageDescriptor, 'locale' | 'name'>>(languageIndex, publishedIn(set), (language) => language.locale);

const KEY = TAB_KEYS.language;

const stored = (): string | null => appMode.tabStorage?.getItem(KEY) ?? null;

/** The language to start in: the one chosen on this device, a link's `lang`, or the browser's. */
export function startingLocale(query: Record<string, string>, browser: readonly string[], set: SetFiles): string {
  const available = languagesOf(set).map((l) => l.locale);
  const asked = query.lang ?? stored();
  if (asked && available.includes(asked)) return asked;
  return negotiate(browser.join(','), available, SOURCE_LANGUAGE.locale);
}

/** Whether the language being read came from a published set (a rollback must then take the built one again). */
let readFromSet = false;

/** A language's file: a published set's, else the one built in (a chunk of its own); undefined for an unknown locale. */
async function languageFile(locale: string, set: SetFiles): Promise<{ doc: LanguageDescriptor; published: boolean } | undefined> {
  const published = publishedIn(set).find((language) => language.locale === locale);
  if (published) return { doc: published, published: true };
  const load = Object.entries(files).find(([path]) => localeOf(path) === locale)?.[1];
  return load ? { doc: migrate<LanguageDescriptor>('language', await load()).doc, published: false } : undefined;
}

async function take(locale: string, set: SetFiles): Promise<boolean> {
  const file = await languageFile(locale, set);
  if (!file) return false;
  readFromSet = file.published;
  setLanguage(languageOf(file.doc));
  return true;
}

/** Loads a language of a descriptor set and makes it current; `remember` keeps the choice for the tab. */
export async function chooseLanguage(locale: string, remember: boolean, set: SetFiles): Promise<void> {
  if (locale === currentLanguage().locale) await retakeLanguage(set);
  else if (!(await take(locale, set))) return;
  if (!remember) return;
  try {
    appMode.tabStorage?.setItem(KEY, locale);
  } catch {
    // A browser that stores nothing still shows the language for this visit.
  }
}

/**
 * A newly live set speaks its words at once (decision 0238): the language being read is taken again from it when it
 * holds a translation of it, or from the build after a rollback of one.
 */
export async function retakeLanguage(set: SetFiles): Promise<void> {
  const { locale } = currentLanguage();
  if (readFromSet || publishedIn(set).some((language) => language.locale === locale)) await take(locale, set);
}
