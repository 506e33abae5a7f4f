import type { DescriptorKind } from './kinds.ts';
import { pointerSegment, quoted } from './errors.ts';
import { labelNamesIn } from '../labels.ts';
import { contrastProblems, type Palette } from '../palette.ts';
import { placeholdersOf } from '../i18n.ts';
import { borrowerScreens } from './borrower-screens.ts';

/** A descriptor file after migration: where it came from, which meta-schema it follows, its name and content. */
export interface LoadedDescriptor {
  /** 'screens/pages/home.json' */
  file: string;
  kind: DescriptorKind;
  /** The file name without .json ('home'). */
  name: string;
  doc: Record<string, unknown>;
}

export interface CheckContext {
  /** operationIds of the contract. */
  operations: ReadonlySet<string>;
  /** Component names of the contract's schemas (form schemas). */
  schemas: ReadonlySet<string>;
  /** The fields of the objects an operation's answer holds at a path (core/contract/operations.ts answerFields). */
  answerFields: (operation: string, path: readonly string[]) => ReadonlySet<string> | undefined;
  /** The tables of words a format may name: 'label:<Enumeration>' (x-labels of schemas/enums/), 'config:<Type>'. */
  labels: ReadonlySet<string>;
  /** Why a brand's host pattern would cover many owners' sites (core/hosts.ts, which reads the public suffix list). */
  hostPatternProblem: (pattern: string) => string | undefined;
}

type Json = unknown;

function walk(node: Json, pointer: string, visit: (node: Record<string, Json>, pointer: string, key: string | undefined) => void, key?: string): void {
  if (Array.isArray(node)) node.forEach((child, i) => walk(child, `${pointer}/${i}`, visit, key));
  else if (node && typeof node === 'object') {
    visit(node as Record<string, Json>, pointer, key);
    for (const [k, v] of Object.entries(node)) walk(v, `${pointer}/${pointerSegment(k)}`, visit, k);
  }
}

/**
 * Who opens a route of a lender's flow: the borrower of the application, always (spec §6). The lender file cannot say
 * otherwise, so a flow can never send its borrower to staff sign-in.
 */
export const LENDER_FLOW_ACCESS = { borrower: true } as const;

/** Expands `{code}` in a lender flow prefix. */
export const withCode = (template: string, code: string) => template.replaceAll('{code}', code);

/**
 * Checks what the meta-schemas cannot: that names point at things that exist (routes, layouts, pages, dialogs,
 * operations, form schemas), and that route names and paths are unique once the lender flows are joined in.
 */
