/** Brand choice (spec §1): by host name pattern; `?brand=<id>` (kept for the tab) picks one for local use. Pure core. */
import type { BrandDescriptor } from '../codegen/generated/descriptors.ts';
import { evaluate, truthy } from './expressions.ts';
import { translate, type Language } from './i18n.ts';
import { TAB_KEYS } from './tab-keys.ts';

/** '*' matches any run of characters except '.'. */
export function hostMatches(pattern: string, host: string): boolean {
  const regex = new RegExp(`^${pattern.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\-]/g, '\\$&')).join('[^.]*')}$`, 'i');
  return regex.test(host);
}

export function chooseBrand(brands: readonly BrandDescriptor[], host: string, requested: string | null): BrandDescriptor {
  const byRequest = requested ? brands.find((b) => b.id === requested) : undefined;
  if (byRequest) return byRequest;
  const byHost = brands.find((b) => !b.default && b.hosts.some((h) => hostMatches(h, host)));
  return byHost ?? brands.find((b) => b.default) ?? brands[0]!;
}

/** The brand's words in a language: its own translation, else the language file's, else as written; each with `<key>Lower`. */
export function brandWording(brand: Pick<BrandDescriptor, 'wording' | 'translations'>, language: Pick<Language, 'locale' | 'tag' | 'texts'>): Record<string, string> {
  const own = brand.translations?.[language.locale] ?? {};
  const words: Record<string, string> = {};
  for (const [key, word] of Object.entries(brand.wording)) {
    if (word === undefined) continue;
    const shown = own[key] ?? translate(language.texts, word);
    words[key] = shown;
    words[`${key}Lower`] = shown.toLocaleLowerCase(language.tag);
  }
  return words;
}

/** The brand's name: the alternate one when its `useAlternate` holds for the address's query. */
export function brandName(brand: BrandDescriptor, query: Record<string, string>): string {
  const alternate = brand.names.useAlternate !== undefined && truthy(evaluate(brand.names.useAlternate, { route: { query }, brand }));
  return alternate ? brand.names.alternate : brand.names.primary;
}

/** What descriptors read as `brand`: the descriptor plus its `name` and the wording in a language. */
export function brandContext(brand: BrandDescriptor, name: string, language: Pick<Language, 'locale' | 'tag' | 'texts'>): Record<string, unknown> {
  return { ...brand, name, wording: brandWording(brand, language) };
}

const BRAND_KEY = TAB_KEYS.brand;

/** The brand id asked for by ?brand= in the address (before or inside the hash), remembered for the tab. */
export function requestedBrand(location: Location, storage: Storage | undefined): string | null {
  const fromSearch = new URLSearchParams(location.search).get('brand');
  const hashQuery = location.hash.includes('?') ? location.hash.slice(location.hash.indexOf('?')) : '';
  const asked = fromSearch ?? new URLSearchParams(hashQuery).get('brand');
  if (asked) storage?.setItem(BRAND_KEY, asked);
  return asked ?? storage?.getItem(BRAND_KEY) ?? null;
}
