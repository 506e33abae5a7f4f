import type { ValidateFunction } from 'ajv/dist/2020.js';
import { createContractAjv, localize, nullableAsIf } from './ajv.ts';
import type { Json, JsonObject } from './documents.ts';
import { escapePointer, type Operation, type ParameterSpec } from './operations.ts';

export interface OperationValidators {
  params: ValidateFunction | undefined;
  query: ValidateFunction | undefined;
  headers: ValidateFunction | undefined;
  body: ValidateFunction | undefined;
  /** Body fields whose listed values mean "not given" (x-emptyValues): dropped before validation. */
  emptyValues: Array<{ path: string[]; values: Json[] }>;
  /** multipart/form-data calls: the JSON `model` part's validator and the file parts allowed. */
  multipart: { model: ValidateFunction; fileParts: Map<string, { maxItems: number }> } | undefined;
  /** status → validator of its JSON body. */
  responses: Map<number, ValidateFunction>;
}

const unescape = (s: string) => s.replace(/~1/g, '/').replace(/~0/g, '~');

/** The node at a JSON pointer of the bundled contract, taking local $refs (responses, parameters) on the way. */
export function contractNode(document: JsonObject, pointer: string): JsonObject | undefined {
  let node: Json = document;
  for (const part of pointer.slice(2).split('/')) {
    node = follow(document, node);
    if (!node || typeof node !== 'object' || Array.isArray(node)) return undefined;
    node = (node as JsonObject)[unescape(part)] ?? null;
  }
  const last = follow(document, node);
  return last && typeof last === 'object' && !Array.isArray(last) ? last : undefined;
}

function follow(document: JsonObject, node: Json): Json {
  let current = node;
  while (current && typeof current === 'object' && !Array.isArray(current) && typeof current.$ref === 'string' && /^#\/components\/(responses|parameters|requestBodies|headers)\//.test(current.$ref)) {
    current = contractNode(document, current.$ref) ?? null;
  }
  return current;
}

function parameterObject(document: JsonObject, op: Operation, where: ParameterSpec['in']): JsonObject | undefined {
  const list = op.parameters.filter((p) => p.in === where);
  if (list.length === 0 && where === 'header') return undefined;
  const key = (p: ParameterSpec) => (where === 'header' ? p.name.toLowerCase() : p.name);
  const properties: JsonObject = {};
  for (const p of list) properties[key(p)] = localize(p.schema);
  return {
    type: 'object',
    properties,
    required: list.filter((p) => p.required).map(key),
    // Unknown path and query parameters are refused like unknown body properties; headers are open.
    additionalProperties: where === 'header',
  };
}

/** Fields of a body schema (top level and nested objects) that declare x-emptyValues. */
function emptyValueFields(document: JsonObject, schema: JsonObject | undefined, path: string[] = [], seen = new Set<JsonObject>()): OperationValidators['emptyValues'] {
  if (!schema || seen.has(schema)) return [];
  seen.add(schema);
  const resolved = resolveSchema(document, schema);
  const found: OperationValidators['emptyValues'] = [];
  if (Array.isArray(resolved['x-emptyValues'])) found.push({ path, values: resolved['x-emptyValues'] });
  for (const part of [...((resolved.allOf ?? []) as JsonObject[])]) found.push(...emptyValueFields(document, part, path, seen));
  for (const [name, property] of Object.entries((resolved.properties ?? {}) as JsonObject)) {
    found.push(...emptyValueFields(document, property as JsonObject, [...path, name], seen));
  }
  return found;
}

function resolveSchema(document: JsonObject, schema: JsonObject): JsonObject {
  const ref = schema.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return schema;
  const target = contractNode(document, ref);
  return target ? { ...resolveSchema(document, target), ...Object.fromEntries(Object.entries(schema).filter(([k]) => k !== '$ref')) } : schema;
}

function multipartParts(ajv: ContractAjv, document: JsonObject, schema: JsonObject): NonNullable<OperationValidators['multipart']> {
  const properties = (schema.properties ?? {}) as Record<string, JsonObject>;
  const model = properties.model?.contentSchema as JsonObject | undefined;
  if (!model) throw new Error('a multipart body needs a `model` part with a contentSchema');
  const fileParts = new Map<string, { maxItems: number }>();
  for (const [name, part] of Object.entries(properties)) {
    if (name === 'model') continue;
    const resolved = resolveSchema(document, part);
    fileParts.set(name, { maxItems: resolved.type === 'array' ? Number(resolved.maxItems ?? 1) : 1 });
  }
  return { model: ajv.compile(localize(model) as JsonObject), fileParts };
}

/** The validators of the contract's operations, each operation's compiled when it is first asked for. */
export interface ContractValidators {
  get(operationId: string): OperationValidators | undefined;
}

/**
 * The request and response validators of every operation of the bundled contract. An operation's are compiled on its
 * first call (docs/decisions/0245): compiling all of them took 4–5 s of CPU at every start, most for operations a
 * process never serves; tests/unit/answer-check.test.ts compiles every one, so a schema ajv refuses still fails the
 * suite rather than a first call.
 */
export function compileValidators(bundled: JsonObject, operations: Operation[]): ContractValidators {
  let instances: { bodies: ContractAjv; strings: ContractAjv; answers: ContractAjv } | undefined;
  const byId = new Map(operations.map((op) => [op.operationId, op]));
  const compiled = new Map<string, OperationValidators>();
  return {
    get(operationId) {
      const op = byId.get(operationId);
      if (!op) return undefined;
      let own = compiled.get(operationId);
      if (!own) {
        instances ??= { bodies: createContractAjv(bundled), strings: createContractAjv(bundled, { coerceTypes: true }), answers: createContractAjv(bundled, { answers: true }) };
        compiled.set(operationId, (own = compileOperation(bundled, op, instances)));
      }
      return own;
    },
  };
}

type ContractAjv = ReturnType<typeof createContractAjv>;

function compileOperation(bundled: JsonObject, op: Operation, { bodies, strings, answers }: { bodies: ContractAjv; strings: ContractAjv; answers: ContractAjv }): OperationValidators {
  const compileParams = (where: ParameterSpec['in']) => {
    const schema = parameterObject(bundled, op, where);
    return schema ? strings.compile(schema) : undefined;
  };
  const bodySchema = contractNode(bundled, `${op.pointer}/requestBody/content/application~1json/schema`);
  const responses = new Map<number, ValidateFunction>();
  for (const [status, types] of op.responses) {
    const media = types.find((t) => t === 'application/json' || t === 'application/problem+json');
    if (!media) continue;
    const schema = contractNode(bundled, `${op.pointer}/responses/${status}/content/${escapePointer(media)}/schema`);
    if (schema) responses.set(status, answers.compile(nullableAsIf(localize(schema)) as JsonObject));
  }
  const multipartSchema = contractNode(bundled, `${op.pointer}/requestBody/content/multipart~1form-data/schema`);
  return {
    params: compileParams('path'),
    query: compileParams('query'),
    headers: compileParams('header'),
    body: bodySchema ? bodies.compile(localize(bodySchema) as JsonObject) : undefined,
    emptyValues: emptyValueFields(bundled, bodySchema),
    multipart: multipartSchema ? multipartParts(bodies, bundled, multipartSchema) : undefined,
    responses,
  };
}
