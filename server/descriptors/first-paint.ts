import type { BrandDescriptor } from '../../codegen/generated/descriptors.ts';
import { firstPaintOf, type FirstPaint, type FirstPaintInput } from '../../core/first-paint.ts';
import type { RouteChunks } from '../../core/route-chunks.ts';
import { builtExpanded, perLiveSet } from './live.ts';
import { liveBrands } from './brands.ts';
import { offeredLanguages } from './languages.ts';
import { chooseBrand } from '../../core/brand.ts';

/** The app reads a page or a language the live set publishes from the set, not from its built chunk: that is not fetched. */
export const withoutPublished = (chunks: RouteChunks, served: Readonly<Record<string, unknown>>): RouteChunks => ({
  ...chunks,
  page: Object.fromEntries(Object.entries(chunks.page).filter(([name]) => !(`pages/${name}.json` in served))),
  language: Object.fromEntries(Object.entries(chunks.language).filter(([locale]) => !(`languages/${locale}.json` in served))),
});

/** What each brand's page paints before the app runs (core/first-paint.ts), from the live set, made once per brand. */
const perBrand = perLiveSet((set) => {
  const doc = (path: string) => set.served[path] ?? builtExpanded().get(path);
  const lenders = [...new Set([...builtExpanded().keys(), ...Object.keys(set.served)])].filter((path) => path.startsWith('lenders/')).sort();
  const made = new Map<RouteChunks | undefined, Map<string, FirstPaint>>();
  return (brand: BrandDescriptor, schemas: FirstPaintInput['schemas'], chunks: RouteChunks | undefined): FirstPaint => {
    const ofBuild = made.get(chunks) ?? made.set(chunks, new Map()).get(chunks)!;
    let paint = ofBuild.get(brand.id);
    if (!paint) {
      const { list, source } = offeredLanguages();
      paint = firstPaintOf({ doc, lenders, brand, languages: list, source, schemas, ...(chunks ? { chunks: withoutPublished(chunks, set.served) } : {}) });
      ofBuild.set(brand.id, paint);
    }
    return paint;
  };
});

/**
 * The first paint for a page asked for on a host name (its brand, as the app chooses it without ?brand=), with the
 * contract's component schemas (its forms' fields) and the built app's code per screen.
 */
export const firstPaintFor = (hostName: string, schemas: FirstPaintInput['schemas'], chunks?: RouteChunks): FirstPaint =>
  perBrand()(chooseBrand(liveBrands(), hostName, null), schemas, chunks);
