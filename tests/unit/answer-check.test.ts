/**
 * The server checks each answer against the contract before sending it, and refuses to send one that breaks it
 * (fail closed: a field the contract does not allow may leak). Answers are checked by shape — their dates come from
 * Date — and requests by calendar too (decision 0202).
 */
import { describe, expect, it } from 'vitest';
import { samples } from '../../codegen/generated/samples.ts';
import { bundleOpenApi } from '../../core/contract/bundle.ts';
import { readOperations } from '../../core/contract/operations.ts';
import { compileValidators } from '../../core/contract/validators.ts';
import { nullableAsIf } from '../../core/contract/ajv.ts';
import type { Json } from '../../core/contract/documents.ts';

const bundled = bundleOpenApi();
const operations = readOperations(bundled);
const validators = compileValidators(bundled, operations);
const page = samples.App_GetOfficeApps as { results: Record<string, unknown>[] };
const withRow = (change: Record<string, unknown>) => ({ ...page, results: [{ ...page.results[0], ...change }] });
const answer = validators.get('App_GetOfficeApps')!.responses.get(200)!;

describe('the validators of the contract', () => {
  // A server compiles an operation's validators on its first call (decision 0245): a schema ajv refuses fails here.
  it('compile for every operation, once each, and for no operation the contract does not have', () => {
    for (const op of operations) {
      const own = validators.get(op.operationId);
      expect(own, op.operationId).toBeDefined();
      expect(validators.get(op.operationId)).toBe(own);
    }
    expect(operations.length).toBeGreaterThan(80);
    expect(validators.get('App_NoSuchOperation')).toBeUndefined();
  });
});

describe('the check of an answer', () => {
  it('lets through an answer the contract allows', () => {
    expect(answer(withRow({ createdAtUtc: new Date(Date.UTC(2026, 10, 27, 9, 30)).toISOString() }))).toBe(true);
  });

  it('refuses a field the contract does not allow, a wrong type and a missing field', () => {
    expect(answer(withRow({ ssn: '123-45-6789' }))).toBe(false);
    expect(answer(withRow({ amount: '1250' }))).toBe(false);
    const { lastName: _, ...withoutLastName } = page.results[0]!;
    expect(answer({ ...page, results: [withoutLastName] })).toBe(false);
  });

  // A nullable field is `anyOf: [X, {type: 'null'}]` in the contract and `if: {type: 'null'}, else: X` in the check
  // (nullableAsIf): the same values pass, and no discarded error is made for each one that does.
  it('lets a nullable field be null or what it names, and nothing else', () => {
    for (const decisionStatus of [null, 'Approved']) expect(answer(withRow({ decisionStatus }))).toBe(true);
    for (const decisionStatus of ['Maybe', 7, {}]) expect(answer(withRow({ decisionStatus }))).toBe(false);
    for (const expirationDateUtc of [null, '2026-12-01T00:00:00.000Z']) expect(answer(withRow({ expirationDateUtc }))).toBe(true);
    expect(answer(withRow({ expirationDateUtc: 'soon' }))).toBe(false);
  });

  it('makes the nullable rewrite only of a two-branch anyOf with a bare null branch', () => {
    const enumOrNull: Json = { anyOf: [{ $ref: '#/x' }, { type: 'null' }], description: 'd' };
    expect(nullableAsIf(enumOrNull)).toEqual({ description: 'd', if: { type: 'null' }, else: { $ref: '#/x' } });
    expect(nullableAsIf({ properties: { a: { anyOf: [{ type: 'null' }, { type: 'string' }] } } })).toEqual({ properties: { a: { if: { type: 'null' }, else: { type: 'string' } } } });
    const kept: Json[] = [{ anyOf: [{ required: ['a'] }, { required: ['b'] }] }, { anyOf: [{ type: 'null', description: 'n' }, { type: 'string' }] }, { anyOf: [{ type: 'null' }, { type: 'string' }, { type: 'number' }] }];
    for (const schema of kept) expect(nullableAsIf(schema)).toEqual(schema);
  });

  it('refuses a date that is not one by its shape', () => {
    expect(answer(withRow({ createdAtUtc: 'yesterday' }))).toBe(false);
    expect(answer(withRow({ createdAtUtc: '2026-11-27' }))).toBe(false);
  });
});

describe('the check of a request', () => {
  const callback = validators.get('App_ProcessLenderCallback')!.body!;
  const body = (occurredAtUtc: string) => ({ lenderCode: 'ally', appId: 1001, lenderAppId: 'L-1', eventType: 'Decision', occurredAtUtc });

  it('refuses a day that does not exist, which an answer is not checked for', () => {
    expect(callback(body('2026-11-27T09:30:00Z'))).toBe(true);
    expect(callback(body('2026-02-30T09:30:00Z'))).toBe(false);
    expect(answer(withRow({ createdAtUtc: '2026-02-30T09:30:00Z' }))).toBe(true);
  });
});
