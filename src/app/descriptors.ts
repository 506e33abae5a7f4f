/**
 * The descriptors of screens/ in the browser: routes, menus, layouts, conditions, brands and lender flows are bundled;
 * pages and dialogs load on demand (one small chunk each). Every file was validated by the build (the Vite plugin
 * in vite.config.ts); here it is only migrated to the current format.
 */
import type {
  BrandDescriptor, ConditionsDescriptor, LayoutsDescriptor, LenderDescriptor, MenusDescriptor, RoutesDescriptor, ScreenDescriptor,
} from '../../codegen/generated/descriptors.ts';
import { migrate } from '../../core/descriptors/migrations.ts';
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

export const brands: BrandDescriptor[] = Object.values(brandFiles).map((doc) => migrate<BrandDescriptor>('brand', doc).doc);
const lenders: LenderDescriptor[] = Object.values(lenderFiles).map((doc) => migrate<LenderDescriptor>('lender', doc).doc);

export function engineDescriptors(): EngineDescriptors {
  const routes = migrate<RoutesDescriptor>('routes', routesJson).doc;
  return {
    routes,
    table: buildRouteTable(routes, lenders),
    menus: migrate<MenusDescriptor>('menus', menusJson).doc,
    layouts: migrate<LayoutsDescriptor>('layouts', layoutsJson).doc,
    conditions: migrate<ConditionsDescriptor>('conditions', conditionsJson).doc,
    flows: Object.fromEntries(lenders.map((lender) => [lender.code, lender as unknown as Record<string, unknown>])),
  };
}

const loaders = {
  pages: Object.fromEntries(Object.entries(pageFiles).map(([path, load]) => [nameOf(path), load])),
  dialogs: Object.fromEntries(Object.entries(dialogFiles).map(([path, load]) => [nameOf(path), load])),
};

export async function loadScreen(name: string, place: 'pages' | 'dialogs'): Promise<ScreenDescriptor> {
  const load = loaders[place][name];
  if (!load) throw Object.assign(new Error(`There is no screen ${place}/${name}.`), { status: 404 });
  return migrate<ScreenDescriptor>('screen', await load()).doc;
}
