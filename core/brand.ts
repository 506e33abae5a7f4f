/** Brand choice (spec §1): by host name pattern; `?brand=<id>` (kept for the tab) picks one for local use. Pure core. */
import type { BrandDescriptor } from '../codegen/generated/descriptors.ts';
import { evaluate, truthy } from './expressions.ts';

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

/** What descriptors read as `brand`: the descriptor plus the chosen `name` and lower-case wording. */
export function brandContext(brand: BrandDescriptor, query: Record<string, string>): Record<string, unknown> {
  const alternate = brand.names.useAlternate !== undefined && truthy(evaluate(brand.names.useAlternate, { route: { query }, brand }));
  return {
    ...brand,
    name: alternate ? brand.names.alternate : brand.names.primary,
    wording: { ...brand.wording, serviceLower: brand.wording.service.toLowerCase() },
  };
}

const BRAND_KEY = 'pos.brand';

/** The brand id asked for by ?brand= in the address (before or inside the hash), remembered for the tab. */
export function requestedBrand(location: Location, storage: Storage | undefined): string | null {
  const fromSearch = new URLSearchParams(location.search).get('brand');
  const hashQuery = location.hash.includes('?') ? location.hash.slice(location.hash.indexOf('?')) : '';
  const asked = fromSearch ?? new URLSearchParams(hashQuery).get('brand');
  if (asked) storage?.setItem(BRAND_KEY, asked);
  return asked ?? storage?.getItem(BRAND_KEY) ?? null;
}
