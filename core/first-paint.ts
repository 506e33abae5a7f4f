/**
 * What a borrower's phone can paint from the HTML alone, before the app's code arrives (issue 42, decision 0286): for
 * each entry screen a visitor opens without a session, its layout's frame (the brand's name and colour, the language
 * picker), its heading, its intro and the plain texts it opens with, in every language offered. The server puts this
 * beside the page (server/http/first-paint.ts); a small script (public/first-paint.js) picks the route and the language
 * the app would pick and draws it, and the app's first page takes its place.
 *
 * Only what the app would surely show comes here. A condition is taken when, for a visitor with no session, the
 * address (route parameters and query) decides it — and the page's data, when the page reads one public answer the
 * script can read too (a GET of the contract, its parameters from the address: a landing page's office). A text is
 * taken when it is a string, a `var`, or an `or`/`if` of them, its placeholders from the address or that data; each
 * language gets it with its strings translated, as the app's `text()` translates its result. Anything else (a table, an
 * image, a text of the session) ends what is painted of the page.
 *
 * A form's leading fields come too when they are plain text or e-mail inputs that start empty: the person can type into
 * them at once, and the app takes what was typed into its own fields (decision 0299).
 */
import type { BrandDescriptor } from '../codegen/generated/descriptors.ts';
import { isOperation } from './expressions.ts';
import { operationIndex, type OperationId } from '../codegen/generated/operation-index.ts';
import { translate, type Language } from './i18n.ts';
import { withCode } from './descriptors/check.ts';
import { canonicalJson } from './canonical-json.ts';
import { PREVIEW_FLAG, TAB_KEYS } from './tab-keys.ts';

const canonical = (value: unknown) => canonicalJson(value ?? null);
import { safeImageSource } from './urls.ts';
import { swatch } from './palette.ts';
import { chunksOf, type RouteChunks } from './route-chunks.ts';

/**
 * A text in each language offered, by locale: a string, or an expression public/first-paint.js evaluates to one; its
 * placeholders ('{data.office.name}') are filled from the address and the data.
 */
export type Words = Record<string, unknown>;

/**
 * A condition over `route.params`, `route.query` and, on a page with a source, `data`, in the operators
 * public/first-paint.js evaluates as core/expressions.ts does.
 */
export type RouteCondition = unknown;

/** The one public read a page's words come from: a GET of the contract, its path parameters from the address. */
export interface PaintSource {
  /** '/api/Office/GetLandingPage/{code}'. */
  path: string;
  params: Record<string, RouteCondition>;
  /** Whether the call carries the public API key. */
  key: boolean;
  /** When the page reads it (no read: the page is not painted). */
  when?: RouteCondition;
}

export interface PaintedScreen {
  /** The layout component drawn around it. */
  layout: PaintedLayout;
  /** Whether the layout shows the language picker. */
  picker: boolean;
  title: Words;
  intro?: Words;
  source?: PaintSource;
  /**
   * A detail screen's opening texts, each in a card, shown when its condition holds; a `stop` ends the painting where
   * its condition holds (something the script cannot draw shows there).
   */
  sections: ({ when?: RouteCondition; text: Words } | { when: RouteCondition; stop: true })[];
  /** When the page leaves at once on load (to another route, or the not-found page): then it is not painted. */
  away?: RouteCondition[];
  /** The code the screen loads beyond the entry (core/route-chunks.ts), fetched while the entry is on its way. */
  preload?: string[];
  /** A form's leading fields, drawn as inputs a person can type into. */
  form?: PaintedForm;
}

/**
 * The leading fields of a form, up to the first the script cannot draw as the app does (a select, a date, a group, a
 * field whose showing or value the address does not decide).
 */
export interface PaintedForm {
  /** The form's grid: two columns from 600 px up, where 'half' fields share a row. */
  columns: 1 | 2;
  /** When the fields start empty for this address (a form its source fills is drawn without them where it is read). */
  when?: RouteCondition;
  fields: PaintedField[];
}

