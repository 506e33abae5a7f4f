/**
 * The HTTP adapter's templates (issue 38): a lender file says, as data, what each call sends and how each answer
 * becomes the adapter's types. A template is JSON whose expressions (the descriptors' one language, core/expressions.ts)
 * are evaluated against the call's context; `{"$each": <list>, "as": <template>}` makes a list, each item read as
 * `item`. A value that cannot be read where the mapping expects it is a MappingError naming its place, so a lender's
 * answer that does not fit is that lender's 'temporarily unavailable', never a crash.
 */
import { evaluate, ExpressionError, isOperation, type Context } from '../../../core/expressions.ts';

export class MappingError extends Error {
  constructor(
    /** The JSON pointer of the template part that failed ('/answer/offers/0/apr'). */
    readonly place: string,
    message: string,
  ) {
    super(`${place || '/'}: ${message}`);
    this.name = 'MappingError';
  }
}

const pointer = (place: string, key: string | number) => `${place}/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}`;

/** The value a template makes in `context`; properties whose value is undefined are left out. */
export function render(template: unknown, context: Context, place = ''): unknown {
  if (Array.isArray(template)) return template.map((part, i) => render(part, context, pointer(place, i)));
  if (template === null || typeof template !== 'object') return template;
  if (isOperation(template)) {
    try {
      return evaluate(template, context);
    } catch (error) {
      throw new MappingError(place, error instanceof ExpressionError ? error.message : String(error));
    }
  }
  const node = template as Record<string, unknown>;
  if ('$each' in node) {
    const list = render(node.$each, context, pointer(place, '$each'));
    if (list === null || list === undefined) return [];
    if (!Array.isArray(list)) throw new MappingError(pointer(place, '$each'), `expected a list, found ${typeof list}`);
    return list.map((item, index) => render(node.as, { ...context, item, index }, pointer(place, 'as')));
  }
  const out: Record<string, unknown> = {};
  for (const [key, part] of Object.entries(node)) {
    const value = render(part, context, pointer(place, key));
    if (value !== undefined) out[key] = value;
  }
  return out;
}

/** A path template's `{dotted.path}` placeholders, each filled from the context and encoded for a URL's path. */
export function renderPath(template: string, context: Context, place: string): string {
  return template.replace(/\{([A-Za-z_$][\w$]*(?:\.[\w$]+)*)\}/g, (_whole, path: string) => {
    const value = evaluate({ var: path }, context);
    if (value === null || value === undefined || value === '') throw new MappingError(place, `{${path}} has no value`);
    return encodeURIComponent(String(value));
  });
}

/** Readers of a mapped answer: each checks the kind of value the adapter's types need, and names the place otherwise. */
export const read = {
  text(value: unknown, place: string): string {
    if (typeof value === 'string') return value;
    if (typeof value === 'number') return String(value);
    throw new MappingError(place, `expected text, found ${describe(value)}`);
  },
  optionalText(value: unknown, place: string): string | null {
    return value === null || value === undefined || value === '' ? null : read.text(value, place);
  },
  number(value: unknown, place: string): number {
    const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
    if (typeof n === 'number' && Number.isFinite(n)) return n;
    throw new MappingError(place, `expected a number, found ${describe(value)}`);
  },
  /** Money is integer cents in the adapter's types: a lender's cents, or its dollars mapped with `*`, rounded once here. */
  cents(value: unknown, place: string): number {
    const n = read.number(value, place);
    if (n < 0) throw new MappingError(place, `expected an amount, found ${n}`);
    return Math.round(n);
  },
  optionalCents(value: unknown, place: string): number | null {
    return value === null || value === undefined ? null : read.cents(value, place);
  },
  date(value: unknown, place: string): Date {
    const d = typeof value === 'string' || typeof value === 'number' ? new Date(value) : undefined;
    if (d && !Number.isNaN(d.getTime())) return d;
    throw new MappingError(place, `expected a date, found ${describe(value)}`);
  },
  optionalDate(value: unknown, place: string): Date | null {
    return value === null || value === undefined || value === '' ? null : read.date(value, place);
  },
  list(value: unknown, place: string): unknown[] {
    if (Array.isArray(value)) return value;
    if (value === null || value === undefined) return [];
    throw new MappingError(place, `expected a list, found ${describe(value)}`);
  },
  oneOf<T extends string>(value: unknown, allowed: readonly T[], place: string): T {
    if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
    throw new MappingError(place, `expected one of ${allowed.join(', ')}, found ${describe(value)}`);
  },
};

/** What was found, without repeating it (an answer may hold personal data): its kind, and a number's or word's size. */
function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `a list of ${value.length}`;
  if (typeof value === 'string') return `text of ${value.length} characters`;
  return typeof value;
}
