/**
 * Which meta-schema (screens/_meta/<kind>.schema.json) describes a descriptor file, by its place under screens/.
 * Pure: used by the build (Vite plugin), the unit tests and the browser loader alike.
 */
export type DescriptorKind = 'routes' | 'menus' | 'layouts' | 'conditions' | 'screen' | 'brand' | 'lender' | 'states' | 'language' | 'fragments';

export const DESCRIPTOR_KINDS: readonly DescriptorKind[] = ['routes', 'menus', 'layouts', 'conditions', 'screen', 'brand', 'lender', 'states', 'language', 'fragments'];

/** `relative` is the path under screens/ with forward slashes ('pages/home.json'); undefined for files that are not descriptors. */
export function kindOfPath(relative: string): DescriptorKind | undefined {
  if (relative.startsWith('_meta/')) return undefined;
  const fixed: Record<string, DescriptorKind> = { 'routes.json': 'routes', 'menus.json': 'menus', 'layouts.json': 'layouts', 'conditions.json': 'conditions', 'states.json': 'states' };
  if (fixed[relative]) return fixed[relative];
  const [folder, file, ...rest] = relative.split('/');
  if (rest.length || !file?.endsWith('.json')) return undefined;
  if (folder === 'pages' || folder === 'dialogs') return 'screen';
  if (folder === 'brands') return 'brand';
  if (folder === 'lenders') return 'lender';
  if (folder === 'languages') return 'language';
  if (folder === 'fragments') return 'fragments';
  return undefined;
}

/** 'pages/send-app.json' → 'send-app' */
export function nameOfPath(relative: string): string {
  return relative.replace(/^.*\//, '').replace(/\.json$/, '');
}

/** The places of screens/ a descriptor file is in, as a setting names them: a file of its own, or a folder. */
export const DESCRIPTOR_PLACES = ['routes', 'menus', 'layouts', 'conditions', 'states', 'fragments', 'pages', 'dialogs', 'brands', 'lenders', 'languages'] as const;
export type DescriptorPlace = (typeof DESCRIPTOR_PLACES)[number];

/** 'lenders/ally.json' → 'lenders', 'routes.json' → 'routes' */
export const placeOfPath = (relative: string): string => relative.split('/')[0]!.replace(/\.json$/, '');