/** A field as the script draws it; what most fields are is left out (every page carries these). */
export interface PaintedField {
  /** The app's own input for it (@rjsf's id, 'root_firstName'): what was typed there goes to it when the app takes over. */
  id: string;
  label: Words;
  hint?: Words;
  placeholder?: Words;
  required?: true;
  /** The input's type: text when left out. */
  type?: 'email';
  /** Whether it shares a row with another from 600 px up. */
  half?: true;
  /** The input's autocomplete: off when left out. */
  autocomplete?: string;
}

export interface FirstPaint {
  /** The brand this page is for: a tab that asked for another (?brand=) paints nothing. */
  brand: string;
  /** Where the app keeps a tab's session, language and brand, and its preview flag: what the script reads as the app does. */
  keys: typeof TAB_KEYS & { preview: typeof PREVIEW_FLAG };
  name: string;
  /** The brand's alternate name and when the address asks for it. */
  alternate?: { name: string; when: RouteCondition };
  /** The short word mark narrow screens show in a bare layout. */
  mark: string;
  logo?: string;
  /** The brand's text colour (its palette's primary, darkened as the app's theme does). */
  colour: string;
  /** The languages offered; one the app loads as its own chunk (not the source) says which files that takes. */
  languages: { locale: string; name: string; preload?: string[] }[];
  source: string;
  /**
   * The paintable routes with what to paint, and the routes that would take an address from one of them, most
   * specific first (as the app's router ranks them).
   */
  routes: { path: string; screen?: PaintedScreen }[];
}

/** The layouts public/first-paint.js can draw (their look copies src/engine/layouts). */
export const PAINTED_LAYOUTS = ['office', 'welcome'] as const;
export type PaintedLayout = (typeof PAINTED_LAYOUTS)[number];

type Doc = Record<string, unknown>;

export interface FirstPaintInput {
  /** A descriptor of the live set, by path under screens/, fragments expanded ('routes.json', 'pages/x.json'). */
  doc(path: string): unknown;
  /** Paths of the live lender files ('lenders/ally.json'). */
  lenders: readonly string[];
  brand: BrandDescriptor;
  /** The languages offered, in the picker's order. */
  languages: readonly Language[];
  source: string;
  /** The built app's code per screen (absent when the app is not built). */
  chunks?: RouteChunks;
  /** The contract's component schemas: a form's fields, their kinds and which are required. */
  schemas: Readonly<Record<string, unknown>>;
}

const UNKNOWN = Symbol('unknown');

/** What a page's expressions may read before the app runs: the conditions, and the data when the page has a source. */
interface Scope {
  conditions: Readonly<Record<string, unknown>>;
  data: boolean;
  languages: readonly Language[];
}

const known = (path: string, scope: Scope) => path.startsWith('route.params.') || path.startsWith('route.query.') || (scope.data && (path === 'data' || path.startsWith('data.')));
const ROUTE_OPERATORS = new Set(['!', '!!', 'and', 'or', '==', '!=', '<', '<=', '>', '>=', 'if']);

/**
 * An expression as it stands for a visitor without a session: `session.*` is empty, `cond.*` is replaced by its
 * definition, `route.*` stays; UNKNOWN when anything else (data, brand, config) decides it.
 */
function forAddress(expression: unknown, scope: Scope, seen: ReadonlySet<string> = new Set()): unknown {
  if (Array.isArray(expression)) {
    const items = expression.map((item) => forAddress(item, scope, seen));
    return items.includes(UNKNOWN) ? UNKNOWN : items;
  }
  if (expression === null || typeof expression !== 'object') return expression;
  if (!isOperation(expression)) return UNKNOWN;
  const [op, raw] = Object.entries(expression)[0]!;
  if (op === 'var') {
    const path = Array.isArray(raw) ? raw[0] : raw;
    if (typeof path !== 'string' || (Array.isArray(raw) && raw.length > 1)) return UNKNOWN;
    if (known(path, scope)) return expression;
    if (path.startsWith('session.')) return null;
    const name = /^cond\.(\w+)$/.exec(path)?.[1];
    if (name === undefined || !(name in scope.conditions) || seen.has(name)) return UNKNOWN;
    return forAddress(scope.conditions[name], scope, new Set([...seen, name]));
  }
  if (!ROUTE_OPERATORS.has(op)) return UNKNOWN;
  const args = forAddress(Array.isArray(raw) ? raw : [raw], scope, seen);
  return args === UNKNOWN ? UNKNOWN : { [op]: args };
}

