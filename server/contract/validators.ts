import type { ValidateFunction } from 'ajv/dist/2020.js';
import { createContractAjv } from './ajv.ts';
import { loadOpenApi, type Json, type JsonObject } from './documents.ts';
import type { Operation, ParameterSpec } from './operations.ts';

export interface OperationValidators {
  params: ValidateFunction | undefined;
  query: ValidateFunction | undefined;
  headers: ValidateFunction | undefined;
  body: ValidateFunction | undefined;
  /** status → validator of its JSON body. */
  responses: Map<number, ValidateFunction>;
}

const unescape = (s: string) => s.replace(/~1/g, '/').replace(/~0/g, '~');
const escape = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

/** Follows a JSON pointer through the contract, taking local $refs on the way; returns the pointer reached. */
function settle(document: JsonObject, pointer: string): string | undefined {
  let node: Json = document;
  let at = '#';
  for (const part of pointer.slice(2).split('/')) {
    while (node && typeof node === 'object' && !Array.isArray(node) && typeof node.$ref === 'string' && node.$ref.startsWith('#/')) {
      at = node.$ref;
      node = resolvePointer(document, at);
    }
    if (!node || typeof node !== 'object' || Array.isArray(node)) return undefined;
    const key = unescape(part);
    if (!(key in node)) return undefined;
    node = (node as JsonObject)[key] ?? null;
    at = `${at}/${escape(key)}`;
  }
  return at;
}

function resolvePointer(document: JsonObject, pointer: string): Json {
  let node: Json = document;
  for (const part of pointer.slice(2).split('/')) node = (node as JsonObject | null)?.[unescape(part)] ?? null;
  return node;
}

function parameterObject(contractId: string, document: JsonObject, op: Operation, where: ParameterSpec['in']): JsonObject | undefined {
  const list = op.parameters.filter((p) => p.in === where);
  if (list.length === 0 && where === 'header') return undefined;
  const properties: JsonObject = {};
  op.parameters.forEach((p, index) => {
    if (p.in !== where) return;
    // Reference the parameter's own schema so that its $refs resolve against the contract.
    const pointer = settle(document, `${op.pointer}/parameters/${index}/schema`) ?? settle(document, `${pathItemPointer(op)}/parameters/${index}/schema`);
    const name = where === 'header' ? p.name.toLowerCase() : p.name;
    properties[name] = pointer ? { $ref: `${contractId}${pointer}` } : p.schema;
  });
  return {
    type: 'object',
    properties,
    required: list.filter((p) => p.required).map((p) => (where === 'header' ? p.name.toLowerCase() : p.name)),
    // Unknown path and query parameters are refused like unknown body properties; headers are open.
    additionalProperties: where === 'header',
  };
}

function pathItemPointer(op: Operation): string {
  return op.pointer.slice(0, op.pointer.lastIndexOf('/'));
}

/** Compiles the request and response validators of every operation from one Ajv holding the contract. */
export function compileValidators(operations: Operation[]): Map<string, OperationValidators> {
  const { id, document } = loadOpenApi();
  const bodies = createContractAjv();
  const strings = createContractAjv({ coerceTypes: true });
  const result = new Map<string, OperationValidators>();
  for (const op of operations) {
    const compileParams = (where: ParameterSpec['in']) => {
      const schema = parameterObject(id, document, op, where);
      return schema ? strings.compile(schema) : undefined;
    };
    const bodyPointer = settle(document, `${op.pointer}/requestBody/content/application~1json/schema`);
    const responses = new Map<number, ValidateFunction>();
    for (const [status, types] of op.responses) {
      const media = types.find((t) => t === 'application/json' || t === 'application/problem+json');
      if (!media) continue;
      const pointer = settle(document, `${op.pointer}/responses/${status}/content/${escape(media)}/schema`);
      if (pointer) responses.set(status, bodies.compile({ $ref: `${id}${pointer}` }));
    }
    result.set(op.operationId, {
      params: compileParams('path'),
      query: compileParams('query'),
      headers: compileParams('header'),
      body: bodyPointer ? bodies.compile({ $ref: `${id}${bodyPointer}` }) : undefined,
      responses,
    });
  }
  return result;
}
