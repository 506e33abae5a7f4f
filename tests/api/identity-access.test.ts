import { randomBytes, randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { bundleOpenApi } from '../../core/contract/bundle.ts';
import type { Json, JsonObject } from '../../core/contract/documents.ts';
import { readOperations, type AccessRule, type Operation } from '../../core/contract/operations.ts';
import { compileValidators } from '../../core/contract/validators.ts';
import { apiKeys, applications, files, offices, refunds, userOffices, users, webhookEndpoints } from '../../server/db/schema.ts';
import { keyHash } from '../../server/http/partner-keys.ts';
import { PENDING } from '../../server/domain/pending.ts';
import { harness, type Harness } from '../support/harness.ts';
import { SAMPLE, uploadBody } from '../support/multipart.ts';
import { PRODUCT_OWNER } from '../support/demo-accounts.ts';
import { contractSchemas } from './contract-schemas.ts';

/**
 * Generated from openapi.yaml: every operation is called by every kind of caller — anonymous, the
 * borrower of application A, the borrower of B, each demo account, a user of each role in the target
 * office X and the admin of another office Y — with a request that passes the contract's validation
 * and names records of office X. The expected outcome comes from the operation's x-access rule alone:
 * a refused caller gets 401, 403 or 404 (never a success, and for another office's user a 404 plus a
 * security event); an allowed caller is never refused by the access layer, and a pending operation
 * answers it 501 (the access check runs before the handler).
 */

const contract = bundleOpenApi();
const operations = readOperations(contract);
const validators = compileValidators(contract, operations);
const { deref } = contractSchemas(contract);
const ACCESS_NOT_FOUND = 'The record could not be found.';

type Caller =
  | { name: string; kind: 'anonymous' }
  | { name: string; kind: 'borrower'; appId: () => number }
  /** An office's API key (decision 0268): office X's, or office Y's. */
  | { name: string; kind: 'partner'; key: () => string; ofX: boolean }
  | {
      name: string;
      kind: 'staff';
      email: string;
      userRole: string | null;
      roleInX: string | null;
      /** The role held in an office other than X. */
      roleElsewhere: string | null;
    };

interface Target {
  officeId: number;
  appA: number;
  appB: number;
  fileId: string;
  refundId: number;
  webhookEndpointId: number;
  apiKeyId: number;
  /** A user of office X whose own-record calls others must not reach. */
  victimId: string;
  tag: string;
}

// ---- request generation from the contract's schemas ---------------------------------------------

/** Values that satisfy the contract's patterns (masks, dates, codes); the first one that matches is used. */
const PATTERN_SAMPLES = [
  '(512) 555-0100', '12/31/2030', '78701', '900-12-3456', '12-3456789', '110000000', '000123456789', 'Alex',
  'abc_123', '2030-12-31', 'TX', `sha256=${'0'.repeat(64)}`, 'idem-key-0123456789', '123456', '1234', 'ally', 'Example text', 'x',
  '0123456789abcdef', 'pages/error.json',
];
/** Fields whose value the pattern alone does not settle (an age rule, a past date). */
const BY_NAME: Record<string, string> = { dob: '04/12/1975', dateOfBirth: '04/12/1975', ssn: '900-12-3456' };

function sampleString(schema: JsonObject, name: string, target: Target): string {
  if (BY_NAME[name]) return BY_NAME[name]!;
  if (schema.format === 'email') return `matrix-${target.tag}@example.test`;
  if (schema.format === 'uuid') return name === 'userId' ? target.victimId : name === 'id' ? target.fileId : randomUUID();
  if (schema.format === 'date-time') return new Date().toISOString();
  if (schema.format === 'date') return '2030-12-31';
  if (schema.format === 'uri') return 'https://example.test/';
  if (typeof schema.pattern === 'string') {
    const pattern = new RegExp(schema.pattern, 'u');
    const fit = PATTERN_SAMPLES.find((value) => pattern.test(value) && value.length >= Number(schema.minLength ?? 0) && value.length <= Number(schema.maxLength ?? 1e9));
    if (!fit) throw new Error(`no sample for pattern ${schema.pattern} (${name})`);
    return fit;
  }
  const min = Number(schema.minLength ?? 1);
  return 'Sample text value'.padEnd(min, 'x').slice(0, Math.max(min, Math.min(Number(schema.maxLength ?? 17), 17)));
}

/** The first alternative of an anyOf/oneOf made only of `required` lists (e.g. a phone or an e-mail). */
const firstRequired = (schema: JsonObject): string[] => {
  const options = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  const first = options ? deref(options[0]!) : undefined;
  return first && !first.type && !first.properties && Array.isArray(first.required) ? (first.required as string[]) : [];
};

/** Required properties of an object schema, including those its allOf, anyOf/oneOf and then parts add. */
function requiredOf(schema: JsonObject): string[] {
  const required = [...((schema.required as string[] | undefined) ?? []), ...firstRequired(schema)];
  for (const part of (schema.allOf as Json[] | undefined) ?? []) {
    const resolved = deref(part);
    required.push(...((resolved.required as string[] | undefined) ?? []), ...firstRequired(resolved));
    // A part's if/then (start-app: a phone for texts, an address for e-mail): what any branch needs is given.
    if (resolved.then) required.push(...((deref(resolved.then).required as string[] | undefined) ?? []));
  }
  if (schema.then) required.push(...((deref(schema.then).required as string[] | undefined) ?? []));
  return [...new Set(required)];
}

function sample(node: Json, name: string, target: Target, depth = 0): Json {
  if (depth > 12) throw new Error(`schema too deep at ${name}`);
  const schema = deref(node);
  if ('const' in schema) return schema.const as Json;
  if (Array.isArray(schema.enum)) return schema.enum[0] as Json;
  if (schema.type === 'object' && schema.properties) {
    const properties = schema.properties as JsonObject;
    const out: JsonObject = {};
    for (const key of requiredOf(schema)) out[key] = sample(properties[key] ?? {}, key, target, depth + 1);
    return out;
  }
  if (Array.isArray(schema.allOf)) {
    const merged = schema.allOf.map((part) => deref(part));
    const objects = merged.filter((part) => part.type === 'object' || part.properties);
    if (objects.length) {
      return Object.assign({}, ...objects.map((part) => sample(part, name, target, depth + 1))) as Json;
    }
    return sample(merged[0]!, name, target, depth + 1);
  }
  for (const key of ['oneOf', 'anyOf'] as const) {
    if (Array.isArray(schema[key])) {
      const options = (schema[key] as Json[]).map(deref);
      const base = Object.fromEntries(Object.entries(schema).filter(([k]) => k !== key)) as JsonObject;
      const first = options.find((option) => option.type !== 'null') ?? options[0]!;
      // A oneOf of required-lists only (otp-send): the first alternative's requirements join the base.
      if (base.type === 'object' || base.properties) {
        return sample({ ...base, required: [...((base.required as string[]) ?? []), ...((first.required as string[]) ?? [])] }, name, target, depth + 1);
      }
      return sample(first, name, target, depth + 1);
    }
  }
  const type = Array.isArray(schema.type) ? (schema.type.find((t) => t !== 'null') as string) : (schema.type as string | undefined);
  switch (type) {
    case 'object':
    case undefined: {
      if (!schema.properties && type === undefined) return 'x';
      const properties = (schema.properties ?? {}) as JsonObject;
      const out: JsonObject = {};
      for (const key of (schema.required as string[] | undefined) ?? []) out[key] = sample(properties[key] ?? {}, key, target, depth + 1);
      // A map that must hold entries (a studio draft's files): one, named after its propertyNames.
      if (Number(schema.minProperties ?? 0) > Object.keys(out).length && schema.propertyNames && schema.additionalProperties) {
        out[sampleString(deref(schema.propertyNames), name, target)] = sample(schema.additionalProperties as Json, name, target, depth + 1);
      }
      return out;
    }
    case 'array': {
      const count = Math.max(1, Number(schema.minItems ?? 1));
      const items = Array.from({ length: count }, () => sample((schema.items ?? {}) as Json, name, target, depth + 1));
      // x-sum (owners' ownership must total 100): one item carries the whole total.
      const sum = schema['x-sum'] as { property: string; equals: number } | undefined;
      if (sum && items[0] && typeof items[0] === 'object') (items[0] as JsonObject)[sum.property] = sum.equals;
      return items;
    }
    case 'integer':
    case 'number': {
      if (/officeId$/i.test(name)) return target.officeId;
      if (/^appId$/i.test(name)) return target.appA;
      const min = typeof schema.minimum === 'number' ? schema.minimum : typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum + 1 : 1;
      const value = Math.max(min, 1);
      return typeof schema.maximum === 'number' ? Math.min(value, schema.maximum) : value === 1 && type === 'number' ? 100 : value;
    }
    case 'boolean':
      return false;
    case 'string':
      return sampleString(schema, name, target);
    case 'null':
      return null;
    default:
      throw new Error(`unknown type ${String(type)} at ${name}`);
  }
}

function scopeValue(kind: string, target: Target): Json | undefined {
  return { office: target.officeId, application: target.appA, file: target.fileId, refund: target.refundId, user: target.victimId, webhook: target.webhookEndpointId, apiKey: target.apiKeyId }[kind];
}

function setAt(holder: JsonObject, path: string[], value: Json): void {
  let node = holder;
  for (const part of path.slice(0, -1)) node = (node[part] ??= {}) as JsonObject;
  const last = path[path.length - 1]!;
  node[last] = Array.isArray(node[last]) ? [value] : value;
}

interface Generated {
  request: InjectOptions & { url: string };
  body: JsonObject | undefined;
}

function generate(op: Operation, target: Target): Generated {
  const own = validators.get(op.operationId)!;
  const params: JsonObject = {};
  const query: JsonObject = {};
  const headers: Record<string, string> = {};
  for (const parameter of op.parameters) {
    if (!parameter.required && parameter.in !== 'path') continue;
    const value = sample(parameter.schema, parameter.name, target);
    if (parameter.in === 'path') params[parameter.name] = value;
    else if (parameter.in === 'query') query[parameter.name] = value;
    else headers[parameter.name.toLowerCase()] = String(value);
  }
  let body: JsonObject | undefined;
  const bodySchema = ((((contract.paths as JsonObject)[op.path] as JsonObject)[op.method] as JsonObject).requestBody as JsonObject | undefined)?.content as JsonObject | undefined;
  if (op.multipartModel) body = sample({ $ref: `#/components/schemas/${op.multipartModel}` }, 'model', target) as JsonObject;
  else if (bodySchema?.['application/json']) body = sample((bodySchema['application/json'] as JsonObject).schema!, 'body', target) as JsonObject;

  const scope = op.access.scope;
  if (scope?.from) {
    const [where, ...path] = scope.from.split('.');
    const value = scopeValue(scope.kind, target)!;
    if (where === 'path') params[path[0]!] = value;
    else if (where === 'query') query[path[0]!] = value;
    else if (body) setAt(body, path[0] === 'model' ? path.slice(1) : path, value);
  }
  // Coherent records: whatever names an office or application names X and A.
  if (body && 'officeId' in body && scope?.kind !== 'office') body.officeId = target.officeId;

  const check = (validate: ValidateFunction | undefined, value: unknown, what: string) => {
    if (validate && !validate(value)) throw new Error(`${op.operationId}: generated ${what} is not valid: ${JSON.stringify(validate.errors)} ${JSON.stringify(value)}`);
  };
  check(own.params, params, 'path');
  check(own.query, query, 'query');
  check(own.headers, headers, 'headers');
  if (own.multipart) check(own.multipart.model, body, 'model');
  else check(own.body, body, 'body');

  const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(params[name])));
  const search = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();
  const url = `${path}${search ? `?${search}` : ''}`;
  const method = op.method.toUpperCase() as 'GET';
  if (op.multipartModel) {
    const multipart = uploadBody(body!, []);
    return { body, request: { method, url, payload: multipart.payload, headers: { ...headers, ...multipart.headers } } };
  }
  return { body, request: { method, url, headers, ...(body === undefined ? {} : { payload: body }) } };
}

