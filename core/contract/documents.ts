import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { filesUnder } from '../files.ts';
import { REQUIRED_MESSAGES, type MessageCatalogue } from '../messages.ts';

/** Repository root: the contract and schema files are read relative to it. */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * Every schema file gets the id `https://pos.local/<path from the root>` (files carry none), so that
 * relative `$ref`s resolve the same way by id (ajv) as by file path (the generators).
 */
export const ID_BASE = 'https://pos.local/';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export interface SchemaDocument {
  id: string;
  file: string;
  schema: JsonObject;
}

export function idOf(file: string): string {
  return ID_BASE + relative(ROOT, file).split(sep).join('/');
}

/** The message catalogue lives beside the schemas but is not one. */
export const MESSAGES_FILE = join(ROOT, 'schemas', 'messages.json');

export function loadSchemaDocuments(dir = join(ROOT, 'schemas')): SchemaDocument[] {
  return filesUnder(dir, /\.json$/)
    .filter((file) => file !== MESSAGES_FILE)
    .sort()
    .map((file) => {
      let schema: JsonObject;
      try {
        schema = JSON.parse(readFileSync(file, 'utf8')) as JsonObject;
      } catch (error) {
        throw new Error(`${relative(ROOT, file)}: not valid JSON (${(error as Error).message})`);
      }
      return { id: idOf(file), file, schema };
    });
}

export const OPENAPI_FILE = join(ROOT, 'openapi', 'openapi.yaml');

export function loadOpenApi(file = OPENAPI_FILE): { id: string; document: JsonObject } {
  return { id: idOf(file), document: parse(readFileSync(file, 'utf8')) as JsonObject };
}

export function loadMessageCatalogue(file = MESSAGES_FILE): MessageCatalogue {
  const catalogue = JSON.parse(readFileSync(file, 'utf8')) as MessageCatalogue;
  const missing = REQUIRED_MESSAGES.filter((key) => typeof catalogue.messages?.[key] !== 'string');
  if (missing.length) throw new Error(`${relative(ROOT, file)}: missing messages ${missing.join(', ')}`);
  return catalogue;
}
