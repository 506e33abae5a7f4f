import type { Json, JsonObject } from './documents.ts';

export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'patch';
const METHODS: HttpMethod[] = ['get', 'put', 'post', 'delete', 'patch'];

export type ScopeKind = 'office' | 'application' | 'file' | 'refund' | 'user' | 'webhook' | 'apiKey' | 'none';

/** The `x-access` extension of an operation (docs/decisions/0001-contract-conventions.md). */
export interface AccessRule {
  key?: boolean;
  anonymous?: boolean;
  user?: boolean;
  borrower?: boolean;
  /** An office's API key (X-Api-Key pk_…) may call it, on its own office's records (office or application scope). */
  partner?: boolean;
  office?: string[];
  /**
   * The office permission the operation needs (schemas/enums/office-permission.json, decision 0279): an office member
   * is admitted by holding it, and `office` lists the roles whose template gives it.
   */
  permission?: string;
  internal?: string[];
  scope?: { kind: ScopeKind; from?: string };
  /** Body-dependent narrowing: the first entry whose `when` holds replaces the keys it names. */
  narrow?: Array<{ when: { field: string; equals: Json } } & Omit<AccessRule, 'narrow'>>;
  /** A header carrying an HMAC signature that authenticates the call (lender callbacks). */
  signature?: string;
}

export interface ParameterSpec {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: JsonObject;
}

export interface Operation {
  operationId: string;
  method: HttpMethod;
  /** The path as the contract writes it, e.g. /api/App/GetApp/{id}/{refreshStatus}. */
  path: string;
  /** JSON pointer (escaped) of the operation object inside the contract. */
  pointer: string;
  parameters: ParameterSpec[];
  /** Media types of the request body, if any. */
  requestBodyTypes: string[];
  requestBodyRequired: boolean;
  /** multipart/form-data calls: the component name of the JSON `model` part's contentSchema. */
  multipartModel: string | undefined;
  /** status → media types declared for that status. */
  responses: Map<number, string[]>;
  access: AccessRule;
  /** `x-idempotent`: moves money, messages a person or asks lenders; refused without an Idempotency-Key. */
  idempotent: boolean;
  /**
   * `x-atomic` (decision 0294): an x-idempotent write whose every effect is written in its transaction and leaves the
   * database only after the commit, through the queue. Its key commits with it, so a call cut off before its commit can
   * be repeated with the same key. Every other write is so already.
   */
  atomic: boolean;
  /**
   * Changes something: any method but GET, unless `x-reads` says the operation only reads (the spec sends some reads as
   * PUT or POST). A write takes an Idempotency-Key, and only a write with one is retried (decision 0253).
   */
  write: boolean;
  /** `x-live` (decision 0267): what it answers changes with the office's events; an open page reads it again when one arrives. */
  live: boolean;
  /** `x-caller` (decision 0165): who calls an operation that no screen calls; undefined for the screens' own. */
  caller: OperationCaller | undefined;
  /**
   * `x-cache` (decision 0200): `revalidate`, a public read a browser may keep and revalidate by ETag; `immutable`, one
   * named by its content (a descriptor set, decision 0228), kept for a year.
   */
  cache: OperationCache | undefined;
}

/** machine: another system calls it; link: a browser opens an address the server handed out in another answer. */
const CALLERS = ['machine', 'link'] as const;
export type OperationCaller = (typeof CALLERS)[number];

const CACHES = ['revalidate', 'immutable'] as const;
export type OperationCache = (typeof CACHES)[number];

function cacheOf(op: JsonObject): OperationCache | undefined {
  const value = op['x-cache'];
  if (value === undefined) return undefined;
  if (!CACHES.includes(value as OperationCache)) throw new Error(`${String(op.operationId)}: x-cache must be ${CACHES.join(' or ')}, not ${JSON.stringify(value)}`);
  return value as OperationCache;
}

function callerOf(op: JsonObject): OperationCaller | undefined {
  const value = op['x-caller'];
  if (value === undefined) return undefined;
  // Only the documented values mean something: a misspelt one stops the contract from loading.
  if (!CALLERS.includes(value as OperationCaller)) throw new Error(`${String(op.operationId)}: x-caller must be one of ${CALLERS.join(', ')}, not ${JSON.stringify(value)}`);
  return value as OperationCaller;
}

export const escapePointer = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

