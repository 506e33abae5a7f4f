import { createHash } from 'node:crypto';
import { and, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/index.ts';
import { idempotencyKeys } from '../db/schema.ts';
import type { Caller } from './caller.ts';
import { HttpProblem } from './problem.ts';

/** A stored answer, replayed for a repeat of the same request with the same Idempotency-Key. */
export interface StoredAnswer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

// JSON is kept as text: jsonb reorders keys, and a replay must read as the first answer did.
type Stored = { text: string } | { base64: string };

/** Keys are remembered this long; a later repeat runs as a new request. */
const KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;

export function actorOf(caller: Caller): string {
  if (caller.kind === 'staff') return `staff:${caller.userId}`;
  if (caller.kind === 'borrower') return `borrower:${caller.appId}`;
  return 'anonymous';
}

function hashRequest(method: string, url: string, body: unknown): string {
  return createHash('sha256').update(`${method} ${url}\n${JSON.stringify(body ?? null)}`).digest('hex');
}

/**
 * Runs a money- or message-moving operation at most once per (key, operation, caller): the first
 * call claims the key in the database before it runs, a repeat gets the first answer, a concurrent
 * repeat gets 409 while the first is still running, and the same key with another request gets 409.
 * A failed call releases its key so that it can be retried.
 */
export async function once(
  db: Db,
  claim: { key: string; operation: string; caller: Caller; method: string; url: string; body: unknown },
  run: () => Promise<StoredAnswer>,
): Promise<StoredAnswer> {
  const actor = actorOf(claim.caller);
  const requestHash = hashRequest(claim.method, claim.url, claim.body);
  const where = and(eq(idempotencyKeys.key, claim.key), eq(idempotencyKeys.operation, claim.operation), eq(idempotencyKeys.actor, actor));
  await db.delete(idempotencyKeys).where(and(where, lt(idempotencyKeys.createdAt, new Date(Date.now() - KEY_LIFETIME_MS))));
  const claimed = await db
    .insert(idempotencyKeys)
    .values({ key: claim.key, operation: claim.operation, actor, requestHash })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  if (claimed.length === 0) {
    const [existing] = await db.select().from(idempotencyKeys).where(where);
    if (!existing) throw HttpProblem.conflict('This Idempotency-Key is being released; retry the request.');
    if (existing.requestHash !== requestHash) throw HttpProblem.conflict('This Idempotency-Key was already used with a different request.');
    if (existing.statusCode === null) throw HttpProblem.conflict('A request with this Idempotency-Key is still being processed.');
    const stored = existing.response as { body: Stored; headers?: Record<string, string> };
    const body = 'base64' in stored.body ? Buffer.from(stored.body.base64, 'base64') : JSON.parse(stored.body.text);
    return { status: existing.statusCode, body, ...(stored.headers ? { headers: stored.headers } : {}) };
  }
  let answer: StoredAnswer;
  try {
    answer = await run();
  } catch (error) {
    await db.delete(idempotencyKeys).where(where);
    throw error;
  }
  const body: Stored = Buffer.isBuffer(answer.body) ? { base64: answer.body.toString('base64') } : { text: JSON.stringify(answer.body ?? null) };
  await db
    .update(idempotencyKeys)
    .set({ statusCode: answer.status, response: sql`${JSON.stringify({ body, headers: answer.headers })}::jsonb` })
    .where(where);
  return answer;
}
