import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { LanguageDescriptor } from '../../codegen/generated/descriptors.ts';
import { languageOf, negotiate, speakerOf, wordsOf, type Language, type Speaker, type Words } from '../../core/i18n.ts';
import { quoted } from '../../core/descriptors/errors.ts';
import { ROOT } from '../../core/contract/documents.ts';
import { DescriptorFileError, readDescriptor } from '../../core/descriptors/read.ts';
import { metaErrors, metaValidator } from '../../core/descriptors/meta.ts';
import { filesOf, withPublished } from '../../core/descriptors/overlay.ts';
import { migrate } from '../../core/descriptors/migrations.ts';
import { perLiveSet } from './live.ts';

/**
 * The languages of screens/languages/ (decision 0216), with a studio publication's in place or beside them (decision
 * 0238): what the server writes to a borrower — problem details, the ESIGN consent, texts, e-mails, notices and the
 * loan agreement — is in the borrower's language, in the words live now.
 */
export class LanguageFileError extends DescriptorFileError {}

interface Languages {
  byLocale: Map<string, Language>;
  source: string;
  optOut: Set<string>;
}

/** A language file as the server reads it: the meta-schema, and its locale as its file's name. */
function languageFile(name: string, doc: unknown): LanguageDescriptor {
  const validate = metaValidator('language.schema.json');
  if (!validate(doc)) throw new LanguageFileError(`${name}: does not match screens/_meta/language.schema.json: ${metaErrors(validate)}`);
  const language = doc as LanguageDescriptor;
  if (`${language.locale}.json` !== name) throw new LanguageFileError(`${name}: its locale is ${quoted(language.locale)}`);
  return language;
}

function readDeployed(dir = join(ROOT, 'screens', 'languages')): LanguageDescriptor[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => languageFile(name, readDescriptor<LanguageDescriptor>('language', join(dir, name))));
}

/** The language files a set of published files holds (paths under screens/), checked as the server reads them. */
export function publishedLanguages(files: Readonly<Record<string, unknown>>): LanguageDescriptor[] {
  return filesOf(files, 'languages').map(({ name, doc }) => languageFile(name, migrate('language', doc).doc));
}

function build(docs: readonly LanguageDescriptor[]): Languages {
  const byLocale = new Map<string, Language>();
  let source = 'en';
  const optOut = new Set<string>();
  for (const doc of docs) {
    if (doc.source) source = doc.locale;
    for (const word of doc.smsOptOut ?? []) optOut.add(word);
    byLocale.set(doc.locale, languageOf(doc));
  }
  return { byLocale, source, optOut };
}

let deployed: LanguageDescriptor[] | undefined;

const languages = perLiveSet((set): Languages => build(withPublished((deployed ??= readDeployed()), publishedLanguages(set.served), (language) => language.locale)));

/** The language for a wish (a locale kept with an application, or an Accept-Language header); the source language otherwise. */
export function languageFor(wish: string | null | undefined): Language {
  const { byLocale, source } = languages();
  return byLocale.get(negotiate(wish, [...byLocale.keys()], source))!;
}

/** The languages live now, in the order the picker shows them, and the one descriptors are written in. */
export const offeredLanguages = (): { list: Language[]; source: string } => ({ list: [...languages().byLocale.values()], source: languages().source });

/** Whether a locale is one of the languages live now. */
export const isOffered = (locale: string): boolean => languages().byLocale.has(locale);

/** The locale to keep with a record: null for the source language (the default needs no storing). */
export function localeToKeep(wish: string | null | undefined): string | null {
  const language = languageFor(wish);
  return language.locale === languages().source ? null : language.locale;
}

/** The locale to keep for the language a request is read in (its Accept-Language). */
export const requestLocale = (request: { headers: { 'accept-language'?: string } }): string | null => localeToKeep(request.headers['accept-language']);

export const wordsFor = (wish: string | null | undefined): Words => wordsOf(languageFor(wish).texts);

/** Who writes to a borrower in their language (a locale kept with the application, or a request's Accept-Language). */
export const speakerFor = (wish: string | null | undefined): Speaker => speakerOf(languageFor(wish));

/** The opt-out replies the languages add to the English keywords. */
export const optOutWords = (): ReadonlySet<string> => languages().optOut;