/** A text's result in one language: its strings translated, its placeholders only of what the scope knows. */
function inLanguage(text: unknown, texts: Language['texts'], scope: Scope): unknown {
  if (typeof text === 'string') {
    const placeholders = [...text.matchAll(/\{([^{}]*)\}/g)].map((m) => m[1]!);
    return placeholders.every((path) => /^[\w.]+$/.test(path) && known(path, scope)) ? translate(texts, text) : UNKNOWN;
  }
  if (!isOperation(text)) return UNKNOWN;
  const [op, raw] = Object.entries(text)[0]!;
  const args = Array.isArray(raw) ? raw : [raw];
  // The app translates a text's result, whatever it came from: a word of the address could be a source text ('Error'),
  // a piece of data hardly.
  if (op === 'var') return scope.data && /^data(\.|$)/.test(String(args[0])) && forAddress(text, scope) === text ? text : UNKNOWN;
  if (op !== 'or' && op !== 'if') return UNKNOWN;
  // An 'if's conditions are not texts: only its results are translated.
  const out = args.map((arg, i) => (op === 'if' && i % 2 === 0 && i + 1 < args.length ? forAddress(arg, scope) : inLanguage(arg, texts, scope)));
  return out.includes(UNKNOWN) ? UNKNOWN : { [op]: out };
}

/** A text in every language offered, or undefined when one of them cannot be painted. */
function words(text: unknown, scope: Scope): Words | undefined {
  const out: Words = {};
  for (const language of scope.languages) {
    const shown = inLanguage(text, language.texts, scope);
    if (shown === UNKNOWN) return undefined;
    out[language.locale] = shown;
  }
  return out;
}

/** A detail screen's opening texts, up to the first whose showing the scope cannot decide. */
function openingSections(sections: unknown, scope: Scope): PaintedScreen['sections'] {
  const out: PaintedScreen['sections'] = [];
  for (const section of (sections ?? []) as Doc[]) {
    const when = section.visible === undefined ? undefined : forAddress(section.visible, scope);
    if (when === UNKNOWN) break;
    const text = Object.keys(section).every((key) => key === 'text' || key === 'visible') ? words(section.text, scope) : undefined;
    if (text) out.push({ ...(when === undefined ? {} : { when }), text });
    else if (when === undefined) break;
    else out.push({ when, stop: true });
  }
  return out;
}

/** The source's call for the script, when the page reads a GET of the contract whose parameters the address gives. */
function paintSource(source: unknown, scope: Scope): PaintSource | undefined | typeof UNKNOWN {
  if (source === undefined) return undefined;
  const { operation, params, when, ...rest } = source as Doc;
  const op = operationIndex[operation as OperationId];
  if (!op || op.method !== 'get' || Object.keys(rest).length) return UNKNOWN;
  const routeScope = { ...scope, data: false };
  const filled: Record<string, RouteCondition> = {};
  for (const [name, value] of Object.entries((params ?? {}) as Doc)) {
    const residual = forAddress(value, routeScope);
    if (residual === UNKNOWN || !op.path.includes(`{${name}}`)) return UNKNOWN;
    filled[name] = residual;
  }
  const condition = when === undefined ? undefined : forAddress(when, routeScope);
  if (condition === UNKNOWN) return UNKNOWN;
  return { path: op.path, params: filled, key: op.key, ...(condition === undefined ? {} : { when: condition }) };
}

