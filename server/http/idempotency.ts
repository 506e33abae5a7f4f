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
/**
 * A claim still unanswered after this long belongs to a process that stopped while it ran (no call of ours runs two
 * minutes): whether its work happened cannot be known from here, so the caller is told to look, not to wait.
 */
const ABANDONED_AFTER_MS = 2 * 60 * 1000;

export function actorOf(caller: Caller): string {
  if (caller.kind === 'staff') return `staff:${caller.userId}`;
  if (caller.kind === 'borrower') return `borrower:${caller.appId}`;
  if (caller.kind === 'partner') return `api-key:${caller.keyId}`;
  return 'anonymous';
}

function hashRequest(method: string, url: string, body: unknown): string {
  return createHash('sha256').update(`${method} ${url}\n${JSON.stringify(body ?? null)}`).digest('hex');
}

/** Keys older than their lifetime: the sweep forgets them (server/main.ts). */
export async function forgetIdempotencyKeys(db: Db): Promise<void> {
  await db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, new Date(Date.now() - KEY_LIFETIME_MS)));
}

type Claim = { key: string; operation: string; caller: Caller; method: string; url: string; body: unknown };

/**
 * Runs a write at most once per (key, operation, caller) (decisions 0172, 0253): a repeat gets the first answer, and
 * the same key with another request gets 409.
 *
 * - `atomic`: the claim, the write and its answer commit together, in one transaction the handler runs in (`run` is
 *   given it). A retry after a lost answer gets that answer; after a failure before the commit (the database gone),
 *   nothing happened and the retry runs. A refusal (an HttpProblem) is not kept: what the handler's own transactions
 *   wrote stands, as without a key, and the key is free again. A concurrent repeat waits for the first and gets its
 *   answer. For writes whose effect stays in the database.
 * - otherwise (x-idempotent: lenders asked, money moved, messages handed on) the claim commits first, so that the work
 *   outside the database is never done twice: a concurrent repeat gets 409 while the first runs; a failed call
 *   releases its key so that it can be retried.
 */
export async function once(db: Db, claim: Claim, run: (db: Db) => Promise<StoredAnswer>, { atomic }: { atomic: boolean }): Promise<StoredAnswer> {
  const actor = actorOf(claim.caller);
  const requestHash = hashRequest(claim.method, claim.url, claim.body);
  const where = and(eq(idempotencyKeys.key, claim.key), eq(idempotencyKeys.operation, claim.operation), eq(idempotencyKeys.actor, actor));
  const claimed = async (tx: Db): Promise<StoredAnswer | undefined> => {
    await tx.delete(idempotencyKeys).where(and(where, lt(idempotencyKeys.createdAt, new Date(Date.now() - KEY_LIFETIME_MS))));
    const rows = await tx.insert(idempotencyKeys).values({ key: claim.key, operation: claim.operation, actor, requestHash }).onConflictDoNothing().returning({ key: idempotencyKeys.key });
    if (rows.length > 0) return undefined;
    const [existing] = await tx.select().from(idempotencyKeys).where(where);
    if (!existing) throw HttpProblem.conflict('This Idempotency-Key is being released; retry the request.');
    if (existing.requestHash !== requestHash) throw HttpProblem.conflict('This Idempotency-Key was already used with a different request.');
    if (existing.statusCode === null) {
      if (existing.createdAt.getTime() < Date.now() - ABANDONED_AFTER_MS) {
        throw HttpProblem.conflict('The first request with this Idempotency-Key did not finish: its server stopped while it ran. See whether it took effect before sending it again with a new key.');
      }
      throw HttpProblem.conflict('A request with this Idempotency-Key is still being processed.');
    }
    const stored = existing.response as { body: Stored; headers?: Record<string, string> };
    const body = 'base64' in stored.body ? Buffer.from(stored.body.base64, 'base64') : JSON.parse(stored.body.text);
    return { status: existing.statusCode, body, ...(stored.headers ? { headers: stored.headers } : {}) };
  };
  const keep = async (tx: Db, answer: StoredAnswer) => {
    const body: Stored = Buffer.isBuffer(answer.body) ? { base64: answer.body.toString('base64') } : { text: JSON.stringify(answer.body ?? null) };
    await tx.update(idempotencyKeys).set({ statusCode: answer.status, response: sql`${JSON.stringify({ body, headers: answer.headers })}::jsonb` }).where(where);
    return answer;
  };
  if (atomic) {
    const outcome = await db.transaction(async (tx): Promise<{ answer: StoredAnswer } | { refusal: HttpProblem }> => {
      const replay = await claimed(tx);
      if (replay) return { answer: replay };
      try {
        return { answer: await keep(tx, await run(tx)) };
      } catch (error) {
        if (!(error instanceof HttpProblem)) throw error;
        // A refusal keeps what the handler's own transactions wrote before it (a wrong passcode counted), as it would
        // without a key, and frees the key; should this transaction be unusable, all of it goes, the key too.
        await tx.delete(idempotencyKeys).where(where).catch(() => {
          throw error;
        });
        return { refusal: error };
      }
    });
    if ('refusal' in outcome) throw outcome.refusal;
    return outcome.answer;
  }
  const replay = await claimed(db);
  if (replay) return replay;
  let answer: StoredAnswer;
  try {
    answer = await run(db);
  } catch (error) {
    await db.delete(idempotencyKeys).where(where);
    throw error;
  }
  return keep(db, answer);
}
