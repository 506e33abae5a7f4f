import type { Json, JsonObject } from '../../core/contract/documents.ts';

/**
 * Reading the bundled contract's schemas in tests that generate requests from them (the access matrix, the fuzzer):
 * `deref` follows `$ref`s to components (and local pointers such as `#/components/requestBodies/…`), keeping the
 * keywords written beside the `$ref`; `propertiesOf` gathers an object schema's properties with those its allOf,
 * anyOf/oneOf and then/else parts add.
 */
export function contractSchemas(contract: JsonObject) {
  const schemas = ((contract.components as JsonObject).schemas ?? {}) as JsonObject;
  const pointer = (ref: string): JsonObject => {
    let node: Json = contract;
    for (const part of ref.slice(2).split('/')) node = (node as JsonObject)[part.replace(/~1/g, '/').replace(/~0/g, '~')] ?? null;
    return node as JsonObject;
  };
  const deref = (node: Json): JsonObject => {
    let current = node as JsonObject;
    for (let i = 0; i < 20 && current && typeof current.$ref === 'string'; i++) {
      const ref = current.$ref as string;
      const name = /^(?:#\/components\/schemas\/|https:\/\/pos\.local\/components\/)([^#/]+)#?$/.exec(ref)?.[1];
      if (!name && !ref.startsWith('#/')) throw new Error(`unexpected $ref ${ref}`);
      current = { ...(name ? (schemas[name] as JsonObject) : pointer(ref)), ...Object.fromEntries(Object.entries(current).filter(([k]) => k !== '$ref')) };
    }
    return current;
  };
  const propertiesOf = (schema: JsonObject): JsonObject => {
    const parts = [schema, ...(['allOf', 'anyOf', 'oneOf'] as const).flatMap((key) => (schema[key] as Json[] | undefined) ?? []), schema.then, schema.else];
    return Object.assign({}, ...parts.filter((part): part is Json => part !== undefined).map((part) => ((deref(part).properties ?? {}) as JsonObject)));
  };
  return { deref, propertiesOf };
}