/** A schema with its `$ref` to a contract component followed (its own keywords beside the ref kept). */
function resolved(schema: unknown, schemas: FirstPaintInput['schemas']): Doc | undefined {
  if (!schema || typeof schema !== 'object') return undefined;
  const { $ref, ...own } = schema as Doc;
  if (typeof $ref !== 'string') return own;
  const name = /^#\/components\/schemas\/(\w+)$/.exec($ref)?.[1];
  const target = name === undefined ? undefined : resolved(schemas[name], schemas);
  return target && { ...target, ...own };
}

/** Whether an initial value is a `var` of the source's answer alone (with no answer read, the field starts empty). */
const isDataVar = (expression: unknown): boolean => {
  const path = isOperation(expression) ? (expression as Doc).var : undefined;
  // A `var` with a default ({"var": ["data.x", "…"]}) starts with the default.
  return typeof path === 'string' && /^data(\.|$)/.test(path);
};

const FIELD_KEYS = new Set(['label', 'hint', 'placeholder', 'width', 'widget', 'options']);

/**
 * A form's leading fields as @rjsf lays them out (src/engine/screens/FormScreen.tsx uiSchemaFor: the descriptor's
 * order, '*' for the rest in the schema's order; hidden, off-screen and 'hidden'-widget fields not shown), while each is
 * a plain text or e-mail input whose label, hint and placeholder are words, and which starts empty for this address.
 */
function paintedForm(page: Doc, input: FirstPaintInput, scope: Scope): PaintedForm | undefined {
  if (typeof page.schema !== 'string' || page.from !== undefined) return undefined;
  const schema = resolved({ $ref: `#/components/schemas/${page.schema}` }, input.schemas);
  if (!schema) return undefined;
  // A field the source's answer fills is drawn only where the address says the source is not read.
  const source = page.source as Doc | undefined;
  const read = source === undefined ? false : source.when === undefined ? true : forAddress(source.when, scope);
  let filled = false;
  const properties = (schema.properties ?? {}) as Doc;
  const names = Object.keys(properties);
  const order = ((page.order ?? []) as string[]).filter((name) => name === '*' || names.includes(name));
  const listed = order.includes('*') ? order : [...order, '*'];
  const sequence = listed.flatMap((name) => (name === '*' ? names.filter((other) => !listed.includes(other)) : [name]));
  const descriptors = (page.fields ?? {}) as Record<string, Doc | undefined>;
  const show = page.show as string[] | undefined;
  const required = new Set((schema.required ?? []) as string[]);
  const initial = (page.initial ?? {}) as Doc;
  const bound = (page.values ?? {}) as Doc;
  const fields: PaintedField[] = [];
  for (const name of sequence) {
    const field = descriptors[name] ?? {};
    if (field.widget === 'hidden' || (show && !show.some((shown) => shown === name || shown.startsWith(`${name}.`)))) continue;
    const property = resolved(properties[name], input.schemas);
    const { autocomplete, ...otherOptions } = (field.options ?? {}) as Doc;
    const plain =
      property?.type === 'string' &&
      property.enum === undefined &&
      property.const === undefined &&
      property.default === undefined &&
      (property.format === undefined || property.format === 'email') &&
      (field.widget === undefined || field.widget === 'text' || field.widget === 'email') &&
      Object.keys(field).every((key) => FIELD_KEYS.has(key)) &&
      Object.keys(otherOptions).length === 0 &&
      (autocomplete === undefined || typeof autocomplete === 'string') &&
      !(name in bound) &&
      (!(name in initial) || (isDataVar(initial[name]) && read !== true && read !== UNKNOWN));
    const label = plain && field.label !== undefined ? words(field.label, scope) : undefined;
    const hint = field.hint === undefined ? undefined : words(field.hint, scope);
    const placeholder = typeof field.placeholder === 'string' ? words(field.placeholder, scope) : undefined;
    if (!label || (field.hint !== undefined && !hint) || (field.placeholder !== undefined && !placeholder)) break;
    filled ||= name in initial;
    fields.push({
      id: `root_${name}`,
      label,
      ...(hint ? { hint } : {}),
      ...(placeholder ? { placeholder } : {}),
      ...(required.has(name) ? { required: true as const } : {}),
      ...(field.widget === 'email' || (field.widget === undefined && property!.format === 'email') ? { type: 'email' as const } : {}),
      ...(field.width === 'half' ? { half: true as const } : {}),
      ...(typeof autocomplete === 'string' && autocomplete !== 'off' ? { autocomplete } : {}),
    });
  }
  if (!fields.length) return undefined;
  const columns = page.columns ?? (Object.values(descriptors).some((field) => field?.width === 'half') ? 2 : 1);
  return { columns: columns === 1 ? 1 : 2, ...(filled && read !== false ? { when: { '!': read } } : {}), fields };
}

