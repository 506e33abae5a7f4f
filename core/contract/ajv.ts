import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { addKeywords } from './keywords.ts';
import type { Json, JsonObject } from './documents.ts';

export interface ContractAjvOptions {
  /** Query, path and header values arrive as strings and are coerced; bodies never are. */
  coerceTypes?: boolean;
  /** Needed to precompile standalone validators for the browser. */
  code?: { source?: boolean; esm?: boolean };
  /**
   * For the server's own answers: a date or time is checked by its shape (ajv-formats' fast mode), not its calendar,
   * and the first broken rule is enough. The check fails closed against a field or shape the contract does not allow;
   * the server's dates come from Date, and a request's dates keep the full check.
   */
  answers?: boolean;
}

/** Each bundled component schema is added to ajv under this base + its name. */
export const COMPONENT_BASE = 'https://pos.local/components/';

/** Points `#/components/schemas/X…` refs of the bundled contract at the component's own ajv id. */
export function localize(node: Json): Json {
  if (Array.isArray(node)) return node.map(localize);
  if (!node || typeof node !== 'object') return node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    const match = key === '$ref' && typeof value === 'string' ? /^#\/components\/schemas\/([^/]+)(.*)$/.exec(value) : null;
    out[key] = match ? `${COMPONENT_BASE}${match[1]}#${match[2]}` : localize(value);
  }
  return out;
}

const isNull = (node: Json): boolean => !!node && typeof node === 'object' && !Array.isArray(node) && node.type === 'null' && Object.keys(node).length === 1;

/**
 * For the server's own answers: `anyOf: [X, {type: 'null'}]` (a nullable field) becomes `if: {type: 'null'}, else: X`,
 * which accepts exactly the same values. ajv records the failing branch's error for every value an anyOf lets through
 * (the null branch for each filled field, the other for each empty one) and then drops it; `if` is checked without
 * errors. For a page of 25 applications that was 18 KB of garbage per answer, as much as the answer's JSON text.
 */
export function nullableAsIf(node: Json): Json {
  if (Array.isArray(node)) return node.map(nullableAsIf);
  if (!node || typeof node !== 'object') return node;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) out[key] = nullableAsIf(value);
  const branches = out.anyOf;
  if (Array.isArray(branches) && branches.length === 2 && out.if === undefined && out.else === undefined) {
    const other = branches.find((branch) => !isNull(branch));
    if (other !== undefined && branches.some(isNull)) {
      delete out.anyOf;
      Object.assign(out, { if: { type: 'null' }, else: other });
    }
  }
  return out;
}

/** An Ajv (JSON Schema 2020-12, strict) holding every component schema of the bundled contract. */
export function createContractAjv(bundled: JsonObject, options: ContractAjvOptions = {}): Ajv2020 {
  const ajv = new Ajv2020({
    allErrors: !options.answers,
    verbose: !options.answers,
    strict: true,
    strictTypes: false,
    strictRequired: false,
    removeAdditional: false,
    useDefaults: false,
    coerceTypes: options.coerceTypes ?? false,
    ...(options.code ? { code: options.code } : {}),
  });
  addFormats(ajv, { mode: options.answers ? 'fast' : 'full' });
  addKeywords(ajv);
  const schemas = ((bundled.components as JsonObject | undefined)?.schemas ?? {}) as JsonObject;
  const prepare = options.answers ? (schema: Json) => nullableAsIf(localize(schema)) : localize;
  for (const [name, schema] of Object.entries(schemas)) ajv.addSchema(prepare(schema) as JsonObject, `${COMPONENT_BASE}${name}`);
  return ajv;
}
