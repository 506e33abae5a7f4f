import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { ROOT } from '../contract/documents.ts';
import { shortPointer } from './errors.ts';

/**
 * The meta-schemas of screens/_meta/, compiled once, for the descriptor files the server reads itself
 * (lenders, brands). The build checks every descriptor too; the server checks again because LENDERS_DIR
 * may point at files the build never saw, and a bad file must stop the start with its name.
 */
const META_DIR = join(ROOT, 'screens', '_meta');
const META_ID = 'https://pos.local/screens/_meta/';

let ajv: Ajv2020 | undefined;
/** Where texts marked x-text go while textsAt validates a document: by JSON pointer. */
let sink: Map<string, string[]> | undefined;

/** The strings an expression at a text position can show: literals in result places, not names it reads or compares. */
export function shownStrings(expression: unknown): string[] {
  if (typeof expression === 'string') return expression ? [expression] : [];
  if (Array.isArray(expression)) return expression.flatMap(shownStrings);
  if (!expression || typeof expression !== 'object') return [];
  const [[operator, args]] = Object.entries(expression) as [[string, unknown]];
  const list = Array.isArray(args) ? args : [args];
  if (operator === 'if') return list.filter((_, i) => i % 2 === 1 || (i === list.length - 1 && list.length % 2 === 1)).flatMap(shownStrings);
  if (operator === 'or' || operator === 'and') return list.flatMap(shownStrings);
  return [];
}

function metaAjv(): Ajv2020 {
  if (!ajv) {
    ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: false });
    ajv.addKeyword({
      keyword: 'x-text',
      schemaType: 'boolean',
      validate: (marked: boolean, data: unknown, _schema?: unknown, where?: { instancePath: string }) => {
        const shown = marked && sink ? shownStrings(data) : [];
        if (shown.length) sink!.set(where?.instancePath ?? '', shown);
        return true;
      },
    });
    for (const file of readdirSync(META_DIR).filter((name) => name.endsWith('.schema.json'))) {
      const schema = JSON.parse(readFileSync(join(META_DIR, file), 'utf8')) as Record<string, unknown>;
      delete schema.$schema;
      ajv.addSchema(schema, META_ID + file);
    }
  }
  return ajv;
}

export const metaValidator = (schemaFile: string): ValidateFunction => metaAjv().getSchema(META_ID + schemaFile)!;

/**
 * The texts people read in a descriptor (decision 0216), by JSON pointer: every place its meta-schema (`schemaRef`,
 * 'screen.schema.json#/$defs/form') marks x-text, with the strings it can show.
 */
export function textsAt(doc: unknown, schemaRef: string): Map<string, string[]> {
  const validate = metaAjv().getSchema(META_ID + schemaRef)!;
  sink = new Map();
  try {
    validate(doc);
    return sink;
  } finally {
    sink = undefined;
  }
}

/** The first few errors of a failed validation, as one line. */
export function metaErrors(validate: ValidateFunction): string {
  return (validate.errors ?? []).slice(0, 5).map((e) => `#${shortPointer(e.instancePath)} ${e.message ?? ''}`).join('; ');
}