function paintedScreen(route: Doc, input: FirstPaintInput, conditions: Readonly<Record<string, unknown>>): PaintedScreen | undefined {
  if ((route.access as Doc | undefined)?.anonymous !== true || route.translated !== true || typeof route.screen !== 'string') return undefined;
  const layout = (((input.doc('layouts.json') as Doc | undefined)?.layouts ?? {}) as Record<string, Doc>)[String(route.layout)];
  const component = layout?.component;
  if (!PAINTED_LAYOUTS.includes(component as PaintedLayout)) return undefined;
  const page = input.doc(`pages/${route.screen}.json`) as Doc | undefined;
  // A composite is painted as its title over its first part, when that part is a detail of the same data.
  const composite = page?.kind === 'composite' ? page : undefined;
  const firstPart = ((composite?.parts ?? []) as Doc[])[0];
  const body = composite ? (firstPart && firstPart.visible === undefined ? (input.doc(`pages/${String(firstPart.screen)}.json`) as Doc | undefined) : undefined) : page;
  if (!page || (body?.kind !== 'form' && body?.kind !== 'detail')) return undefined;
  if (composite && ((body.source !== undefined && canonical(body.source) !== canonical(composite.source)) || body.title !== undefined || body.intro !== undefined)) return undefined;
  const scope: Scope = { conditions, data: false, languages: input.languages };
  // A form's words never wait for its source (it fills the form's values): only a detail's and a composite's read it.
  const source = body.kind === 'form' ? undefined : paintSource(page.source, scope);
  if (source === UNKNOWN) return undefined;
  if (source) scope.data = true;
  const title = words(page.title, scope);
  if (!title) return undefined;
  const intro = page.intro === undefined ? undefined : words(page.intro, scope);
  if (page.intro !== undefined && !intro) return undefined;
  // A page that acts on load is painted only when the address tells whether it stays (a call it makes stays: its
  // page shows meanwhile).
  const away: RouteCondition[] = [];
  for (const action of [...((page.onLoad ?? []) as Doc[]), ...(composite ? ((body.onLoad ?? []) as Doc[]) : [])]) {
    const when = action.when === undefined ? UNKNOWN : forAddress(action.when, scope);
    if (when === UNKNOWN) return undefined;
    if (action.type !== 'submit') away.push(when);
  }
  const form = body.kind === 'form' && !composite ? paintedForm(body, input, scope) : undefined;
  const picker = layout!.languages as Doc | undefined;
  // The code the app loads for it: the layout, the page (a composite's and its first part's), their kinds, the form.
  const shown: [unknown, Doc][] = composite ? [[route.screen, composite], [firstPart!.screen, body]] : [[route.screen, page]];
  const chunks = input.chunks;
  const preload = chunks
    ? [...new Set(shown.flatMap(([name, doc]) => chunksOf(chunks, { layout: String(component), page: String(name), kind: String(doc.kind), form: typeof doc.schema === 'string' ? doc.schema : undefined })))]
    : [];
  return {
    layout: component as PaintedLayout,
    picker: picker !== undefined && picker.visible === undefined && input.languages.length > 1,
    title,
    ...(intro ? { intro } : {}),
    ...(source ? { source } : {}),
    sections: body.kind === 'detail' ? openingSections(body.sections, scope) : [],
    ...(form ? { form } : {}),
    ...(away.length ? { away } : {}),
    ...(preload.length ? { preload } : {}),
  };
}

