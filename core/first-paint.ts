/**
 * What a borrower's phone can paint from the HTML alone, before the app's code arrives (issue 42, decision 0286): for
 * each entry screen a visitor opens without a session, its layout's frame (the brand's name and colour, the language
 * picker), its heading, its intro and the plain texts it opens with, in every language offered. The server puts this
 * beside the page (server/http/first-paint.ts); a small script (public/first-paint.js) picks the route and the language
 * the app would pick and draws it, and the app's first page takes its place.
 *
 * Only what the app would surely show comes here. A text is taken when it is a plain string without placeholders; a
 * condition when, for a visitor with no session, it depends on the address alone (route parameters and query). Anything
 * that waits for data (a landing page's office name, a table) is left to the app.
 */
import type { BrandDescriptor } from '../codegen/generated/descriptors.ts';
import { isOperation } from './expressions.ts';
import { translate, type Language } from './i18n.ts';
import { withCode } from './descriptors/check.ts';
import { safeImageSource } from './urls.ts';
import { swatch } from './palette.ts';

/** A text in each language offered, by locale. */
export type Words = Record<string, string>;

/**
 * A condition over `route.params` and `route.query` only, in the operators public/first-paint.js evaluates as
 * core/expressions.ts does.
 */
export type RouteCondition = unknown;

export interface PaintedScreen {
  /** The layout component drawn around it. */
  layout: PaintedLayout;
  /** Whether the layout shows the language picker. */
  picker: boolean;
  title: Words;
  intro?: Words;
  /** A detail screen's opening texts, each in a card, shown when its condition holds. */
  sections: { when?: RouteCondition; text: Words }[];
  /** When the page leaves at once on load (to another route, or the not-found page): then it is not painted. */
  away?: RouteCondition[];
}

export interface FirstPaint {
  /** The brand this page is for: a tab that asked for another (?brand=) paints nothing. */
  brand: string;
  name: string;
  /** The brand's alternate name and when the address asks for it. */
  alternate?: { name: string; when: RouteCondition };
  /** The short word mark narrow screens show in a bare layout. */
  mark: string;
  logo?: string;
  /** The brand's text colour (its palette's primary, darkened as the app's theme does). */
  colour: string;
  languages: { locale: string; name: string }[];
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
}

const UNKNOWN = Symbol('unknown');
const ROUTE_OPERATORS = new Set(['!', '!!', 'and', 'or', '==', '!=', 'if']);

/**
 * An expression as it stands for a visitor without a session: `session.*` is empty, `cond.*` is replaced by its
 * definition, `route.*` stays; UNKNOWN when anything else (data, brand, config) decides it.
 */
function forAddress(expression: unknown, conditions: Readonly<Record<string, unknown>>, seen: ReadonlySet<string> = new Set()): unknown {
  if (Array.isArray(expression)) {
    const items = expression.map((item) => forAddress(item, conditions, seen));
    return items.includes(UNKNOWN) ? UNKNOWN : items;
  }
  if (expression === null || typeof expression !== 'object') return expression;
  if (!isOperation(expression)) return UNKNOWN;
  const [op, raw] = Object.entries(expression)[0]!;
  if (op === 'var') {
    const path = Array.isArray(raw) ? raw[0] : raw;
    if (typeof path !== 'string' || (Array.isArray(raw) && raw.length > 1)) return UNKNOWN;
    if (path.startsWith('route.params.') || path.startsWith('route.query.')) return expression;
    if (path.startsWith('session.')) return null;
    const name = /^cond\.(\w+)$/.exec(path)?.[1];
    if (name === undefined || !(name in conditions) || seen.has(name)) return UNKNOWN;
    return forAddress(conditions[name], conditions, new Set([...seen, name]));
  }
  if (!ROUTE_OPERATORS.has(op)) return UNKNOWN;
  const args = forAddress(Array.isArray(raw) ? raw : [raw], conditions, seen);
  return args === UNKNOWN ? UNKNOWN : { [op]: args };
}

/** A text every language can show as it is: a string without placeholders. */
function words(text: unknown, languages: FirstPaintInput['languages']): Words | undefined {
  if (typeof text !== 'string' || text.includes('{')) return undefined;
  return Object.fromEntries(languages.map((language) => [language.locale, translate(language.texts, text)]));
}

/** A detail screen's opening texts, up to the first the address alone cannot decide or that is more than a text. */
function openingSections(sections: unknown, conditions: Readonly<Record<string, unknown>>, languages: FirstPaintInput['languages']): PaintedScreen['sections'] {
  const out: PaintedScreen['sections'] = [];
  for (const section of (sections ?? []) as Doc[]) {
    const text = words(section.text, languages);
    const when = section.visible === undefined ? undefined : forAddress(section.visible, conditions);
    if (!text || when === UNKNOWN || Object.keys(section).some((key) => key !== 'text' && key !== 'visible')) break;
    out.push({ ...(when === undefined ? {} : { when }), text });
  }
  return out;
}

function paintedScreen(route: Doc, input: FirstPaintInput, conditions: Readonly<Record<string, unknown>>): PaintedScreen | undefined {
  if ((route.access as Doc | undefined)?.anonymous !== true || route.translated !== true || typeof route.screen !== 'string') return undefined;
  const layout = (((input.doc('layouts.json') as Doc | undefined)?.layouts ?? {}) as Record<string, Doc>)[String(route.layout)];
  const component = layout?.component;
  if (!PAINTED_LAYOUTS.includes(component as PaintedLayout)) return undefined;
  const page = input.doc(`pages/${route.screen}.json`) as Doc | undefined;
  if (page?.kind !== 'form' && page?.kind !== 'detail') return undefined;
  const title = words(page.title, input.languages);
  if (!title) return undefined;
  const intro = page.intro === undefined ? undefined : words(page.intro, input.languages);
  if (page.intro !== undefined && !intro) return undefined;
  // A page that acts on load is painted only when the address tells whether it stays (a call it makes stays: its
  // page shows meanwhile).
  const away: RouteCondition[] = [];
  for (const action of (page.onLoad ?? []) as Doc[]) {
    const when = action.when === undefined ? UNKNOWN : forAddress(action.when, conditions);
    if (when === UNKNOWN) return undefined;
    if (action.type !== 'submit') away.push(when);
  }
  const picker = layout!.languages as Doc | undefined;
  return {
    layout: component as PaintedLayout,
    picker: picker !== undefined && picker.visible === undefined && input.languages.length > 1,
    title,
    ...(intro ? { intro } : {}),
    sections: page.kind === 'detail' ? openingSections(page.sections, conditions, input.languages) : [],
    ...(away.length ? { away } : {}),
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
  const alternateWhen = brand.names.useAlternate === undefined ? undefined : forAddress(brand.names.useAlternate, conditions);
  const logo = safeImageSource(brand.logo.src);
  return {
    brand: brand.id,
    name: brand.names.primary,
    ...(alternateWhen !== undefined && alternateWhen !== UNKNOWN ? { alternate: { name: brand.names.alternate, when: alternateWhen } } : {}),
    mark: brand.logo.text,
    ...(logo ? { logo } : {}),
    colour: swatch(brand.palette, 'primary').text,
    languages: input.languages.map(({ locale, name }) => ({ locale, name })),
    source: input.source,
    routes: deciding,
  };
}