// ---- the oracle: what x-access allows ---------------------------------------------------------

function effective(rule: AccessRule, body: JsonObject | undefined): AccessRule {
  const entry = rule.narrow?.find(({ when }) => {
    const [where, ...path] = when.field.split('.');
    let value: Json | undefined = where === 'body' ? (body ?? null) : null;
    for (const part of path) value = value && typeof value === 'object' && !Array.isArray(value) ? (value as JsonObject)[part] : undefined;
    return value === when.equals;
  });
  if (!entry) return rule;
  const { when: _when, ...replacement } = entry;
  return { ...rule, ...replacement };
}

function allowed(rule: AccessRule, caller: Caller, target: Target, staffIds: Map<string, string>): boolean {
  if (rule.anonymous) return true;
  const kind = rule.scope?.kind ?? 'none';
  if (caller.kind === 'anonymous') return false;
  if (caller.kind === 'borrower') return Boolean(rule.borrower) && kind === 'application' && caller.appId() === target.appA;
  if (caller.kind === 'partner') return Boolean(rule.partner) && (kind === 'office' || kind === 'application') && caller.ofX;
  if (caller.userRole && rule.internal?.includes(caller.userRole)) return true;
  if (rule.user && (kind === 'none' || (kind === 'user' && staffIds.get(caller.email) === target.victimId))) return true;
  if (!rule.office?.length) return false;
  if (kind === 'none') return caller.roleInX !== null ? rule.office.includes(caller.roleInX) : false;
  return caller.roleInX !== null && rule.office.includes(caller.roleInX);
}

