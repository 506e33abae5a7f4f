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

export function metaValidator(schemaFile: string): ValidateFunction {
  if (!ajv) {
    ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: false });
    for (const file of readdirSync(META_DIR).filter((name) => name.endsWith('.schema.json'))) {
      const schema = JSON.parse(readFileSync(join(META_DIR, file), 'utf8')) as Record<string, unknown>;
      delete schema.$schema;
      ajv.addSchema(schema, META_ID + file);
    }
  }
  return ajv.getSchema(META_ID + schemaFile)!;
}

/** The first few errors of a failed validation, as one line. */
export function metaErrors(validate: ValidateFunction): string {
  return (validate.errors ?? []).slice(0, 5).map((e) => `#${shortPointer(e.instancePath)} ${e.message ?? ''}`).join('; ');
}
