/**
 * `x-atomic` (decision 0294) says an x-idempotent write keeps its Idempotency-Key in its own transaction. On any other
 * operation it would say nothing (other writes are so already, reads keep no key) and mislead whoever reads it.
 */
import { describe, expect, it } from 'vitest';
import { bundleOpenApi } from '../../core/contract/bundle.ts';
import type { JsonObject } from '../../core/contract/documents.ts';

const contract = bundleOpenApi();

describe('x-atomic in the contract', () => {
  it('marks only x-idempotent writes', () => {
    const misplaced: string[] = [];
    for (const item of Object.values(contract.paths as JsonObject)) {
      for (const op of Object.values(item as JsonObject) as JsonObject[]) {
        if (op['x-atomic'] !== undefined && (op['x-atomic'] !== true || op['x-idempotent'] !== true)) misplaced.push(String(op.operationId));
      }
    }
    expect(misplaced).toEqual([]);
  });
});