/**
 * Whether the rule, or one of its x-access.narrow variants (which the body chooses), may admit the caller whatever the
 * input; on an office's record the record decides (403 or 404). What it never admits is refused before the body is read.
 */
function mayAdmit(rule: AccessRule, caller: Caller): boolean {
  const variants = [rule, ...(rule.narrow ?? []).map(({ when: _when, ...replacement }) => ({ ...rule, ...replacement }))];
  return variants.some((variant) => {
    const kind = variant.scope?.kind ?? 'none';
    if (variant.anonymous) return true;
    if (caller.kind === 'anonymous') return false;
    if (caller.kind === 'borrower') return Boolean(variant.borrower) && kind === 'application';
    if (caller.kind === 'partner') return Boolean(variant.partner) && (kind === 'office' || kind === 'application');
    if ((caller.userRole && variant.internal?.includes(caller.userRole)) || variant.user) return true;
    if (!variant.office) return false;
    return kind !== 'none' || [caller.roleInX, caller.roleElsewhere].some((role) => role !== null && variant.office!.includes(role));
  });
}

// ---- the matrix ------------------------------------------------------------------------------------

describe('access to every operation, generated from openapi.yaml', () => {
  let h: Harness;
  let target: Target;
  const staffIds = new Map<string, string>();
  const xUsers: Record<string, string> = {};
  const partnerKeys = { x: `pk_${randomBytes(32).toString('base64url')}`, y: `pk_${randomBytes(32).toString('base64url')}` };

  beforeAll(async () => {
    h = await harness();
    const db = h.database.db;
    const tag = randomBytes(3).toString('hex');
    const [x, y] = await db
      .insert(offices)
      .values([
        { name: `Matrix Office X ${tag}`, enrollmentStatus: 'Approved', isApproved: true, isEnrollmentCompleted: true, timeZone: 'CT' },
        { name: `Matrix Office Y ${tag}`, enrollmentStatus: 'Approved', isApproved: true, isEnrollmentCompleted: true, timeZone: 'CT' },
      ])
      .returning({ id: offices.id });
    for (const role of ['admin', 'support', 'tpa', 'sales'] as const) xUsers[role] = `x-${role}-${tag}@example.test`;
    const yAdmin = `y-admin-${tag}@example.test`;
    // The victim of user-scoped calls is not a caller: removing them from X (Users_DeleteUser) changes no caller.
    const victim = `x-victim-${tag}@example.test`;
    const made = await db
      .insert(users)
      .values([
        ...Object.entries(xUsers).map(([role, email]) => ({ email, firstName: 'Matrix', lastName: role, role: role as 'admin' })),
        { email: yAdmin, firstName: 'Matrix', lastName: 'Other', role: 'admin' as const },
        { email: victim, firstName: 'Matrix', lastName: 'Victim', role: 'support' as const },
      ])
      .returning({ id: users.id, email: users.email });
    for (const row of made) staffIds.set(row.email, row.id);
    await db.insert(userOffices).values([
      ...Object.entries(xUsers).map(([role, email]) => ({ userId: staffIds.get(email)!, officeId: x!.id, role: role as 'admin', isPrimary: role === 'admin' })),
      { userId: staffIds.get(victim)!, officeId: x!.id, role: 'support' as const },
      { userId: staffIds.get(yAdmin)!, officeId: y!.id, role: 'admin' as const, isPrimary: true },
    ]);
    const apps = await db
      .insert(applications)
      .values([
        { officeId: x!.id, firstName: 'Ann', lastName: 'Applicant', email: `a-${tag}@example.test`, mobilePhone: '(512) 555-0142', amount: 250_000 },
        { officeId: y!.id, firstName: 'Ben', lastName: 'Borrower', email: `b-${tag}@example.test`, mobilePhone: '(512) 555-0143', amount: 150_000 },
      ])
      .returning({ id: applications.id });
    const [file] = await db
      .insert(files)
      .values({ officeId: x!.id, appId: apps[0]!.id, kind: 'Other', fileName: 'note.pdf', contentType: 'application/pdf', sizeBytes: SAMPLE.pdf.length, sha256: 'matrix', bytes: SAMPLE.pdf })
      .returning({ id: files.id });
    const [refund] = await db.insert(refunds).values({ appId: apps[0]!.id, officeId: x!.id, amount: 10_000, reason: 'Matrix' }).returning({ id: refunds.id });
    const [endpoint] = await db.insert(webhookEndpoints).values({ officeId: x!.id, url: 'http://localhost:9/matrix', eventTypes: ['application.created'], secret: 'matrix' }).returning({ id: webhookEndpoints.id });
    // Each office's partner key, allowed as many calls a minute as a key may be: the matrix calls every operation.
    for (const [office, key] of [[x!.id, partnerKeys.x], [y!.id, partnerKeys.y]] as const) {
      await db.insert(apiKeys).values({ officeId: office, name: 'Matrix', hash: keyHash(key), prefix: key.slice(0, 10), perMinute: 1000 });
    }
    const [spareKey] = await db.insert(apiKeys).values({ officeId: x!.id, name: 'Matrix spare', hash: keyHash(`pk_spare_${tag}`), prefix: 'pk_spare', perMinute: 10 }).returning({ id: apiKeys.id });
    target = { officeId: x!.id, appA: apps[0]!.id, appB: apps[1]!.id, fileId: file!.id, refundId: refund!.id, webhookEndpointId: endpoint!.id, apiKeyId: spareKey!.id, victimId: staffIds.get(victim)!, tag };
    for (const email of ['admin@demo.test', 'dfi@demo.test', 'office.admin@demo.test', 'office.support@demo.test', 'tpa@demo.test', 'sales@demo.test', 'pending@demo.test', 'newoffice@demo.test']) {
      staffIds.set(email, await h.userId(email));
    }
    staffIds.set(yAdmin, staffIds.get(yAdmin)!);
  });

  const callers = (): Caller[] => [
    { name: 'anonymous', kind: 'anonymous' },
    { name: 'borrower of A', kind: 'borrower', appId: () => target.appA },
    { name: 'borrower of B', kind: 'borrower', appId: () => target.appB },
    { name: 'API key of office X', kind: 'partner', key: () => partnerKeys.x, ofX: true },
    { name: 'API key of office Y', kind: 'partner', key: () => partnerKeys.y, ofX: false },
    { name: 'admin@demo.test (df.admin)', kind: 'staff', email: 'admin@demo.test', userRole: 'df.admin', roleInX: null, roleElsewhere: null },
    { name: 'dfi@demo.test (dfi.admin)', kind: 'staff', email: 'dfi@demo.test', userRole: 'dfi.admin', roleInX: null, roleElsewhere: null },
    ...([['office.admin', 'admin'], ['office.support', 'support'], ['tpa', 'tpa'], ['sales', 'sales'], ['pending', 'admin']] as const).map(
      ([name, role]): Caller => ({ name: `${name}@demo.test (another office)`, kind: 'staff', email: `${name}@demo.test`, userRole: null, roleInX: null, roleElsewhere: role }),
    ),
    { name: 'newoffice@demo.test (no office)', kind: 'staff', email: 'newoffice@demo.test', userRole: null, roleInX: null, roleElsewhere: null },
    ...Object.entries(xUsers).map(([role, email]): Caller => ({ name: `${role} of office X`, kind: 'staff', email, userRole: null, roleInX: role, roleElsewhere: null })),
    { name: 'admin of office Y', kind: 'staff', email: [...staffIds.keys()].find((e) => e.startsWith('y-admin-'))!, userRole: null, roleInX: null, roleElsewhere: 'admin' },
  ];

  const call = async (caller: Caller, generated: Generated): Promise<LightMyRequestResponse> =>
    h.call({
      ...generated.request,
      ...(caller.kind === 'staff' ? { as: caller.email } : {}),
      ...(caller.kind === 'borrower' ? { borrowerOf: caller.appId() } : {}),
      ...(caller.kind === 'partner' ? { key: false, headers: { ...(generated.request.headers as Record<string, string> | undefined), 'x-api-key': caller.key() } } : {}),
    });

  const events = async () => Number((await h.database.db.execute<{ n: number }>(sql`select count(*)::int as n from security_events where kind in ('cross-office', 'cross-application')`)).rows[0]!.n);

  it('generates a valid request for every operation of the contract', () => {
    expect(operations.length).toBeGreaterThan(80);
    const problems: string[] = [];
    for (const op of operations) {
      try {
        generate(op, target);
      } catch (error) {
        problems.push(`${op.operationId}: ${(error as Error).message}`);
      }
    }
    expect(problems, problems.join('\n')).toEqual([]);
  });

  it('answers every caller of every operation as its x-access rule says, and keeps office X to itself', async () => {
    const failures: string[] = [];
    let checked = 0;
    let refusedCrossOffice = 0;
    for (const op of operations) {
      const pending = op.operationId in PENDING;
      for (const caller of callers()) {
        const generated = generate(op, target);
        const rule = effective(op.access, generated.body);
        const may = allowed(rule, caller, target, staffIds);
        const before = await events();
        const response = await call(caller, generated);
        const status = response.statusCode;
        const detail = status >= 400 ? (JSON.parse(response.body || '{}') as { detail?: string }).detail : undefined;
        const where = `${op.operationId} as ${caller.name}: ${status} ${detail ?? ''}`;
        // Calls that carry their own credential (a lender's signature header, a signed token in the body,
        // decisions/0020) answer 401 to the generated one, whoever sends it.
        const ownCredential = Boolean(op.access.signature) || Boolean(op.access.anonymous && generated.body && 'token' in generated.body);
        checked += 1;
        if (may) {
          if (status === 401 || status === 403 || (status === 404 && detail === ACCESS_NOT_FOUND)) {
            if (!(ownCredential && status === 401)) failures.push(`allowed but refused — ${where}`);
          }
          if (pending && status !== 501 && !(ownCredential && status === 401)) failures.push(`pending, allowed: expected 501 — ${where}`);
        } else {
          if (![401, 403, 404].includes(status)) failures.push(`refused: expected 401/403/404 — ${where}`);
          const kind = rule.scope?.kind ?? 'none';
          const crossOffice = caller.kind === 'staff' && caller.roleElsewhere !== null && Boolean(rule.office?.length) && kind !== 'none' && kind !== 'user';
          const crossApplication = (caller.kind === 'borrower' && Boolean(rule.borrower) && kind === 'application') || (caller.kind === 'partner' && Boolean(rule.partner) && (kind === 'office' || kind === 'application'));
          if (crossOffice || crossApplication) {
            refusedCrossOffice += 1;
            if (status !== 404) failures.push(`another office's record: expected 404 — ${where}`);
            if ((await events()) !== before + 1) failures.push(`another office's record: expected a security event — ${where}`);
          }
        }
      }
    }
    expect(failures, failures.join('\n')).toEqual([]);
    expect(checked).toBe(operations.length * callers().length);
    expect(refusedCrossOffice).toBeGreaterThan(100);
  });

  it('refuses a role an operation never admits before reading the body: a broken body answers 403, not 400 (decision 0249)', async () => {
    const roleCallers = [...callers().filter((caller) => caller.kind !== 'anonymous'), { name: `${PRODUCT_OWNER} (product.owner)`, kind: 'staff', email: PRODUCT_OWNER, userRole: 'product.owner', roleInX: null, roleElsewhere: null } satisfies Caller];
    const failures: string[] = [];
    const refused = new Set<string>();
    for (const op of operations.filter((o) => o.requestBodyTypes.length > 0)) {
      const { request } = generate(op, target);
      const broken = op.multipartModel ? { 'content-type': 'multipart/form-data' } : { 'content-type': 'application/json' };
      for (const caller of roleCallers.filter((c) => !mayAdmit(op.access, c))) {
        const response = await call(caller, { body: undefined, request: { ...request, payload: '{"not": "finished', headers: { ...(request.headers as Record<string, string>), ...broken } } });
        refused.add(`${op.operationId} as ${caller.name}`);
        if (response.statusCode !== 403) failures.push(`${op.operationId} as ${caller.name}: ${response.statusCode} ${response.body.slice(0, 160)}`);
      }
    }
    expect(failures, failures.join('\n')).toEqual([]);
    expect(refused).toContain(`Studio_Publish as office.admin@demo.test (another office)`);
    expect(refused.size).toBeGreaterThan(100);
  });
});
