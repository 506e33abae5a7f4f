/**
 * The studio's model, without React (decision 0228): the files as live, the product owner's drafts (as JSON text, so
 * a half-typed file is kept as typed), what a preview shows, and which part of a meta-schema describes a file.
 */
import type { DescriptorSet } from '../live-descriptors.ts';
import type { StudioFiles } from '../../../codegen/generated/schemas.ts';
import { kindOfPath } from '../../../core/descriptors/kinds.ts';
import { migrate } from '../../../core/descriptors/migrations.ts';
import { expandFragments, type Fragments } from '../../../core/descriptors/fragments.ts';

export type Doc = Record<string, unknown>;

export type StudioFile = StudioFiles['files'][number];

export const pretty = (doc: unknown) => `${JSON.stringify(doc, null, 2)}\n`;

/** A draft's text as a document, or why it is not one. */
export function parseDraft(text: string): { doc: Doc } | { error: string } {
  try {
    const doc = JSON.parse(text) as unknown;
    if (!doc || typeof doc !== 'object' || Array.isArray(doc)) return { error: 'A descriptor file is a JSON object: { … }.' };
    return { doc: doc as Doc };
  } catch (error) {
    return { error: `Not valid JSON yet: ${(error as Error).message}` };
  }
}

/** The drafts that are documents and differ from what is live: what Check and Publish send. */
export function draftFiles(files: readonly StudioFile[], drafts: Readonly<Record<string, string>>): Record<string, Doc> {
  const live = new Map(files.map((f) => [f.path, JSON.stringify(f.doc)]));
  const out: Record<string, Doc> = {};
  for (const [path, text] of Object.entries(drafts)) {
    const parsed = parseDraft(text);
    if ('doc' in parsed && live.get(path) !== JSON.stringify(parsed.doc)) out[path] = parsed.doc;
  }
  return out;
}

/**
 * What a preview frame shows: every published file and every draft, as the engine reads them (migrated, fragments
 * expanded) — the frame's bundle holds the files as built. A draft that does not expand yet is left out.
 */
export function previewSet(files: readonly StudioFile[], drafts: Readonly<Record<string, Doc>>): DescriptorSet {
  const fragmentsFile = files.find((f) => f.kind === 'fragments');
  const fragments = (fragmentsFile?.doc.fragments ?? {}) as Fragments;
  const out: Record<string, unknown> = {};
  const shown = new Map<string, Doc>([...files.filter((f) => f.published).map((f) => [f.path, f.doc] as const), ...Object.entries(drafts)]);
  for (const [path, doc] of shown) {
    const kind = kindOfPath(path);
    if (!kind || kind === 'fragments') continue;
    try {
      out[path] = expandFragments(migrate(kind, doc).doc, fragments);
    } catch {
      // Its problem shows beside the editor; the preview keeps the file as it was.
    }
  }
  return { hash: 'preview', files: out };
}

/** A new brand: a copy of another under a new id, not the default, on no host yet (?brand=<id> shows it). */
export function newBrand(from: Doc, id: string): Doc {
  const { default: _default, ...rest } = from;
  return { ...rest, id, hosts: [], names: { primary: `${id} Financing`, alternate: `${id} Patient Financing` } };
}

/** The errors of the check that are about one file ('screens/<path>#/…: …' or 'screens/<path>: …'). */
export const errorsOf = (errors: readonly string[], path: string) => errors.filter((e) => e.startsWith(`screens/${path}#`) || e.startsWith(`screens/${path}:`));

type Schema = Record<string, unknown>;
export type MetaSchemas = Record<string, Schema>;

/**
 * Follows a `$ref` of a meta-schema ('common.schema.json#/$defs/text', '#/$defs/color') to the schema it names; `text`
 * says whether a step of the way marks what people read (x-text), which a form shows as a text box.
 */
