import { HttpProblem } from '../http/problem.ts';
import type { Handler, OperationId } from '../http/handler-types.ts';

/**
 * Operations whose feature belongs to an open issue answer 501 until it lands. The API test keeps
 * the same list by name, so it can only shrink.
 */
export const PENDING = {
  // Nothing is pending: the borrower journey (issue 5) implemented the last ones.
} as const satisfies Partial<Record<OperationId, string>>;

export type PendingId = keyof typeof PENDING;

export function pendingHandlers(): { [K in PendingId]: Handler<K> } {
  const entries = Object.entries(PENDING).map(([id, feature]) => [
    id,
    async () => {
      throw new HttpProblem(501, `${id} is not available yet: it arrives with ${feature}.`);
    },
  ]);
  return Object.fromEntries(entries) as { [K in PendingId]: Handler<K> };
}