/** react-router's ranking, as far as these paths need it: a fixed segment over a parameter, an optional one last. */
function specificity(path: string): number {
  return path
    .split('/')
    .filter(Boolean)
    .reduce((score, segment) => score + (segment === '*' ? -2 : segment.startsWith(':') ? (segment.endsWith('?') ? 1 : 3) : 10), 0);
}

/** Whether some address matches both patterns (a parameter matches any segment, an optional one none as well). */
function overlap(a: string, b: string): boolean {
  const [x, y] = [a, b].map((path) => path.split('/').filter(Boolean));
  const fits = (i: number, j: number): boolean => {
    if (i === x!.length || j === y!.length) return x!.slice(i).every((s) => s.endsWith('?') || s === '*') && y!.slice(j).every((s) => s.endsWith('?') || s === '*');
    const [s, t] = [x![i]!, y![j]!];
    if (s === '*' || t === '*') return true;
    const same = s.startsWith(':') || t.startsWith(':') || s.toLowerCase() === t.toLowerCase();
    return (same && fits(i + 1, j + 1)) || (s.endsWith('?') && fits(i + 1, j)) || (t.endsWith('?') && fits(i, j + 1));
  };
  return fits(0, 0);
}

export function firstPaintOf(input: FirstPaintInput): FirstPaint {
  const routesDoc = (input.doc('routes.json') ?? {}) as Doc;
  const conditions = (((input.doc('conditions.json') as Doc | undefined)?.conditions ?? {}) as Record<string, unknown>);
  const routes: FirstPaint['routes'] = ((routesDoc.routes ?? []) as Doc[]).map((route) => {
    const screen = paintedScreen(route, input, conditions);
    return { path: String(route.path), ...(screen ? { screen } : {}) };
  });
  const prefix = String((routesDoc.lenderFlows as Doc | undefined)?.pathPrefix ?? '');
  for (const path of input.lenders) {
    const lender = input.doc(path) as Doc | undefined;
    for (const route of (lender?.routes ?? []) as Doc[]) routes.push({ path: (withCode(prefix, String(lender!.code)) + String(route.path)).replace(/\/$/, '') || '/' });
  }
  routes.sort((a, b) => specificity(b.path) - specificity(a.path));
  // A route without a screen to paint is kept only where it would win an address from one with a screen.
  const painted = routes.filter((route) => route.screen);
  const deciding = routes.filter((route, i) => route.screen || painted.some((p) => routes.indexOf(p) > i && overlap(route.path, p.path)));
  const { brand } = input;
  const alternateWhen = brand.names.useAlternate === undefined ? undefined : forAddress(brand.names.useAlternate, { conditions, data: false, languages: input.languages });
  const logo = safeImageSource(brand.logo.src);
  return {
    brand: brand.id,
    keys: { ...TAB_KEYS, preview: PREVIEW_FLAG },
    name: brand.names.primary,
    ...(alternateWhen !== undefined && alternateWhen !== UNKNOWN ? { alternate: { name: brand.names.alternate, when: alternateWhen } } : {}),
    mark: brand.logo.text,
    ...(logo ? { logo } : {}),
    colour: swatch(brand.palette, 'primary').text,
    languages: input.languages.map(({ locale, name }) => {
      const preload = locale === input.source ? undefined : input.chunks?.language[locale];
      return { locale, name, ...(preload?.length ? { preload } : {}) };
    }),
    source: input.source,
    routes: deciding,
  };
}