export function resolve(schema: Schema, file: string, metas: MetaSchemas): { schema: Schema; file: string; text: boolean } {
  let current = { schema, file, text: schema['x-text'] === true };
  for (let hops = 0; typeof current.schema.$ref === 'string' && hops < 20; hops++) {
    const [refFile, pointer = ''] = (current.schema.$ref as string).split('#');
    const target = refFile ? refFile : current.file;
    let node: unknown = metas[target];
    for (const step of pointer.split('/').filter(Boolean)) node = (node as Schema | undefined)?.[step];
    if (!node || typeof node !== 'object') break;
    current = { schema: node as Schema, file: target, text: current.text || (node as Schema)['x-text'] === true };
  }
  return current;
}

/** The meta-schema of a file: its kind's file, and for a page or dialog the definition of its `kind`. */
export function schemaOfFile(path: string, doc: Doc, metas: MetaSchemas): { schema: Schema; file: string } | undefined {
  const kind = kindOfPath(path);
  if (!kind) return undefined;
  const file = kind === 'screen' ? 'screen.schema.json' : `${kind}.schema.json`;
  const meta = metas[file];
  if (!meta) return undefined;
  if (kind !== 'screen') return { schema: meta, file };
  const def = ((meta.$defs ?? {}) as Record<string, Schema>)[String(doc.kind)];
  return def ? { schema: def, file } : undefined;
}

interface AuthoredRoute {
  path?: unknown;
  screen?: unknown;
}

/** A route's path as a visit: an optional parameter left out, a required one given a sample ('1'). */
export const samplePath = (path: string) => path.replace(/\/:[A-Za-z]+\?/g, '').replace(/:[A-Za-z]+/g, '1') || '/';

/**
 * The routes a draft can change the render of, as addresses to visit: the routes of its changed pages and of the
 * composite pages that hold them; every route with a page when the route table, the menus, the layouts, the
 * conditions or a brand changed. At most `limit`, routes without parameters first. (A dialog shows from a button; the
 * check does not open dialogs.)
 */
export function affectedPaths(files: readonly StudioFile[], drafts: Readonly<Record<string, Doc>>, limit = 8): string[] {
  const docOf = (path: string) => drafts[path] ?? files.find((f) => f.path === path)?.doc;
  const routes = ((docOf('routes.json')?.routes ?? []) as AuthoredRoute[]).filter((r) => typeof r.path === 'string' && typeof r.screen === 'string');
  const pageName = (path: string) => path.slice('pages/'.length, -'.json'.length);
  const changed = new Set(Object.keys(drafts).filter((p) => p.startsWith('pages/')).map(pageName));
  for (const file of files) {
    const doc = docOf(file.path);
    // Authored: a list of parts may itself be a fragment's use, which names no page here.
    const parts = Array.isArray(doc?.parts) ? (doc.parts as Array<{ screen?: unknown }>) : [];
    if (file.path.startsWith('pages/') && doc?.kind === 'composite' && parts.some((part) => changed.has(String(part.screen)))) changed.add(pageName(file.path));
  }
  const broad = Object.keys(drafts).some((p) => !p.startsWith('pages/') && !p.startsWith('dialogs/'));
  const chosen = routes.filter((r) => broad || changed.has(String(r.screen))).map((r) => String(r.path));
  const withParams = (path: string) => (path.includes(':') ? 1 : 0);
  return [...new Set([...chosen].sort((a, b) => withParams(a) - withParams(b)).map(samplePath))].slice(0, limit);
}

/** The default brand's id (its file says `default`): what the studio opens and previews first. */
export function defaultBrand(files: readonly StudioFile[]): string {
  const file = files.find((f) => f.path.startsWith('brands/') && f.doc.default === true) ?? files.find((f) => f.path.startsWith('brands/'));
  return file ? file.path.slice('brands/'.length, -'.json'.length) : '';
}

/** A first address to preview: the first route anyone may open that needs no parameter. */
export function firstPublicPath(files: readonly StudioFile[]): string {
  const routes = ((files.find((f) => f.path === 'routes.json')?.doc.routes ?? []) as Array<AuthoredRoute & { access?: { anonymous?: boolean } }>).filter(
    (r) => typeof r.path === 'string' && typeof r.screen === 'string' && r.access?.anonymous === true && !r.path.includes(':'),
  );
  return routes.length ? String(routes[0]!.path) : '/';
}
