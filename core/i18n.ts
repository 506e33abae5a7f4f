/**
 * Languages as data (issue 19, docs/decisions/0216). Descriptors, schemas and the server's messages are written in
 * the source language (English); a language file (screens/languages/<locale>.json) maps each source text to its
 * translation, keyed by the text itself — a text without a translation shows in English rather than as a key, and a
 * product owner translates what they read. UI-free: the engine, the server (texts, e-mails, notices) and the checks
 * use the same functions.
 */
import type { LanguageDescriptor } from '../codegen/generated/descriptors.ts';

export type Texts = Readonly<Record<string, string>>;

/** A language offered to people: its code, its own name, its tag, whether descriptors are written in it, its texts. */
export type Language = Pick<LanguageDescriptor, 'locale' | 'name' | 'tag' | 'source'> & { texts: Texts };

/** The language a language file describes. */
export function languageOf(doc: LanguageDescriptor): Language {
  return { locale: doc.locale, name: doc.name, tag: doc.tag, ...(doc.source ? { source: doc.source } : {}), texts: doc.texts as Texts };
}

/** The {placeholders} of a text, sorted: a translation keeps its source's. */
export const placeholdersOf = (text: string): string[] => [...text.matchAll(/\{[^{}]+\}/g)].map((m) => m[0]).sort();

/** The translation of a source text, or the text itself. */
export function translate(texts: Texts | undefined, source: string): string {
  return texts?.[source] ?? source;
}

/**
 * The best of `available` for a wish: a locale ('es'), a tag ('es-MX') or an Accept-Language header
 * ('es-MX,es;q=0.9,en;q=0.8'); `fallback` when none matches.
 */
export function negotiate(wish: string | null | undefined, available: readonly string[], fallback: string): string {
  const wishes = (wish ?? '')
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { language: tag.trim().toLowerCase().split('-')[0]!, q: q === undefined ? 1 : Number(q), index };
    })
    .filter((w) => w.language && w.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  return wishes.find((w) => available.includes(w.language))?.language ?? fallback;
}

/** Money in a language's own way: '$4,500.00' (en-US, es-US). */
export function formatMoney(tag: string, dollars: number): string {
  return new Intl.NumberFormat(tag, { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(dollars);
}

/** Money from cents. */
export const formatCents = (tag: string, cents: number): string => formatMoney(tag, cents / 100);

export function formatNumber(tag: string, value: number): string {
  return new Intl.NumberFormat(tag).format(value);
}

/** A source text in some language, its {name} placeholders filled from `values`. */
export type Words = (source: string, values?: Readonly<Record<string, string | number>>) => string;

/** Fills {name} placeholders; a placeholder without a value stays as written (a mistake shows, rather than vanishing). */
export function fill(template: string, values: Readonly<Record<string, string | number>> = {}): string {
  return template.replace(/\{([A-Za-z][\w]*)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

/** The Words of a language: translate, then fill. */
export const wordsOf = (texts: Texts | undefined): Words => (source, values) => fill(translate(texts, source), values);

/**
 * A calendar day as a language writes it: the source language as spec §9 does (MM/dd/yyyy), another with the month in
 * words ('26 nov 2026'), which no reader can take for a day-first or month-first date (decision 0216).
 */
export function formatDay(language: Pick<Language, 'tag' | 'source'>, year: number, month: number, day: number): string {
  if (language.source) return `${String(month).padStart(2, '0')}/${String(day).padStart(2, '0')}/${year}`;
  return new Intl.DateTimeFormat(language.tag, { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(Date.UTC(year, month - 1, day)));
}

/** What writes to a person in their language: the words, money, and a calendar day. */
export interface Speaker {
  locale: string;
  say: Words;
  /** '$4,500.00' from 450000. */
  cents(cents: number): string;
  /** A calendar day (yyyy-mm-dd) as the language writes it: '11/26/2026', '26 nov 2026'. */
  day(ymd: string): string;
}

export function speakerOf(language: Language): Speaker {
  return {
    locale: language.locale,
    say: wordsOf(language.texts),
    cents: (cents) => formatCents(language.tag, cents),
    day: (ymd) => formatDay(language, ...(ymd.split('-').map(Number) as [number, number, number])),
  };
}
