/**
 * A sample value for a JSON Schema: what the studio's preview shows a signed-in role instead of anyone's records
 * (decision 0229). Every property is filled (a screen shows its optional fields too), a list has three entries that
 * differ (their keys and ids must), a choice takes its values in turn, a schema's `examples` are taken as they are,
 * and a text says what it is ('Sample first name'), so a sample is never taken for a person's data.
 */
export type SchemaNode = boolean | { [key: string]: unknown };

/** Resolves a local `$ref` ('#/components/schemas/App') against the document that holds the schema. */
export type Resolve = (ref: string) => SchemaNode | undefined;

const LIST_LENGTH = 3;
/** The first id (and integer) of every answer: a preview opens the sample office and application by it. */
export const FIRST_SAMPLE_ID = 101;
/** Each $ref, part and nesting is a step: deep enough for every answer of the contract, short of a loop. */
const MAX_DEPTH = 24;
const SAMPLE_DAY = '2026-03-16';

const words = (name: string) =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_\-.]+/g, ' ')
    .trim()
    .toLowerCase();

function sampleText(schema: Record<string, unknown>, name: string, index: number): string {
  const suffix = index > 0 ? ` ${index + 1}` : '';
  switch (schema.format) {
    case 'date':
      return SAMPLE_DAY;
    case 'date-time':
      return `${SAMPLE_DAY}T15:30:00Z`;
    case 'email':
      return `sample${index + 1}@example.com`;
    case 'uri':
    case 'url':
      return 'https://example.com/';
    case 'uri-reference':
      // An image of the app's own: a logo or a picture that shows.
      return '/favicon.svg';
    case 'uuid':
      return `00000000-0000-4000-8000-${String(index + 1).padStart(12, '0')}`;
  }
  const text = `Sample ${words(name) || 'text'}${suffix}`;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : Infinity;
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const fits = (candidate: string) => candidate.length <= max && candidate.length >= min && (typeof schema.pattern !== 'string' || new RegExp(schema.pattern, 'u').test(candidate));
  // A constrained text (a date, a phone, a ZIP code, a state) takes the first common shape its pattern allows.
  const named = NAMED_SHAPES.filter(([words]) => words.test(name)).map(([, shape]) => shape);
  const padded = text.padEnd(min, '0');
  return [...named, text, padded, ...SHAPES].find(fits) ?? padded.slice(0, Math.max(1, Math.min(max, padded.length)));
}

/** What a text of such a name looks like, when its schema allows it. */
const NAMED_SHAPES: ReadonlyArray<readonly [RegExp, string]> = [
  [/phone/i, '(555) 010-0101'],
  [/zip/i, '90210'],
  [/^state$/i, 'CA'],
  [/date/i, '03/16/2026'],
  [/date/i, SAMPLE_DAY],
];

/** Common shapes of constrained texts, tried in turn against a pattern. */
const SHAPES = ['Sample', 'sample', SAMPLE_DAY, '03/16/2026', '**/**/1980', '5550100101', '(555) 010-0101', '555-010-0101', '90210', '0101', 'CA', '0'.repeat(64), 'pages/sample.json', ''];

function sampleNumber(schema: Record<string, unknown>, integer: boolean, index: number): number {
  const min = typeof schema.minimum === 'number' ? schema.minimum : typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum + 1 : undefined;
  const max = typeof schema.maximum === 'number' ? schema.maximum : undefined;
  // Ids and amounts alike: distinct per entry, plausible as either.
  let value = integer ? FIRST_SAMPLE_ID + index : 1250 + 250 * index;
  if (min !== undefined && value < min) value = min + index;
  if (max !== undefined && value > max) value = max;
  return value;
}

const typesOf = (schema: Record<string, unknown>): string[] => (Array.isArray(schema.type) ? (schema.type as string[]) : typeof schema.type === 'string' ? [schema.type] : []);

/** A sample of `schema`; `name` is the property it fills (its words make the text), `index` its place in a list. */
export function sampleOf(schema: SchemaNode | undefined, resolve: Resolve, name = '', index = 0, depth = 0): unknown {
  if (schema === undefined || typeof schema === 'boolean') return schema === true ? sampleText({}, name, index) : null;
  if (depth > MAX_DEPTH) return null;
  const next = (node: unknown, key: string, at = index) => sampleOf(node as SchemaNode, resolve, key, at, depth + 1);
  if (typeof schema.$ref === 'string') return next(resolve(schema.$ref), name);
  if ('const' in schema) return schema.const;
  // The contract's own example, where a made-up value would mislead a page (a next route that is no route).
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[index % schema.examples.length];
  if (Array.isArray(schema.enum) && schema.enum.length > 0) {
    const values = schema.enum.filter((v) => v !== null);
    return values.length ? values[index % values.length] : null;
  }
  if (Array.isArray(schema.allOf)) {
    // Parts of one object merge; a part that is a text or a choice (a $ref beside a description) is the value.
    const fixed = schema.allOf.find((part): part is { const: unknown } => !!part && typeof part === 'object' && 'const' in part);
    if (fixed) return fixed.const;
    const parts = schema.allOf.map((part) => next(part, name));
    const objects = parts.filter((part) => part !== null && typeof part === 'object' && !Array.isArray(part));
    return objects.length === parts.length ? Object.assign({}, ...objects, objectOf(schema, next)) : parts.find((part) => part !== null);
  }
  for (const key of ['oneOf', 'anyOf'] as const) {
    const options = schema[key];
    if (Array.isArray(options)) {
      const chosen = options.find((o) => !(o && typeof o === 'object' && (o as Record<string, unknown>).type === 'null')) ?? options[0];
      return next(chosen, name);
    }
  }
  const types = typesOf(schema).filter((t) => t !== 'null');
  const type = types[0] ?? (schema.properties || schema.additionalProperties ? 'object' : schema.items ? 'array' : undefined);
  switch (type) {
    case 'object':
      return objectOf(schema, next);
    case 'array': {
      const length = Math.max(typeof schema.minItems === 'number' ? schema.minItems : 0, Math.min(LIST_LENGTH, typeof schema.maxItems === 'number' ? schema.maxItems : LIST_LENGTH));
      const items = Array.from({ length }, (_, at) => next(schema.items ?? {}, name, at));
      // Choices taken in turn come round again: a list of unique items keeps each once.
      return schema.uniqueItems ? [...new Map(items.map((item) => [JSON.stringify(item), item])).values()] : items;
    }
    case 'integer':
      return sampleNumber(schema, true, index);
    case 'number':
      return sampleNumber(schema, false, index);
    case 'boolean':
      return index % 2 === 0;
    case 'string':
      return sampleText(schema, name, index);
    default:
      return typesOf(schema).includes('null') ? null : sampleText(schema, name, index);
  }
}

function objectOf(schema: Record<string, unknown>, next: (node: unknown, key: string) => unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  for (const [key, node] of Object.entries(properties)) out[key] = next(node, key);
  // A map: one entry, under a key its names allow.
  if (!schema.properties && schema.additionalProperties && typeof schema.additionalProperties === 'object') {
    const names = schema.propertyNames && typeof schema.propertyNames === 'object' ? (schema.propertyNames as Record<string, unknown>) : {};
    out[sampleText(names, 'key', 0)] = next(schema.additionalProperties, 'value');
  }
  return out;
}
