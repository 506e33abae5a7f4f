import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { LanguageDescriptor } from '../../codegen/generated/descriptors.ts';
import { languageOf, negotiate, speakerOf, wordsOf, type Language, type Speaker, type Words } from '../../core/i18n.ts';
import { ROOT } from '../../core/contract/documents.ts';
import { DescriptorFileError, readDescriptor } from '../../core/descriptors/read.ts';
import { metaErrors, metaValidator } from '../../core/descriptors/meta.ts';

/**
 * The languages of screens/languages/ (decision 0216), read once: what the server writes to a borrower — problem
 * details, the ESIGN consent, texts, e-mails and notices — is in the borrower's language.
 */
export class LanguageFileError extends DescriptorFileError {}

interface Languages {
  byLocale: Map<string, Language>;
  source: string;
  optOut: Set<string>;
}

let loaded: Languages | undefined;

function load(dir = join(ROOT, 'screens', 'languages')): Languages {
  const byLocale = new Map<string, Language>();
  let source = 'en';
  const optOut = new Set<string>();
  const validate = metaValidator('language.schema.json');
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.json')).sort()) {
    const doc = readDescriptor<LanguageDescriptor>('language', join(dir, file));
    if (!validate(doc)) throw new LanguageFileError(`${file}: does not match screens/_meta/language.schema.json: ${metaErrors(validate)}`);
    if (`${doc.locale}.json` !== file) throw new LanguageFileError(`${file}: its locale is '${doc.locale}'`);
    if (doc.source) source = doc.locale;
    for (const word of doc.smsOptOut ?? []) optOut.add(word);
    byLocale.set(doc.locale, languageOf(doc));
  }
  return { byLocale, source, optOut };
}

const languages = () => (loaded ??= load());

/** The language for a wish (a locale kept with an application, or an Accept-Language header); the source language otherwise. */
export function languageFor(wish: string | null | undefined): Language {
  const { byLocale, source } = languages();
  return byLocale.get(negotiate(wish, [...byLocale.keys()], source))!;
}

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
