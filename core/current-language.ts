/**
 * The language people read (docs/decisions/0216): the source texts of descriptors and the engine's own words pass
 * through `tr`; formats (formats.ts) use the language's tag. One language at a time in a tab, like the label tables:
 * a module the pure functions read (React-free: the server evaluates expressions too), and `useLanguage` (src/engine/hooks.tsx)
 * re-renders what shows words when the language changes.
 */
import { translate, type Language } from './i18n.ts';
import { languageIndex } from '../codegen/generated/languages.ts';

/** The language the descriptors are written in (its file says `source`): current until another is chosen. */
export const SOURCE_LANGUAGE: Language = { ...languageIndex.find((language) => language.source)!, texts: {} };

let current: Language = SOURCE_LANGUAGE;
const listeners = new Set<() => void>();

export function setLanguage(language: Language): void {
  if (language === current) return;
  current = language;
  if (typeof document !== 'undefined') document.documentElement.lang = language.locale;
  listeners.forEach((listener) => listener());
}

export const currentLanguage = (): Language => current;

/** A source text in the current language. */
export const tr = (source: string): string => translate(current.texts, source);

/** Calls `listener` whenever the language changes; returns the unsubscribe. */
export function onLanguageChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