export function crossCheck(descriptors: readonly LoadedDescriptor[], context: CheckContext): string[] {
  const errors: string[] = [];
  const byKind = (kind: DescriptorKind) => descriptors.filter((d) => d.kind === kind);
  const routesFile = byKind('routes')[0];
  const layoutsFile = byKind('layouts')[0];
  for (const kind of ['routes', 'layouts', 'menus', 'conditions'] as const) {
    if (byKind(kind).length !== 1) errors.push(`screens/${kind}.json: exactly one ${kind} descriptor is needed`);
  }
  const pages = new Set(descriptors.filter((d) => d.kind === 'screen' && d.file.includes('/pages/')).map((d) => d.name));
  const dialogs = new Set(descriptors.filter((d) => d.kind === 'screen' && d.file.includes('/dialogs/')).map((d) => d.name));
  const layouts = new Set(Object.keys(((layoutsFile?.doc.layouts ?? {}) as Record<string, unknown>)));

  // The route table, lender flows joined in.
  const routeNames = new Map<string, string>();
  const routePaths = new Map<string, string>();
  const addRoute = (file: string, pointer: string, route: Record<string, unknown>, name: string, path: string) => {
    if (routeNames.has(name)) errors.push(`${file}${pointer}/name: the route name ${quoted(name)} is already used by ${routeNames.get(name)}`);
    else routeNames.set(name, `${file}${pointer}`);
    const shape = path.replace(/:[A-Za-z]+\??/g, ':');
    if (routePaths.has(shape)) errors.push(`${file}${pointer}/path: the path ${quoted(path)} is already used by ${routePaths.get(shape)}`);
    else routePaths.set(shape, `${file}${pointer}`);
    if (typeof route.layout === 'string' && !layouts.has(route.layout)) errors.push(`${file}${pointer}/layout: no layout ${quoted(route.layout)} in screens/layouts.json`);
    if (typeof route.screen === 'string' && !pages.has(route.screen)) errors.push(`${file}${pointer}/screen: no page screens/pages/${route.screen}.json`);
    if (!route.screen && !route.redirect) errors.push(`${file}${pointer}: a route needs a screen or a redirect`);
  };
  const flows = (routesFile?.doc.lenderFlows ?? { namePrefix: '', pathPrefix: '/' }) as { namePrefix: string; pathPrefix: string };
  ((routesFile?.doc.routes ?? []) as Record<string, unknown>[]).forEach((route, i) => addRoute(routesFile!.file, `#/routes/${i}`, route, String(route.name), String(route.path)));
  for (const lender of byKind('lender')) {
    const code = String(lender.doc.code);
    if (code !== lender.name) errors.push(`${lender.file}#/code: must equal the file name ${quoted(lender.name)}`);
    ((lender.doc.routes ?? []) as Record<string, unknown>[]).forEach((route, i) => {
      const path = (withCode(flows.pathPrefix, code) + String(route.path)).replace(/\/$/, '') || '/';
      addRoute(lender.file, `#/routes/${i}`, route, withCode(flows.namePrefix, code) + String(route.name), path);
    });
  }
  if (routesFile && typeof (routesFile.doc.notFound as Record<string, unknown> | undefined)?.layout === 'string') {
    const layout = (routesFile.doc.notFound as Record<string, string>).layout!;
    if (!layouts.has(layout)) errors.push(`${routesFile.file}#/notFound/layout: no layout ${quoted(layout)} in screens/layouts.json`);
  }

  const brands = byKind('brand');
  if (brands.length === 0) errors.push('screens/brands/: at least one brand is needed');
  if (brands.filter((b) => b.doc.default === true).length !== 1) errors.push('screens/brands/: exactly one brand must be "default": true');
  for (const brand of brands) if (brand.doc.id !== brand.name) errors.push(`${brand.file}#/id: must equal the file name ${quoted(brand.name)}`);
  // Languages (decision 0216): one is the one descriptors are written in; a translation keeps its source's placeholders.
  const languages = byKind('language');
  if (languages.filter((l) => l.doc.source === true).length !== 1) errors.push('screens/languages/: exactly one language must be "source": true');
  for (const language of languages) {
    if (language.doc.locale !== language.name) errors.push(`${language.file}#/locale: must equal the file name ${quoted(language.name)}`);
    for (const [source, translation] of Object.entries((language.doc.texts ?? {}) as Record<string, string>)) {
      if (placeholdersOf(source).join() !== placeholdersOf(translation).join()) errors.push(`${language.file}#/texts: ${quoted(source)} must keep the placeholders ${placeholdersOf(source).join(' ') || '(none)'}`);
    }
  }
  // A brand translates its own words into languages people may choose, and only words it has.
  const locales = new Set(languages.map((l) => String(l.doc.locale)));
  for (const brand of brands) {
    const words = (brand.doc.wording ?? {}) as Record<string, string>;
    for (const [locale, translated] of Object.entries((brand.doc.translations ?? {}) as Record<string, Record<string, string>>)) {
      if (!locales.has(locale)) errors.push(`${brand.file}#/translations/${pointerSegment(locale)}: no language ${quoted(locale)} in screens/languages/`);
      for (const key of Object.keys(translated)) {
        if (words[key] === undefined) errors.push(`${brand.file}#/translations/${pointerSegment(locale)}/${pointerSegment(key)}: no word ${quoted(key)} in #/wording`);
      }
    }
  }
  // A palette people cannot read is refused like a broken reference (decision 0219).
  for (const brand of brands) for (const problem of contrastProblems(brand.doc.palette as Palette)) errors.push(`${brand.file}${problem}`);

  for (const descriptor of descriptors) {
    for (const format of labelNamesIn(descriptor.doc)) {
      if (!context.labels.has(format)) errors.push(`${descriptor.file}: ${format} names neither an enumeration of schemas/enums/ with x-labels nor a config item type`);
    }
    walk(descriptor.doc, '#', (node, pointer, key) => {
      if (key !== undefined && ['to', 'signIn', 'borrowerSignIn', 'home'].includes(key) && typeof node.route === 'string' && !routeNames.has(node.route)) {
        errors.push(`${descriptor.file}${pointer}/route: no route named ${quoted(node.route)}`);
      }
      if (typeof node.operation === 'string' && !context.operations.has(node.operation)) {
        errors.push(`${descriptor.file}${pointer}/operation: no operation ${quoted(node.operation)} in openapi/openapi.yaml`);
      }
      if (node.type === 'dialog' && typeof node.dialog === 'string' && !dialogs.has(node.dialog)) {
        errors.push(`${descriptor.file}${pointer}/dialog: no dialog screens/dialogs/${node.dialog}.json`);
      }
      if (Array.isArray(node.invalidates)) {
        node.invalidates.forEach((id, i) => {
          if (typeof id === 'string' && !context.operations.has(id)) errors.push(`${descriptor.file}${pointer}/invalidates/${i}: no operation ${quoted(id)}`);
        });
      }
    });
    if (descriptor.kind === 'screen') {
      const doc = descriptor.doc;
      if (doc.kind === 'form' && typeof doc.schema === 'string' && !context.schemas.has(doc.schema)) {
        errors.push(`${descriptor.file}#/schema: no schema ${quoted(doc.schema)} in the contract`);
      }
      const parts = (doc.kind === 'wizard' ? doc.steps : doc.kind === 'composite' ? doc.parts : []) as Array<{ screen?: string }>;
      parts.forEach((part, i) => {
        if (part.screen && !pages.has(part.screen)) errors.push(`${descriptor.file}#/${doc.kind === 'wizard' ? 'steps' : 'parts'}/${i}/screen: no page screens/pages/${part.screen}.json`);
      });
      if (descriptor.file.includes('/dialogs/') && !doc.dialog) errors.push(`${descriptor.file}#: a dialog needs "dialog": {"title": …}`);
      // A kanban card shows what its lanes' answer carries (AppCard): a field it lacks would show nothing, silently.
      if (doc.kind === 'kanban') {
        const operation = (doc.source as { operation?: string } | undefined)?.operation;
        const items = (doc.lanes as { items?: string } | undefined)?.items;
        const fields = operation && items ? context.answerFields(operation, [items]) : undefined;
        for (const [pointer, name] of rowFieldsNamed(doc.card, '#/card')) {
          if (fields && !fields.has(name)) errors.push(`${descriptor.file}${pointer}: a card has no field ${quoted(name)} (the cards of ${operation} carry ${[...fields].join(', ')})`);
        }
      }
      // A report's chart is drawn from its section's columns: a name that is none would draw nothing, silently.
      if (doc.kind === 'report') {
        (doc.sections as Array<{ columns?: Array<{ id: string }>; chart?: { x: string; series: string[] } }>).forEach((section, i) => {
          const ids = new Set((Array.isArray(section.columns) ? section.columns : []).map((c) => c.id));
          if (section.chart && !ids.has(section.chart.x)) errors.push(`${descriptor.file}#/sections/${i}/chart/x: no column ${quoted(section.chart.x)} in this section`);
          section.chart?.series.forEach((id, j) => {
            if (!ids.has(id)) errors.push(`${descriptor.file}#/sections/${i}/chart/series/${j}: no column ${quoted(id)} in this section`);
          });
        });
      }
    }
  }
  errors.push(...containmentCycles(descriptors), ...sidewaysTables(descriptors));
  return errors;
}

