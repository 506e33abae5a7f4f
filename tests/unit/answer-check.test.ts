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