function resolveLocal(document: JsonObject, value: Json): Json {
  if (value && typeof value === 'object' && !Array.isArray(value) && typeof value.$ref === 'string' && value.$ref.startsWith('#/')) {
    let node: Json = document;
    for (const part of value.$ref.slice(2).split('/')) {
      const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
      node = (node as JsonObject)[key] ?? null;
    }
    return resolveLocal(document, node);
  }
  return value;
}

/** The properties of the objects a schema describes, arrays looked through and `allOf` parts joined. */
function objectProperties(document: JsonObject, schema: Json): JsonObject | undefined {
  const node = resolveLocal(document, schema) as JsonObject | null;
  if (!node || typeof node !== 'object') return undefined;
  if (node.items) return objectProperties(document, node.items);
  const parts = [node.properties as JsonObject | undefined, ...((node.allOf ?? []) as Json[]).map((part) => objectProperties(document, part))];
  const joined = Object.assign({}, ...parts.filter(Boolean)) as JsonObject;
  return Object.keys(joined).length ? joined : undefined;
}

/**
 * The fields of the objects an operation's answer (200, JSON) holds at `path` — what a screen's rows may name. Arrays
 * are looked through: the kanban's answer is a list of lanes, and `['results']` names each lane's cards.
 */
export function answerFields(document: JsonObject, op: Pick<Operation, 'pointer'>, path: readonly string[]): ReadonlySet<string> | undefined {
  const answer = resolveLocal(document, { $ref: `${op.pointer}/responses/200/content/application~1json/schema` });
  let properties = objectProperties(document, answer);
  for (const name of path) properties = properties && objectProperties(document, properties[name] ?? null);
  return properties && new Set(Object.keys(properties));
}

/** The operations of the bundled contract (core/contract/bundle.ts). */
function multipartModelOf(document: JsonObject, body: JsonObject | null): string | undefined {
  const multipart = ((body?.content ?? {}) as JsonObject)['multipart/form-data'] as JsonObject | undefined;
  const schema = resolveLocal(document, multipart?.schema ?? null) as JsonObject | null;
  const model = ((schema?.properties ?? {}) as JsonObject).model as JsonObject | undefined;
  const ref = (model?.contentSchema as JsonObject | undefined)?.$ref;
  return typeof ref === 'string' ? /^#\/components\/schemas\/([^/]+)$/.exec(ref)?.[1] : undefined;
}

export function readOperations(document: JsonObject): Operation[] {
  const operations: Operation[] = [];
  const paths = (document.paths ?? {}) as JsonObject;
  for (const [path, item] of Object.entries(paths)) {
    const pathItem = item as JsonObject;
    const shared = (pathItem.parameters ?? []) as Json[];
    for (const method of METHODS) {
      const op = pathItem[method] as JsonObject | undefined;
      if (!op) continue;
      const parameters = [...shared, ...((op.parameters ?? []) as Json[])].map((p) => {
        const param = resolveLocal(document, p) as JsonObject;
        return {
          name: String(param.name),
          in: param.in as ParameterSpec['in'],
          required: param.in === 'path' || param.required === true,
          schema: (param.schema ?? {}) as JsonObject,
        };
      });
      const body = resolveLocal(document, op.requestBody ?? null) as JsonObject | null;
      const responses = new Map<number, string[]>();
      for (const [status, response] of Object.entries((op.responses ?? {}) as JsonObject)) {
        const resolved = resolveLocal(document, response) as JsonObject;
        responses.set(Number(status), Object.keys((resolved.content ?? {}) as JsonObject));
      }
      operations.push({
        operationId: String(op.operationId),
        method,
        path,
        pointer: `#/paths/${escapePointer(path)}/${method}`,
        parameters,
        requestBodyTypes: body ? Object.keys((body.content ?? {}) as JsonObject) : [],
        requestBodyRequired: body?.required === true,
        multipartModel: multipartModelOf(document, body),
        responses,
        access: (op['x-access'] ?? {}) as AccessRule,
        idempotent: op['x-idempotent'] === true,
        atomic: op['x-idempotent'] !== true || op['x-atomic'] === true,
        write: method !== 'get' && op['x-reads'] !== true,
        live: op['x-live'] === true,
        caller: callerOf(op),
        cache: cacheOf(op),
      });
    }
  }
  return operations;
}
