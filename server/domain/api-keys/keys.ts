import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { components } from '../../../codegen/generated/api.ts';
import type { Db } from '../../db/index.ts';
import type { Caller } from '../../http/caller.ts';
import { keyHash, PARTNER_KEY_PREFIX } from '../../http/partner-keys.ts';
import { HttpProblem } from '../../http/problem.ts';
import { staffUserId } from '../applications/records.ts';
import { toUtc } from '../values.ts';

/**
 * An office's API keys for its partners' software (issue 39, item 3; decision 0268): made by its admins, shown once,
 * kept as a hash, limited per minute, revocable. A key is its office's partner: it reads the office's applications and
 * sends links, as the x-access `partner` of those operations allows, and nothing else.
 */

type ApiKey = components['schemas']['ApiKey'];

const ACTIVE_PER_OFFICE = 20;
const DEFAULT_PER_MINUTE = 120;
/** Enough of the key to tell it from the office's others, far too little to guess the rest. */
const SHOWN_CHARACTERS = 10;

type Row = {
  id: number; office_id: number; name: string; prefix: string; per_minute: number; created_at: string | Date; created_by: string | null;
  last_used_at: string | Date | null; revoked_at: string | Date | null;
};

function apiKeyOf(row: Row): ApiKey {
  return {
    keyId: Number(row.id), officeId: Number(row.office_id), name: row.name, prefix: row.prefix, perMinute: Number(row.per_minute),
    status: row.revoked_at === null ? 'Active' : 'Revoked', createdAtUtc: toUtc(row.created_at)!, createdBy: row.created_by,
    lastUsedAtUtc: toUtc(row.last_used_at), revokedAtUtc: toUtc(row.revoked_at),
  };
}

const selectKeys = (where: ReturnType<typeof sql>) => sql`
  select k.id, k.office_id, k.name, k.prefix, k.per_minute, k.created_at, u.email as created_by, k.last_used_at, k.revoked_at
  from api_keys k left join users u on u.id = k.created_by
  where ${where} order by k.revoked_at is not null, k.id desc`;

/** The office's keys, active ones first: the newest 100. */
export async function listKeys(db: Db, officeId: number): Promise<ApiKey[]> {
  return (await db.execute<Row>(sql`${selectKeys(sql`k.office_id = ${officeId}`)} limit 100`)).rows.map(apiKeyOf);
}

async function keyById(db: Db, keyId: number): Promise<ApiKey> {
  const [row] = (await db.execute<Row>(selectKeys(sql`k.id = ${keyId}`))).rows;
  if (!row) throw new HttpProblem(404, 'There is no API key with that id.');
  return apiKeyOf(row);
}

export async function addKey(db: Db, caller: Caller, body: components['schemas']['ApiKeyAdd']): Promise<components['schemas']['ApiKeySecret']> {
  const name = body.name.trim();
  if (!name) throw HttpProblem.field('name', 'Name the key after the software that uses it.');
  return db.transaction(async (tx) => {
    // The office's row, locked: two admins adding at once cannot pass the limit together.
    await tx.execute(sql`select id from offices where id = ${body.officeId} for update`);
    const [count] = (await tx.execute<{ n: number }>(sql`select count(*)::int as n from api_keys where office_id = ${body.officeId} and revoked_at is null`)).rows;
    if (Number(count!.n) >= ACTIVE_PER_OFFICE) throw HttpProblem.conflict(`An office has at most ${ACTIVE_PER_OFFICE} active API keys. Revoke one it no longer uses first.`);
    const secret = `${PARTNER_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
    const [row] = (
      await tx.execute<{ id: number }>(sql`
        insert into api_keys (office_id, name, hash, prefix, per_minute, created_by)
        values (${body.officeId}, ${name}, ${keyHash(secret)}, ${secret.slice(0, SHOWN_CHARACTERS)}, ${body.perMinute ?? DEFAULT_PER_MINUTE}, ${staffUserId(caller)})
        returning id`)
    ).rows;
    return { apiKey: await keyById(tx, Number(row!.id)), secret };
  });
}

export async function revokeKey(db: Db, keyId: number): Promise<ApiKey> {
  await db.execute(sql`update api_keys set revoked_at = now() where id = ${keyId} and revoked_at is null`);
  return keyById(db, keyId);
}
