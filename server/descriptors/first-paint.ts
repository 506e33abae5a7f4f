import type { BrandDescriptor } from '../../codegen/generated/descriptors.ts';
import { firstPaintOf, type FirstPaint } from '../../core/first-paint.ts';
import { builtExpanded, perLiveSet } from './live.ts';
import { liveBrands } from './brands.ts';
import { offeredLanguages } from './languages.ts';
import { chooseBrand } from '../../core/brand.ts';

/** What each brand's page paints before the app runs (core/first-paint.ts), from the live set, made once per brand. */
const perBrand = perLiveSet((set) => {
  const doc = (path: string) => set.served[path] ?? builtExpanded().get(path);
  const lenders = [...new Set([...builtExpanded().keys(), ...Object.keys(set.served)])].filter((path) => path.startsWith('lenders/')).sort();
  const made = new Map<string, FirstPaint>();
  return (brand: BrandDescriptor): FirstPaint => {
    let paint = made.get(brand.id);
    if (!paint) {
      const { list, source } = offeredLanguages();
      paint = firstPaintOf({ doc, lenders, brand, languages: list, source });
      made.set(brand.id, paint);
    }
    return paint;
  };
});

/** The first paint for a page asked for on a host name (its brand, as the app chooses it without ?brand=). */
export const firstPaintFor = (hostName: string): FirstPaint => perBrand()(chooseBrand(liveBrands(), hostName, null));
