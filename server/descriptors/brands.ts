import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BrandDescriptor } from '../../codegen/generated/descriptors.ts';
import { brandName, chooseBrand } from '../../core/brand.ts';
import { ROOT } from '../../core/contract/documents.ts';
import { DescriptorFileError, readDescriptor } from '../../core/descriptors/read.ts';
import { perLiveSet } from './live.ts';
import { filesOf, withPublished } from '../../core/descriptors/overlay.ts';
import { metaErrors, metaValidator } from '../../core/descriptors/meta.ts';

/**
 * The brands of screens/brands/ for what the server renders or sends itself (the identity provider's pages,
 * its e-mails), chosen the way the web app chooses (core/brand.ts): a brand id the page asked for, else
 * the host name, else the default brand.
 */
export interface ServerBrand {
  id: string;
  /** The brand's name as the web app shows it on a page without query flags. */
  name: string;
  palette: BrandDescriptor['palette'];
  logo: BrandDescriptor['logo'];
  footer: BrandDescriptor['footer'];
}

export type BrandChooser = (host: string | undefined, requested?: unknown) => ServerBrand;

/** A brand file the server cannot use (a descriptor file error of its own kind). */
export class BrandFileError extends DescriptorFileError {}

export function loadBrands(dir = join(ROOT, 'screens', 'brands')): BrandDescriptor[] {
  const validate = metaValidator('brand.schema.json');
  const brands = readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => {
      const file = join(dir, name);
      const doc = readDescriptor<BrandDescriptor>('brand', file);
      if (!validate(doc)) throw new BrandFileError(`${file}: does not match screens/_meta/brand.schema.json: ${metaErrors(validate)}`);
      return doc;
    });
  if (brands.filter((brand) => brand.default).length !== 1) throw new BrandFileError(`${dir}: exactly one brand must be "default": true`);
  return brands;
}

/** `localhost:3000`, `[::1]:3000` → the host name without the port. */
function hostName(host: string | undefined): string {
  if (!host) return '';
  try {
    return new URL(`https://${host}`).hostname;
  } catch {
    return '';
  }
}

export function brandChooser(brands: readonly BrandDescriptor[]): BrandChooser {
  const known = new Set(brands.map((brand) => brand.id));
  return (host, requested) => {
    const asked = typeof requested === 'string' && known.has(requested) ? requested : null;
    const brand = chooseBrand(brands, hostName(host), asked);
    return { id: brand.id, name: brandName(brand, {}), palette: brand.palette, logo: brand.logo, footer: brand.footer };
  };
}

let deployed: BrandDescriptor[] | undefined;

/**
 * The hosts of the brand files deployed with the server: the operator's own, unlike a brand a product owner publishes
 * (decision 0248), so sign-in trusts them when SIGN_IN_HOSTS does not say otherwise.
 */
export const deployedBrandHosts = (): string[] => (deployed ??= loadBrands()).flatMap((brand) => brand.hosts);

/** The brands live now: the deployed files with the studio's published brands in place or beside (decision 0228). */
export function liveBrands(): BrandDescriptor[] {
  return liveChooser().brands;
}

const liveChooser = perLiveSet((set): { brands: BrandDescriptor[]; choose: BrandChooser } => {
  const published = filesOf(set.served, 'brands').map(({ doc }) => doc as BrandDescriptor);
  const brands = withPublished((deployed ??= loadBrands()), published, (brand) => brand.id);
  return { brands, choose: brandChooser(brands) };
});

/** The brand for a host and an asked-for id, among the live brands. */
export function serverBrand(host: string | undefined, requested?: unknown): ServerBrand {
  return liveChooser().choose(host, requested);
}
