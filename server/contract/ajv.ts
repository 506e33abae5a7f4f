import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { addKeywords } from './keywords.ts';
import { loadOpenApi, loadSchemaDocuments, type JsonObject } from './documents.ts';

export interface ContractAjvOptions {
  /** Query, path and header values arrive as strings and are coerced; bodies never are. */
  coerceTypes?: boolean;
  /** Needed to precompile standalone validators for the browser. */
  code?: { source?: boolean; esm?: boolean };
}

/** An Ajv (JSON Schema 2020-12) holding every schema file and the contract, by their ids. */
export function createContractAjv(options: ContractAjvOptions = {}): Ajv2020 {
  const ajv = new Ajv2020({
    allErrors: true,
    verbose: true,
    strict: true,
    strictTypes: false,
    strictRequired: false,
    removeAdditional: false,
    useDefaults: false,
    coerceTypes: options.coerceTypes ?? false,
    ...(options.code ? { code: options.code } : {}),
  });
  addFormats(ajv);
  addKeywords(ajv);
  for (const { id, schema } of loadSchemaDocuments()) ajv.addSchema(schema, id);
  const { id, document } = loadOpenApi();
  // The contract is not itself a schema: only its fragments are ever compiled, by JSON pointer.
  ajv.addSchema({ ...document, $schema: undefined } as JsonObject, id, undefined, false);
  return ajv;
}