/**
 * A table the borrower's side shows (core/descriptors/borrower-screens.ts) lays out as cards on a phone: a patient opens
 * these pages on one, and a table that scrolls sideways hides its right-hand columns (an office's phone, an offer's
 * terms) past the screen's edge.
 */
function sidewaysTables(descriptors: readonly LoadedDescriptor[]): string[] {
  const docs = new Map(descriptors.map((d) => [d.file.replace(/^screens\//, ''), d.doc]));
  return [...borrowerScreens(docs).screens]
    .filter(([, doc]) => doc.kind === 'table' && doc.narrow !== 'cards')
    .map(([relative]) => `screens/${relative}#/narrow: the borrower's side shows this table, often on a phone: it needs "narrow": "cards", so that no column hides past the screen's edge`);
}

/** The row fields an expression or a text names (`{"var": "row.x"}`, `"{row.x}"`), with where. */
function rowFieldsNamed(node: Json, pointer: string): Array<[string, string]> {
  if (typeof node === 'string') return placeholdersOf(node).flatMap((p): Array<[string, string]> => (p.startsWith('{row.') ? [[pointer, p.slice(5).split(/[.|}]/)[0]!]] : []));
  if (Array.isArray(node)) return node.flatMap((child, i) => rowFieldsNamed(child, `${pointer}/${i}`));
  if (!node || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([key, value]): Array<[string, string]> =>
    key === 'var' && typeof value === 'string' && value.startsWith('row.') ? [[pointer, value.slice(4).split('.')[0]!]] : rowFieldsNamed(value, `${pointer}/${pointerSegment(key)}`),
  );
}

/** Pages that hold themselves through their parts or steps: such a page never finishes rendering (it crashes the tab). */
function containmentCycles(descriptors: readonly LoadedDescriptor[]): string[] {
  const holds = new Map<string, string[]>();
  for (const d of descriptors) {
    if (d.kind !== 'screen' || !d.file.includes('/pages/')) continue;
    const parts = (d.doc.kind === 'wizard' ? d.doc.steps : d.doc.kind === 'composite' ? d.doc.parts : []) as Array<{ screen?: string }> | undefined;
    holds.set(d.name, (parts ?? []).flatMap((p) => (typeof p.screen === 'string' ? [p.screen] : [])));
  }
  const errors: string[] = [];
  for (const start of holds.keys()) {
    const seen = new Set<string>();
    const walk = (name: string, trail: string[]): boolean => {
      for (const next of holds.get(name) ?? []) {
        if (next === start) {
          errors.push(`screens/pages/${start}.json: the page holds itself (${[...trail, next].join(' → ')}); it would never finish rendering`);
          return true;
        }
        if (!seen.has(next)) {
          seen.add(next);
          if (walk(next, [...trail, next])) return true;
        }
      }
      return false;
    };
    walk(start, [start]);
  }
  return errors;
}
