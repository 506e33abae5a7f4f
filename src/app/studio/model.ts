/**
 * The studio's model, without React (decision 0228): the files as live, the product owner's drafts (as JSON text, so
 * a half-typed file is kept as typed), what a preview shows, and which part of a meta-schema describes a file.
 */
import { matchRoutes } from 'react-router-dom';
import { rolePermissions } from '../../../core/permissions.ts';
import type { DescriptorSet } from '../live-descriptors.ts';
import type { PreviewVisitor } from '../preview-frame.ts';
import type { StudioFiles } from '../../../codegen/generated/schemas.ts';
import { kindOfPath } from '../../../core/descriptors/kinds.ts';
import { decideAccess, visitorOf } from '../../engine/access.ts';
import { FIRST_SAMPLE_ID } from '../../../core/schema-sample.ts';
import type { SessionState } from '../session/state.ts';
import type { RouteAccess } from '../../../codegen/generated/descriptors.ts';
import { expandFragments, type Fragments } from '../../../core/descriptors/fragments.ts';
import { engineDoc } from '../../../core/descriptors/set.ts';
import { overridingRule, valueAt } from '../../../core/descriptors/overridden.ts';
import brandTemplate from '../../../screens/_templates/brand.json';
import lenderTemplate from '../../../screens/_templates/lender.json';

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

/**
 * A document with one value changed at a path of property names and list positions ('routes', '3', 'path'); undefined
 * removes it. Lists stay lists.
 */
