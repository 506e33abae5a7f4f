import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { loadOpenApi, OPENAPI_FILE, ROOT, type Json, type JsonObject } from './documents.ts';

/** schemas/entities/office-user.json → OfficeUser */
export function componentName(file: string): string {
  return basename(file, '.json')
    .split(/[-_.]/)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');
}

/**
 * The contract as one self-contained document: every schema file it reaches becomes a named entry of
 * components/schemas and every file $ref points there. Generators and the reference page read this.
 */
export function bundleOpenApi(file = OPENAPI_FILE): JsonObject {
  const { document } = loadOpenApi(file);
  const bundled = structuredClone(document);
  const own = ((bundled.components ?? {}) as JsonObject).schemas as JsonObject | undefined;
  const fromFiles: JsonObject = {};
  const byFile = new Map<string, string>();
  const pending: string[] = [];

  const nameFor = (target: string): string => {
    const known = byFile.get(target);
    if (known) return known;
    if (!existsSync(target)) throw new Error(`$ref to a missing file: ${target.slice(ROOT.length + 1)}`);
    const name = componentName(target);
    if (name in fromFiles || (own && name in own)) throw new Error(`two schemas would both be named ${name} (${target.slice(ROOT.length + 1)})`);
    byFile.set(target, name);
    fromFiles[name] = {};
    pending.push(target);
    return name;
  };

  /** Rewrites $refs of a node found in `from` (a file), where `self` is its own component pointer. */
  const rewrite = (node: Json, from: string, self: string | undefined): Json => {
    if (Array.isArray(node)) return node.map((n) => rewrite(n, from, self));
    if (!node || typeof node !== 'object') return node;
    const out: JsonObject = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') {
        const [path, fragment = ''] = value.split('#');
        if (!path) out.$ref = self ? `${self}${fragment}` : value;
        else out.$ref = `#/components/schemas/${nameFor(resolve(dirname(from), path))}${fragment}`;
      } else if (key === '$schema' && self) {
        continue;
      } else {
        out[key] = rewrite(value, from, self);
      }
    }
    return out;
  };

  for (const [key, value] of Object.entries(bundled)) bundled[key] = rewrite(value, file, undefined);
  while (pending.length) {
    const target = pending.shift()!;
    const name = byFile.get(target)!;
    fromFiles[name] = rewrite(JSON.parse(readFileSync(target, 'utf8')) as Json, target, `#/components/schemas/${name}`);
  }
  const components = (bundled.components ??= {}) as JsonObject;
  components.schemas = { ...((components.schemas ?? {}) as JsonObject), ...fromFiles };
  return bundled;
}
