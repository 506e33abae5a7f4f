/**
 * The schema files the generators and the descriptor check read besides the contract: the form models of
 * schemas/forms/ and the words of schemas/enums/ (decision 0147).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, type Json, type JsonObject } from './documents.ts';
import { componentName } from './bundle.ts';

/** schemas/forms/*.json by component name, file refs rewritten to contract component refs. */
export function formSchemaFiles(): Map<string, JsonObject> {
  const dir = join(ROOT, 'schemas', 'forms');
  const out = new Map<string, JsonObject>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) {
    const rewrite = (node: Json): Json => {
      if (Array.isArray(node)) return node.map(rewrite);
      if (!node || typeof node !== 'object') return node;
      const o: JsonObject = {};
      for (const [k, v] of Object.entries(node)) {
        if (k === '$schema') continue;
        o[k] = k === '$ref' && typeof v === 'string' && !v.startsWith('#') ? `#/components/schemas/${componentName(join(dir, v.split('#')[0]!))}` : rewrite(v);
      }
      return o;
    };
    out.set(componentName(file), rewrite(JSON.parse(readFileSync(join(dir, file), 'utf8')) as Json) as JsonObject);
  }
  return out;
}

/**
 * The `x-labels` of each enumeration schema (schemas/enums/), by component name: the words people see for its values;
 * and the words for one audience, `x-labels-<audience>` (the borrower's, decision 0190), as `<Name>-<audience>`.
 */
export function enumerationLabels(): Map<string, Record<string, string>> {
  const dir = join(ROOT, 'schemas', 'enums');
  const out = new Map<string, Record<string, string>>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) {
    const schema = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Record<string, unknown> & { enum?: unknown[] };
    for (const [keyword, labels] of Object.entries(schema)) {
      const audience = /^x-labels(?:-([a-z]+))?$/.exec(keyword);
      if (!audience) continue;
      const words = labels as Record<string, string>;
      const missing = (schema.enum ?? []).map(String).filter((value) => !(value in words));
      if (missing.length) throw new Error(`schemas/enums/${file}: ${keyword} lacks ${missing.join(', ')}`);
      out.set(audience[1] ? `${componentName(file)}-${audience[1]}` : componentName(file), words);
    }
  }
  return out;
}
