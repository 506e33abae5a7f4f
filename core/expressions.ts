/**
 * The one expression language of the descriptors (docs/decisions/0040, 0041): a JSON Logic subset that is
 * data, evaluated by a plain interpreter — no eval, no new Function.
 *
 * Operators: var, ==, !=, !, !!, and, or, in, <, <=, >, >=, if, cat, +, -, *, /, missing, object, lower, and over a
 * list some, all, none (as JSON Logic: the inner expression reads each item as its data, `{"var": "isUploaded"}`).
 * Anything else is a literal (arrays are evaluated item by item). Texts fill {path} placeholders from the same
 * context: "Hi {session.identity.givenName}".
 */
import { formatValue } from './formats.ts';
import { tr } from './current-language.ts';

export type Context = Record<string, unknown>;

export const OPERATORS = ['var', '==', '!=', '!', '!!', 'and', 'or', 'in', '<', '<=', '>', '>=', 'if', 'cat', '+', '-', '*', '/', 'missing', 'object', 'lower', 'some', 'all', 'none'] as const;
type Operator = (typeof OPERATORS)[number];
const OPERATOR_SET: ReadonlySet<string> = new Set(OPERATORS);

export class ExpressionError extends Error {}

/** Reads a dotted path ('session.identity.givenName', 'rows.0.id'); '' is the whole context. */
export function getPath(data: unknown, path: string): unknown {
  if (path === '') return data;
  let node: unknown = data;
  for (const part of path.split('.')) {
    if (node === null || node === undefined) return undefined;
    if (typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

/** JSON Logic truthiness: an empty array is false, like 0, '' and null. */
export function truthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  return Boolean(value);
}

const nullish = (v: unknown) => (v === undefined ? null : v);

function looseEquals(a: unknown, b: unknown): boolean {
  a = nullish(a);
  b = nullish(b);
  if (a === null || b === null) return a === b;
  if (typeof a === 'object' || typeof b === 'object') return a === b;
  if (typeof a === typeof b) return a === b;
  // '5' == 5 (route parameters are strings), true == 'true'
  return String(a) === String(b);
}

const num = (v: unknown) => (typeof v === 'number' ? v : Number(v));

/** Is `node` an operator application (an object with exactly one known operator key)? */
export function isOperation(node: unknown): node is Record<Operator, unknown> {
  if (!node || typeof node !== 'object' || Array.isArray(node)) return false;
  const keys = Object.keys(node);
  return keys.length === 1 && OPERATOR_SET.has(keys[0]!);
}

export function evaluate(expression: unknown, context: Context): unknown {
  if (Array.isArray(expression)) return expression.map((e) => evaluate(e, context));
  if (expression === null || typeof expression !== 'object') return expression;
  const keys = Object.keys(expression);
  if (keys.length !== 1 || !OPERATOR_SET.has(keys[0]!)) {
    throw new ExpressionError(`not an expression: ${JSON.stringify(expression).slice(0, 80)}`);
  }
  const op = keys[0] as Operator;
  const raw = (expression as Record<string, unknown>)[op];
  const args = Array.isArray(raw) ? raw : [raw];
  const value = (i: number) => evaluate(args[i], context);
  switch (op) {
    case 'var': {
      const path = value(0);
      const found = getPath(context, path === null || path === undefined ? '' : String(path));
      return found === undefined || found === null ? (args.length > 1 ? value(1) : found) : found;
    }
    case '==':
      return looseEquals(value(0), value(1));
    case '!=':
      return !looseEquals(value(0), value(1));
    case '!':
      return !truthy(value(0));
    case '!!':
      return truthy(value(0));
    case 'and': {
      let last: unknown = true;
      for (let i = 0; i < args.length; i++) {
        last = value(i);
        if (!truthy(last)) return last;
      }
      return last;
    }
    case 'or': {
      let last: unknown = false;
      for (let i = 0; i < args.length; i++) {
        last = value(i);
        if (truthy(last)) return last;
      }
      return last;
    }
    case 'in': {
      const needle = value(0);
      const haystack = value(1);
      if (Array.isArray(haystack)) return haystack.some((item) => looseEquals(item, needle));
      if (typeof haystack === 'string') return needle !== null && needle !== undefined && haystack.includes(String(needle));
      return false;
    }
    case '<':
    case '<=':
    case '>':
    case '>=': {
      const values = args.map((_a, i) => value(i));
      if (values.some((v) => v === null || v === undefined || v === '' || Number.isNaN(num(v)))) return false;
      const compare = (a: unknown, b: unknown) =>
        op === '<' ? num(a) < num(b) : op === '<=' ? num(a) <= num(b) : op === '>' ? num(a) > num(b) : num(a) >= num(b);
      // {"<": [a, b, c]}: a < b < c, as JSON Logic's between.
      for (let i = 0; i + 1 < values.length; i++) if (!compare(values[i], values[i + 1])) return false;
      return values.length >= 2;
    }
    case 'if': {
      let i = 0;
      for (; i + 1 < args.length; i += 2) if (truthy(value(i))) return value(i + 1);
      return i < args.length ? value(i) : null;
    }
    case 'cat':
      return args.map((_a, i) => value(i)).map((v) => (v === null || v === undefined ? '' : String(v))).join('');
    case '+':
      return args.reduce<number>((sum, _a, i) => sum + num(value(i)), 0);
    case '*':
      return args.reduce<number>((product, _a, i) => product * num(value(i)), 1);
    case '-':
      return args.length === 1 ? -num(value(0)) : num(value(0)) - num(value(1));
    case '/':
      return num(value(0)) / num(value(1));
    // ["name", value, "name", value, …] → { name: value, … }: a call's body that holds objects (a list of them).
    case 'object': {
      const out: Record<string, unknown> = {};
      for (let i = 0; i + 1 < args.length; i += 2) out[String(value(i))] = value(i + 1);
      return out;
    }
    // Case-insensitive comparisons ('Owner address must differ from the office street address', spec §5).
    case 'lower': {
      const v = value(0);
      return v === null || v === undefined ? v : String(v).toLowerCase();
    }
    // Over a list, each item the data of the inner expression; `all` of an empty list is false (JSON Logic).
    case 'some':
    case 'all':
    case 'none': {
      const list = value(0);
      const items = Array.isArray(list) ? list : [];
      const test = (item: unknown) => truthy(evaluate(args[1], (item !== null && typeof item === 'object' ? item : { '': item }) as Context));
      if (op === 'some') return items.some(test);
      if (op === 'none') return !items.some(test);
      return items.length > 0 && items.every(test);
    }
    case 'missing': {
      const names = (args.length === 1 && Array.isArray(value(0)) ? (value(0) as unknown[]) : args.map((_a, i) => value(i))).map(String);
      return names.filter((name) => {
        const v = getPath(context, name);
        return v === undefined || v === null || v === '';
      });
    }
  }
}

/** Evaluates a condition; an absent condition is `fallback` (visible: true, disabled: false). */
export function condition(expression: unknown, context: Context, fallback: boolean): boolean {
  if (expression === undefined) return fallback;
  return truthy(evaluate(expression, context));
}

/**
 * Fills {path} placeholders of a string from the context; missing values read as ''. `{path|format}` shows the value
 * in a format of spec §9 (formats.ts: currency, apr, date, datetime, phone, ein, number, yesno, bytes, label:<Enumeration>,
 * config:<Type>, datetime:<path of an office time zone>).
 */
export function fillTemplate(template: string, context: Context): string {
  return template.replace(/\{([A-Za-z_$][\w$]*(?:\.[\w$]+)*)(?:\|([a-z]+(?::[A-Za-z][\w.-]*)?))?\}/g, (_whole, path: string, format: string | undefined) => {
    const v = getPath(context, path);
    if (format) return formatValue(format, v, (at) => getPath(context, at));
    return v === undefined || v === null ? '' : String(v);
  });
}

/** A descriptor text: an expression whose string result, in the current language, has its placeholders filled. */
export function text(expression: unknown, context: Context): string {
  if (expression === undefined || expression === null) return '';
  const value = evaluate(expression, context);
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? fillTemplate(tr(value), context) : String(value);
}

/** Evaluates every expression of a bindings map; string literals keep their placeholders filled. */
export function bind(bindings: Record<string, unknown> | undefined, context: Context): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, expression] of Object.entries(bindings ?? {})) {
    const value = evaluate(expression, context);
    out[name] = typeof value === 'string' && typeof expression === 'string' ? fillTemplate(value, context) : value;
  }
  return out;
}
