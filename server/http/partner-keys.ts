import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/index.ts';
import type { Caller } from './caller.ts';
import { HttpProblem } from './problem.ts';

/** Every office API key begins so: the access layer tells it from the web app's publishable key by it (decision 0268). */
export const PARTNER_KEY_PREFIX = 'pk_';

/** A key is 32 random bytes: a plain SHA-256 of it is as hard to reverse as a slow hash, and is looked up by index. */
export const keyHash = (key: string) => createHash('sha256').update(key).digest('hex');

/**
 * The partner a key speaks for, counting the call in its minute: unknown and revoked keys are refused alike (401), a
 * key past its calls of the minute with 429 until the minute is over. One statement, so nodes count together.
 */
export async function partnerOf(db: Db, key: string): Promise<Extract<Caller, { kind: 'partner' }>> {
  const [row] = (
    await db.execute<{ id: number; office_id: number; name: string; per_minute: number; window_count: number; retry_after: number }>(sql`
      update api_keys set
        window_start = case when window_start is null or window_start <= now() - interval '1 minute' then now() else window_start end,
        window_count = case when window_start is null or window_start <= now() - interval '1 minute' then 1 else window_count + 1 end,
        last_used_at = now()
      where hash = ${keyHash(key)} and revoked_at is null
      returning id, office_id, name, per_minute, window_count, extract(epoch from window_start + interval '1 minute' - now())::float8 as retry_after`)
  ).rows;
  if (!row) throw new HttpProblem(401, 'The API key is not valid or was revoked.');
  if (Number(row.window_count) > Number(row.per_minute)) {
    throw HttpProblem.tooMany(`This API key may make ${row.per_minute} calls a minute. Try again when the minute is over.`, Math.max(1, Math.ceil(Number(row.retry_after))));
  }
  return { kind: 'partner', officeId: Number(row.office_id), keyId: Number(row.id), name: row.name };
}
