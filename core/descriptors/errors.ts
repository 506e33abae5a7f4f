/**
 * Validation errors of descriptor files as `screens/pages/home.json#/columns/3/format: must be one of …`.
 * Pure; works on ajv's error objects (precompiled validators in the build, the tests and the browser).
 */
import { patternRules } from '../../codegen/generated/pattern-rules.ts';

export interface SchemaError {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

const COMBINATORS = new Set(['anyOf', 'oneOf', 'if']);

/** A pattern of common.schema.json said in words (x-message): a product owner reads what it asks for, not the pattern. */
const PATTERN_WORDS = new Map<string, string>(Object.values(patternRules).map((rule) => [rule.pattern, rule.message]));

/** How much of a name or key of a descriptor a message quotes: enough to find it, and the message stays short (decision 0249). */
const QUOTED = 60;

/** Text of a descriptor as a message shows it: its first `length` characters, then '…' if there are more. */
export function shortened(text: string, length = QUOTED): string {
  return text.length <= length ? text : `${text.slice(0, length).replace(/[\ud800-\udbff]$/, '')}…`;
}

/** A name of a descriptor as a message quotes it: 'name', shortened. */
export const quoted = (name: unknown): string => `'${shortened(String(name))}'`;

/** A key as a segment of a JSON pointer (RFC 6901), shortened. */
export const pointerSegment = (key: string | number): string => shortened(String(key).replace(/~/g, '~0').replace(/\//g, '~1'));

/** A JSON pointer (ajv's instancePath) with each of its segments shortened. */
export const shortPointer = (pointer: string): string => pointer.split('/').map((segment) => shortened(segment)).join('/');

function pointerOf(error: SchemaError): string {
  const extra =
    error.keyword === 'additionalProperties' || error.keyword === 'unevaluatedProperties'
      ? (error.params.additionalProperty ?? error.params.unevaluatedProperty)
      : error.keyword === 'propertyNames' || error.params.propertyName !== undefined
        ? error.params.propertyName
        : undefined;
  return `#${shortPointer(error.instancePath)}${typeof extra === 'string' ? `/${pointerSegment(extra)}` : ''}`;
}

function messageOf(error: SchemaError): string {
  const params = error.params;
  switch (error.keyword) {
    case 'enum':
      return `must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'const':
      return `must be ${JSON.stringify(params.allowedValue)}`;
    case 'additionalProperties':
    case 'unevaluatedProperties':
      return 'is not an allowed property';
    case 'propertyNames':
      return 'is not an allowed name here';
    case 'pattern':
      return PATTERN_WORDS.get(String(params.pattern)) ?? (params.pattern === '\\S' ? 'must have a character other than spaces' : `must match the pattern ${String(params.pattern)}`);
    case 'required':
      return `must have the property ${quoted(params.missingProperty)}`;
    default:
      return error.message ?? `fails ${error.keyword}`;
  }
}

const under = (path: string, parent: string) => path === parent || path.startsWith(parent + '/');

/**
 * Keeps the errors that say most: drops combinator summaries when a branch says something more specific, and
 * type mismatches of failed alternatives when another error at the same place explains more.
 */
export function relevantErrors(errors: readonly SchemaError[]): SchemaError[] {
  const plain = errors.filter((e) => !COMBINATORS.has(e.keyword));
  const informative = plain.filter(
    (e) => e.keyword !== 'type' || !plain.some((o) => o !== e && o.keyword !== 'type' && under(o.instancePath, e.instancePath)),
  );
  // A name's own failure (its pattern) is told by the propertyNames error that names it.
  const named = informative.filter((e) => !(e.schemaPath.includes('/propertyNames/') && informative.some((o) => o.keyword === 'propertyNames' && o.instancePath === e.instancePath)));
  const kept = named.filter((e) => e.keyword !== 'propertyNames' || !named.some((o) => o !== e && o.instancePath === e.instancePath && o.params.propertyName === e.params.propertyName && o.keyword === 'enum'));
  const combinators = errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf');
  for (const c of combinators) if (!kept.some((e) => under(e.instancePath, c.instancePath))) kept.push(c);
  // Several failed alternatives at one place read as one line.
  const seen = new Set<string>();
  return kept.filter((e) => {
    const key = `${pointerOf(e)} ${e.keyword === 'type' ? 'type' : messageOf(e)}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export function describeErrors(file: string, errors: readonly SchemaError[]): string[] {
  const relevant = relevantErrors(errors);
  const types = new Map<string, string[]>();
  const lines: string[] = [];
  for (const e of relevant) {
    if (e.keyword === 'type') {
      const list = types.get(pointerOf(e)) ?? [];
      list.push(String(e.params.type));
      types.set(pointerOf(e), list);
      continue;
    }
    lines.push(`${file}${pointerOf(e)}: ${messageOf(e)}`);
  }
  for (const [pointer, expected] of types) lines.push(`${file}${pointer}: must be ${[...new Set(expected)].join(' or ')}`);
  return lines;
}
