/**
 * The descriptors of screens/ in the browser: routes, menus, layouts, conditions, brands and lender flows are bundled;
 * pages and dialogs load on demand (one small chunk each). Every file was validated by the build (the Vite plugin
 * in vite.config.ts); here it is only migrated to the current format. A set published from the studio (checked the
 * same way by the server, decision 0228) replaces the files it holds.
 */
import type {
  BrandDescriptor, ConditionsDescriptor, LayoutsDescriptor, LenderDescriptor, MenusDescriptor, RoutesDescriptor, ScreenDescriptor,
} from '../../codegen/generated/descriptors.ts';
import { migrate } from '../../core/descriptors/migrations.ts';
import { filesOf, publishedOr, withPublished, type SetFiles } from '../../core/descriptors/overlay.ts';
import { buildRouteTable } from '../engine/routing.ts';
import type { EngineDescriptors } from '../engine/services.ts';
import routesJson from '../../screens/routes.json';
import menusJson from '../../screens/menus.json';
import layoutsJson from '../../screens/layouts.json';
import conditionsJson from '../../screens/conditions.json';

const brandFiles = import.meta.glob<unknown>('../../screens/brands/*.json', { eager: true, import: 'default' });
const lenderFiles = import.meta.glob<unknown>('../../screens/lenders/*.json', { eager: true, import: 'default' });
const pageFiles = import.meta.glob<unknown>('../../screens/pages/*.json', { import: 'default' });
const dialogFiles = import.meta.glob<unknown>('../../screens/dialogs/*.json', { import: 'default' });

const nameOf = (path: string) => path.replace(/^.*\//, '').replace(/\.json$/, '');

const builtBrands: BrandDescriptor[] = Object.values(brandFiles).map((doc) => migrate<BrandDescriptor>('brand', doc).doc);
const builtLenders: LenderDescriptor[] = Object.values(lenderFiles).map((doc) => migrate<LenderDescriptor>('lender', doc).doc);


/** The brands: the built ones, with a published set's in place or beside them. */
export const brandsOf = (files: SetFiles): BrandDescriptor[] => withPublished(builtBrands, docsOf<BrandDescriptor>(files, 'brands'), (brand) => brand.id);

/** A published set's documents of a place (the server sends them expanded, in the current format). */
const docsOf = <T,>(files: SetFiles, place: string): T[] => filesOf(files, place).map(({ doc }) => doc as T);

export function engineDescriptors(files: SetFiles): EngineDescriptors {
  const routes = publishedOr<RoutesDescriptor>(files, 'routes.json', routesJson, 'routes');
  const lenders = withPublished(builtLenders, docsOf<LenderDescriptor>(files, 'lenders'), (lender) => lender.code);
  return {
    routes,
    table: buildRouteTable(routes, lenders),
    menus: publishedOr<MenusDescriptor>(files, 'menus.json', menusJson, 'menus'),
    layouts: publishedOr<LayoutsDescriptor>(files, 'layouts.json', layoutsJson, 'layouts'),
    conditions: publishedOr<ConditionsDescriptor>(files, 'conditions.json', conditionsJson, 'conditions'),
    flows: Object.fromEntries(lenders.map((lender) => [lender.code, lender as unknown as Record<string, unknown>])),
  };
}

const loaders = {
  pages: Object.fromEntries(Object.entries(pageFiles).map(([path, load]) => [nameOf(path), load])),
  dialogs: Object.fromEntries(Object.entries(dialogFiles).map(([path, load]) => [nameOf(path), load])),
};

/** A page or dialog: a published set's, or the built one's chunk. */
export function screenLoader(files: SetFiles): (name: string, place: 'pages' | 'dialogs') => Promise<ScreenDescriptor> {
  return async (name, place) => {
    const path = `${place}/${name}.json`;
    const load = path in files ? undefined : loaders[place][name];
    if (!load && !(path in files)) throw Object.assign(new Error(`There is no screen ${place}/${name}.`), { status: 404 });
    return publishedOr<ScreenDescriptor>(files, path, await load?.(), 'screen');
  };
}
