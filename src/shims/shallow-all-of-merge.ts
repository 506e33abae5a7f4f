/**
 * Stand-in for @rjsf/utils' allOf merger (built on @x0k/json-schema-merge): the schemas @rjsf renders have their
 * combinators removed at codegen time (validation runs on the full schema, precompiled), so an allOf only arrives
 * here from a hand-written schema. A shallow merge covers that: properties and required lists united (decision 0046).
 */
type Schema = Record<string, unknown>;

export default function shallowAllOfMerge(schema: Schema): Schema {
  const { allOf, ...rest } = schema;
  if (!Array.isArray(allOf)) return schema;
  const parts = [...(allOf as Schema[]), rest];
  const merged: Schema = Object.assign({}, ...parts);
  merged.properties = Object.assign({}, ...parts.map((p) => (p.properties as Schema | undefined) ?? {}));
  merged.required = [...new Set(parts.flatMap((p) => (p.required as string[] | undefined) ?? []))];
  return merged;
}