export function setAt<T extends Doc | unknown[]>(doc: T, path: readonly string[], value: unknown): T {
  const [head, ...rest] = path;
  const copy: Record<string, unknown> = Array.isArray(doc) ? ([...doc] as unknown as Record<string, unknown>) : { ...doc };
  const next = rest.length === 0 ? value : setAt((copy[head!] ?? (/^\d+$/.test(rest[0]!) ? [] : {})) as Doc | unknown[], rest, value);
  if (next !== undefined) copy[head!] = next;
  else if (Array.isArray(copy)) (copy as unknown as unknown[]).splice(Number(head), 1);
  else delete copy[head!];
  return copy as T;
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

/** Whether a file holds shared parts (the files of screens/fragments/, by kind). */
export const holdsSharedParts = (path: string): boolean => kindOfPath(path) === 'fragments';

/** The shared parts of a set, and the file that holds each. */
export interface SharedParts {
  parts: Fragments;
  fileOf: ReadonlyMap<string, string>;
}

/** The shared parts of the files of fragments/: each file's draft when there is one, else as live. */
export function sharedParts(files: readonly StudioFile[], drafts: Readonly<Record<string, Doc>> = {}): SharedParts {
  const docs = new Map(files.filter((f) => holdsSharedParts(f.path)).map((f) => [f.path, f.doc]));
  for (const [path, doc] of Object.entries(drafts)) if (holdsSharedParts(path)) docs.set(path, doc);
  const parts: Fragments = {};
  const fileOf = new Map<string, string>();
  for (const [path, doc] of docs) {
    for (const [name, part] of Object.entries((doc.fragments ?? {}) as Fragments)) {
      parts[name] = part;
      fileOf.set(name, path);
    }
  }
  return { parts, fileOf };
}

/**
 * What a preview frame shows: every published file and every draft, as the engine reads them (migrated, fragments
 * expanded) — the frame's bundle holds the files as built; with a draft of the shared parts, every file (any may use
 * them). A draft that does not expand yet is left out.
 */
export function previewSet(files: readonly StudioFile[], drafts: Readonly<Record<string, Doc>>): DescriptorSet {
  const fragments = sharedParts(files, drafts).parts;
  const out: Record<string, unknown> = {};
  const taken = Object.keys(drafts).some(holdsSharedParts) ? files : files.filter((f) => f.published);
  const shown = new Map<string, Doc>([...taken.map((f) => [f.path, f.doc] as const), ...Object.entries(drafts)]);
  for (const [path, doc] of shown) {
    const kind = kindOfPath(path);
    if (!kind || kind === 'fragments') continue;
    try {
      out[path] = engineDoc(kind, doc, fragments);
    } catch {
      // Its problem shows beside the editor; the preview keeps the file as it was.
    }
  }
  return { hash: 'preview', files: out };
}

/** A visitor the preview can show the pages to. */
export interface VisitorChoice {
  id: string;
  label: string;
  /** None: anyone not signed in, who reads the live public pages. */
  visitor?: PreviewVisitor;
}

function staffSession(role: string | null, userRole: string | null): Partial<SessionState> {
  return {
    authenticated: true,
    identity: { givenName: 'Sample', familyName: 'Person', emails: ['sample1@example.com'], objectId: 'preview' },
    userId: 'preview',
    enrolled: true,
    approved: true,
    userInfoLoaded: true,
    role,
    // What the role's template gives (decision 0279): the preview shows each role's menus and buttons.
    permissions: role ? rolePermissions(role) : [],
    userRole,
    officeId: FIRST_SAMPLE_ID,
    officeName: 'Sample office',
    selectedOfficeId: FIRST_SAMPLE_ID,
    selectedOfficeName: 'Sample office',
  };
}

/**
 * Every visitor a preview offers (decision 0229): anyone, a patient, each office role and each platform role of the
 * enumerations (their labels, the data). A platform role holds the first office role too, as the platform's own
 * accounts do, so its menus show what a platform admin sees.
 */
export function previewVisitors(labels: Readonly<Record<string, Readonly<Record<string, string>>>>): VisitorChoice[] {
  const officeRoles = Object.entries(labels.OfficeRole ?? {});
  const platformRoles = Object.entries(labels.UserRole ?? {});
  const firstOfficeRole = officeRoles[0]?.[0] ?? null;
  return [
    { id: 'anyone', label: 'Anyone not signed in (live public pages)' },
    { id: 'patient', label: 'A patient signed in by passcode', visitor: { session: { borrowerAuthenticated: true, borrowerAppId: FIRST_SAMPLE_ID, borrowerToken: 'preview' } } },
    ...officeRoles.map(([role, label]) => ({ id: `office ${role}`, label: `Office: ${label}`, visitor: { session: staffSession(role, null) } })),
    ...platformRoles.map(([userRole, label]) => ({ id: `platform ${userRole}`, label: `Platform: ${label}`, visitor: { session: staffSession(firstOfficeRole, userRole) } })),
  ];
}

/** A new brand: a copy of another under a new id, not the default, on no host yet (?brand=<id> shows it). */
/** A new brand: the template's neutral words under its id (decision 0275); its hosts, names and footer to fill in. */
export const newBrand = (id: string): Doc => ({ ...brandTemplate, id, logo: { text: id } });

/** A new lender: the template's neutral words and one plan under its code (its file's name), and a name to change (decision 0275). */
export const newLender = (code: string): Doc => ({ ...lenderTemplate, code, name: `${code.toUpperCase()} (new lender)` });

/**
 * A new language: a copy of a translation under a new locale (its file's name), its own name and tag to set, never the
 * source language; its texts are the copy's until translated (decision 0238).
 */
export function newLanguage(from: Doc, locale: string): Doc {
  const { source: _source, smsOptOut: _optOut, ...rest } = from;
  return { ...rest, locale, name: locale, tag: locale };
}

/** What 'New' can start under a new name: a brand or a lender from its neutral template, a language from a translation. */
export const NEW_FILES = {
  brand: { label: 'Brand', place: 'brands', words: 'brand (its id)', example: 'bright', start: (_files: readonly StudioFile[], id: string) => newBrand(id) },
  lender: { label: 'Lender', place: 'lenders', words: 'lender (its code)', example: 'acme', start: (_files: readonly StudioFile[], code: string) => newLender(code) },
  language: {
    label: 'Language',
    place: 'languages',
    words: 'language (its code)',
    example: 'fr',
    start: (files: readonly StudioFile[], locale: string) => newLanguage(files.find((f) => f.path.startsWith('languages/') && f.doc.source !== true)?.doc ?? {}, locale),
  },
} as const;
export type NewKind = keyof typeof NEW_FILES;

/** The errors of the check that are about one file ('screens/<path>#/…: …' or 'screens/<path>: …'). */
/** Whether a JSON pointer ('/http/operations/x') names a place of the document itself, not one its shared parts fill in. */
export function placeIn(doc: unknown, pointer: string): boolean {
  let node = doc;
  for (const key of pointer.split('/').filter(Boolean)) {
    if (!node || typeof node !== 'object' || !(key in node)) return false;
    node = (node as Record<string, unknown>)[key];
  }
  return true;
}

export const errorsOf = (errors: readonly string[], path: string) => errors.filter((e) => e.startsWith(`screens/${path}#`) || e.startsWith(`screens/${path}:`));

type Schema = Record<string, unknown>;
export type MetaSchemas = Record<string, Schema>;

const described = (schema: Schema) => (typeof schema.description === 'string' ? schema.description : undefined);

/**
 * Follows a `$ref` of a meta-schema ('common.schema.json#/$defs/text', '#/$defs/color') to the schema it names; `text`
 * says whether a step of the way marks what people read (x-text), which a form shows as a text box; `description` is
 * the first step's that has one: a field's own words, else its definition's (a link's rule, though the link is edited
 * as the expression it refers to).
 */
export function resolve(schema: Schema, file: string, metas: MetaSchemas): { schema: Schema; file: string; text: boolean; description: string | undefined } {
  let current = { schema, file, text: schema['x-text'] === true, description: described(schema) };
  for (let hops = 0; typeof current.schema.$ref === 'string' && hops < 20; hops++) {
    const [refFile, pointer = ''] = (current.schema.$ref as string).split('#');
    const target = refFile ? refFile : current.file;
    let node: unknown = metas[target];
    for (const step of pointer.split('/').filter(Boolean)) node = (node as Schema | undefined)?.[step];
    if (!node || typeof node !== 'object') break;
    current = { schema: node as Schema, file: target, text: current.text || (node as Schema)['x-text'] === true, description: current.description ?? described(node as Schema) };
  }
  return current;
}

/** One shape of a choice: the values of the telling property it takes, and its schema (and the file it is in). */
export interface Shape {
  values: string[];
  schema: Schema;
  file: string;
}

/** A choice between object shapes told apart by one property's fixed values (an action's `type`). */
export interface ShapeChoice {
  key: string;
  shapes: Shape[];
}

/** The fixed values a property schema allows: its `const`, or its `enum` of texts. */
const fixedValues = (property: unknown): string[] | undefined => {
  if (!property || typeof property !== 'object') return undefined;
  const node = property as Schema;
  if (typeof node.const === 'string') return [node.const];
  return Array.isArray(node.enum) && node.enum.every((v) => typeof v === 'string') ? (node.enum as string[]) : undefined;
};

/** The choice a oneOf or anyOf of objects makes, when one property tells every shape apart; undefined otherwise. */
export function shapeChoice(schema: Schema, file: string, metas: MetaSchemas): ShapeChoice | undefined {
  const options = (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;
  if (!Array.isArray(options) || options.length < 2) return undefined;
  const resolved = options.map((option) => resolve(option, file, metas));
  if (!resolved.every(({ schema: shape }) => shape.type === 'object' && shape.properties)) return undefined;
  const keys = Object.keys((resolved[0]!.schema.properties ?? {}) as Schema);
  const key = keys.find((name) => resolved.every(({ schema: shape }) => fixedValues((shape.properties as Schema)[name])));
  if (!key) return undefined;
  return { key, shapes: resolved.map(({ schema: shape, file: at }) => ({ values: fixedValues((shape.properties as Schema)[key])!, schema: shape, file: at })) };
}

/** The shape a value has: the one whose values hold its telling property. */
export const shapeOfValue = (choice: ShapeChoice, value: unknown): Shape | undefined =>
  choice.shapes.find((shape) => shape.values.includes(String((value as Doc | undefined)?.[choice.key])));

/** A value turned into another shape: the telling property set, the properties the new shape also has kept. */
export function toShape(choice: ShapeChoice, value: unknown, to: string): Doc {
  const shape = choice.shapes.find((s) => s.values.includes(to));
  const kept = Object.entries((value ?? {}) as Doc).filter(([name]) => name !== choice.key && shape && name in ((shape.schema.properties ?? {}) as Schema));
  return { [choice.key]: to, ...Object.fromEntries(kept) };
}

/** The part of a file the form can show on its own: its name, its schema (and the file it is in) and its path. */
export interface Part {
  name: string;
  property: Schema;
  file: string;
  path: string[];
}

/**
 * The deepest part of a file at or above a path that the form shows as one field or group: into objects by their
 * properties (or a map's entries), lists by their items, a choice of shapes by the value's shape; an expression or a
 * shared part's use is one field, whatever lies inside it. Undefined for the whole file.
 */
export function partAt(root: { schema: Schema; file: string }, doc: Doc, path: readonly string[], metas: MetaSchemas): Part | undefined {
  let part: Part | undefined;
  let current = root;
  let value: unknown = doc;
  for (const step of path) {
    const resolved = resolve(current.schema, current.file, metas);
    if (part && (resolved.schema.title === 'Expression' || (value && typeof value === 'object' && '$use' in value))) break;
    const choice = shapeChoice(resolved.schema, resolved.file, metas);
    const shape = choice ? shapeOfValue(choice, value) : undefined;
    const holder = shape ? { schema: shape.schema, file: shape.file } : resolved;
    const properties = (holder.schema.properties ?? {}) as Record<string, Schema>;
    const extra = holder.schema.additionalProperties;
    const next = properties[step] ?? (extra && typeof extra === 'object' ? (extra as Schema) : undefined) ?? (holder.schema.type === 'array' && /^\d+$/.test(step) ? (holder.schema.items as Schema | undefined) : undefined);
    if (!next) break;
    const name = /^\d+$/.test(step) ? `${typeof resolve(next, holder.file, metas).schema.title === 'string' ? String(resolve(next, holder.file, metas).schema.title) : 'Item'} ${Number(step) + 1}` : step;
    part = { name, property: next, file: holder.file, path: [...(part?.path ?? []), step] };
    current = { schema: next, file: holder.file };
    value = (value as Doc | undefined)?.[step];
  }
  return part;
}

/** One case of a text chosen by conditions: when the condition holds, these words. */
export interface TextCase {
  when: unknown;
  text: string;
}

/**
 * A text chosen by conditions — { "if": [condition, words, condition, words, …, otherwise] } with every choice written
 * out as words — as its cases and the words otherwise; undefined for any other value (the form edits it as JSON).
 */
export function conditionalText(value: unknown): { cases: TextCase[]; otherwise: string } | undefined {
  const branches = value && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 1 ? (value as Doc).if : undefined;
  if (!Array.isArray(branches) || branches.length < 3 || branches.length % 2 === 0) return undefined;
  const texts = branches.filter((_, i) => i % 2 === 1 || i === branches.length - 1);
  if (!texts.every((t) => typeof t === 'string')) return undefined;
  const cases = Array.from({ length: (branches.length - 1) / 2 }, (_, i) => ({ when: branches[2 * i], text: branches[2 * i + 1] as string }));
  return { cases, otherwise: branches[branches.length - 1] as string };
}

export const toConditionalText = ({ cases, otherwise }: { cases: readonly TextCase[]; otherwise: string }): Doc => ({ if: [...cases.flatMap((c) => [c.when, c.text]), otherwise] });

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
  access?: RouteAccess;
}

/** A route's path as a visit: an optional parameter left out, a required one given the sample answers' first id. */
export const samplePath = (path: string) => path.replace(/\/:[A-Za-z]+\?/g, '').replace(/:[A-Za-z]+/g, String(FIRST_SAMPLE_ID)) || '/';

/** The parameters of that visit, by name (the guard reads a borrower route's `id`). */
const sampleParams = (path: string) => Object.fromEntries([...path.matchAll(/:([A-Za-z]+)(?!\?)\b/g)].map(([, name]) => [name, String(FIRST_SAMPLE_ID)]));

/** A page the render check opens, and as whom. */
export interface RenderVisit {
  path: string;
  visitor: VisitorChoice;
}

/**
 * The first of `visitors` a route shows its page to at its sample visit (not a sign-in, not the 403 page); none when
 * no one passes.
 */
export function visitorFor(access: RouteAccess | undefined, routePath: string, visitors: readonly VisitorChoice[]): VisitorChoice | undefined {
  const params = sampleParams(routePath);
  return visitors.find((choice) => decideAccess(access ?? {}, visitorOf(choice.visitor?.session ?? {}), params).kind === 'allow');
}

/**
 * The routes a draft can change the render of, as visits: the routes of its changed pages and of the composite pages
 * that hold them; every route with a page when the route table, the menus, the layouts, the conditions or a brand
 * changed. Each as the first visitor its access shows the page to (a staff page as a role, with sample answers). At
 * most `limit`, routes without parameters first. (A dialog shows from a button; the check does not open dialogs.)
 */
export function renderVisits(files: readonly StudioFile[], drafts: Readonly<Record<string, Doc>>, visitors: readonly VisitorChoice[], limit = 8): RenderVisit[] {
  const docOf = (path: string) => drafts[path] ?? files.find((f) => f.path === path)?.doc;
  // Read with their shared parts written out: a route's access is often one ({ "$use": "internalAccess" }), and read
  // as written it lets anyone in, so a staff page was visited signed out and never drawn.
  const routes = ((expandedOr(docOf('routes.json'), sharedParts(files, drafts).parts)?.routes ?? []) as AuthoredRoute[]).filter((r) => typeof r.path === 'string' && typeof r.screen === 'string');
  const pageName = (path: string) => path.slice('pages/'.length, -'.json'.length);
  const changed = new Set(Object.keys(drafts).filter((p) => p.startsWith('pages/')).map(pageName));
  for (const file of files) {
    const doc = docOf(file.path);
    // Authored: a list of parts may itself be a fragment's use, which names no page here.
    const parts = Array.isArray(doc?.parts) ? (doc.parts as Array<{ screen?: unknown }>) : [];
    if (file.path.startsWith('pages/') && doc?.kind === 'composite' && parts.some((part) => changed.has(String(part.screen)))) changed.add(pageName(file.path));
  }
  const broad = Object.keys(drafts).some((p) => !p.startsWith('pages/') && !p.startsWith('dialogs/'));
  const withParams = (route: AuthoredRoute) => (String(route.path).includes(':') ? 1 : 0);
  const chosen = routes.filter((r) => broad || changed.has(String(r.screen))).sort((a, b) => withParams(a) - withParams(b));
  const visits = new Map<string, RenderVisit>();
  for (const route of chosen) {
    const path = samplePath(String(route.path));
    const visitor = visitorFor(route.access, String(route.path), visitors);
    if (visitor && !visits.has(path)) visits.set(path, { path, visitor });
  }
  return [...visits.values()].slice(0, limit);
}

/** A file with its shared parts written out; as written while a draft's parts do not expand yet. */
function expandedOr(doc: Doc | undefined, fragments: Fragments): Doc | undefined {
  try {
    return doc && (expandFragments(doc, fragments) as Doc);
  } catch {
    return doc;
  }
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

/**
 * The files that draw a page of the app (an address, '/landing/brightsmiles/start'): its route's screen and the screens
 * and dialogs it names (a wizard's steps, a button's dialog), the route table, the layouts, the menus and the
 * brand shown. A text picked on the page is looked for in these first.
 */
export function filesOfPage(docs: ReadonlyMap<string, Doc>, address: string, brand: string): Set<string> {
  const near = new Set(['routes.json', 'layouts.json', 'menus.json', `brands/${brand}.json`]);
  const routes = ((docs.get('routes.json')?.routes ?? []) as AuthoredRoute[]).filter((r) => typeof r.path === 'string');
  const matched = matchRoutes(routes.map((r, i) => ({ path: String(r.path), id: String(i) })), address)?.[0]?.route.id;
  const screen = matched === undefined ? undefined : routes[Number(matched)]?.screen;
  const fileOf = (name: string) => [`pages/${name}.json`, `dialogs/${name}.json`].find((path) => docs.has(path));
  const page = typeof screen === 'string' ? fileOf(screen) : undefined;
  if (!page) return near;
  near.add(page);
  const walk = (node: unknown): void => {
    const named = typeof node === 'string' ? fileOf(node) : undefined;
    if (named) near.add(named);
    else if (node && typeof node === 'object') Object.values(node).forEach(walk);
  };
  walk(docs.get(page));
  return near;
}

/** A place in a file of the studio, to go to: its path ('fragments/actions.json') and a JSON pointer in it. */
export interface Place {
  path: string;
  pointer: string;
  /** What it is, as a button says: 'the shared part 'cancelSaveButtons''. */
  words: string;
}

/** The pages that are steps of a wizard, each with the place of its step ('pages/enroll-bank.json' → pages/enroll.json#/steps/2). */
export function wizardSteps(files: readonly StudioFile[], drafts: Readonly<Record<string, Doc>>): Map<string, Place> {
  const steps = new Map<string, Place>();
  const docs = new Map<string, Doc>([...files.map((f) => [f.path, f.doc] as const), ...Object.entries(drafts)]);
  for (const [path, doc] of docs) {
    if (!path.startsWith('pages/') || doc.kind !== 'wizard' || !Array.isArray(doc.steps)) continue;
    (doc.steps as Array<{ screen?: unknown }>).forEach((step, i) => {
      if (typeof step.screen === 'string') steps.set(`pages/${step.screen}.json`, { path, pointer: `/steps/${i}`, words: `the wizard's step (${path})` });
    });
  }
  return steps;
}

/**
 * Why a field the form would offer cannot take effect in this file, and the place that shows instead: a property of
 * the file, or the shared part it is ({ "$use" } of a file of fragments/, `partFiles`), or the wizard's step; none when
 * it takes effect.
 */
export function overriddenField(property: Schema, path: string, doc: Doc, step: Place | undefined, partFiles: ReadonlyMap<string, string>): { says: string; goTo: Place } | undefined {
  const rule = overridingRule(property, doc, step !== undefined);
  if (!rule) return undefined;
  if (rule.wizardStep) return { says: rule.says, goTo: step! };
  const pointer = rule.property!;
  const used = valueAt(doc, pointer) as Doc;
  const name = pointer.split('/').pop()!;
  return typeof used.$use === 'string' && partFiles.has(used.$use)
    ? { says: rule.says, goTo: { path: partFiles.get(used.$use)!, pointer: `/fragments/${used.$use}`, words: `the shared part '${used.$use}'` } }
    : { says: rule.says, goTo: { path, pointer, words: `the ${name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase()}` } };
}
