import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../codegen/generated/api.ts';
import { harness, type Harness } from '../support/harness.ts';
import { insertApplication } from './apps-fixtures.ts';
import { journeyOffice, json, logLines, type JourneyOffice } from './journey-fixtures.ts';

/**
 * An office's API keys for its partners' software (issue 39, item 3; decision 0268): shown once and kept hashed; the
 * key reads and starts its own office's applications and nothing else; its calls a minute are limited; last use is
 * shown; a revoked key opens nothing.
 */

type ApiKey = components['schemas']['ApiKey'];
type Secret = components['schemas']['ApiKeySecret'];

let h: Harness;
let office: JourneyOffice;
let other: JourneyOffice;
const keys = (as: string, op: string, body: object) => h.request(as, 'PUT', `/api/ApiKeys/${op}`, body);
/** A call of the partner's software: its key in X-Api-Key, no token. */
const byKey = (key: string, options: { method: 'GET' | 'PUT' | 'POST'; url: string; payload?: object }) =>
  h.call({ ...options, key: false, headers: { 'x-api-key': key } });
const addKey = async (name: string, perMinute?: number) =>
  json<Secret>(await keys(office.admin, 'AddKey', { officeId: office.officeId, name, ...(perMinute ? { perMinute } : {}) }));

beforeAll(async () => {
  h = await harness();
  office = await journeyOffice(h);
  other = await journeyOffice(h);
});

describe("an office's API keys", () => {
  it('shows a new key once and keeps only its hash; the list shows how it begins, its limit and who made it', async () => {
    const { apiKey, secret } = await addKey('Front desk bridge', 30);
    expect(secret).toMatch(/^pk_[A-Za-z0-9_-]{43}$/);
    expect(apiKey).toMatchObject({ name: 'Front desk bridge', prefix: secret.slice(0, 10), perMinute: 30, status: 'Active', createdBy: office.admin, lastUsedAtUtc: null });
    const listed = json<ApiKey[]>(await keys(office.admin, 'GetKeys', { officeId: office.officeId }));
    expect(listed.find((k) => k.keyId === apiKey.keyId)).toEqual(apiKey);
    expect(JSON.stringify(listed)).not.toContain(secret);
    const stored = await h.database.db.execute(sql`select * from api_keys where id = ${apiKey.keyId}`);
    expect(JSON.stringify(stored.rows)).not.toContain(secret.slice(10));
  });

  it("lets the key list, read and start its office's applications, and says in the log which key started one", async () => {
    const { apiKey, secret } = await addKey('Practice software');
    const list = await byKey(secret, { method: 'PUT', url: '/api/App/GetOfficeApps', payload: { officeId: office.officeId } });
    expect(list.statusCode, list.body).toBe(200);
    const started = await byKey(secret, {
      method: 'POST', url: '/api/App/SendApp',
      payload: { officeId: office.officeId, firstName: 'Pat', lastName: 'Partner', email: `pat.partner.${office.tag}@gmail.com`, amount: 1800 },
    });
    expect(started.statusCode, started.body).toBe(200);
    const appId = json<{ appId: number }>(started).appId;
    const read = await byKey(secret, { method: 'GET', url: `/api/App/GetApp/${appId}/false` });
    expect(json<{ lastName: string }>(read).lastName).toBe('Partner');
    expect((await logLines(h, appId)).length).toBeGreaterThan(0);
    const [actor] = (await h.database.db.execute<{ actor: string }>(sql`select actor from app_logs where app_id = ${appId} order by id limit 1`)).rows;
    expect(actor!.actor).toBe('API key: Practice software');
    const listed = json<ApiKey[]>(await keys(office.admin, 'GetKeys', { officeId: office.officeId })).find((k) => k.keyId === apiKey.keyId)!;
    expect(Date.now() - new Date(listed.lastUsedAtUtc!).getTime()).toBeLessThan(60_000);
  });

  it("keeps the key to its office: another office's application is not found, and other operations are refused", async () => {
    const { secret } = await addKey('Nosy software');
    const foreign = await h.database.db.transaction((tx) => insertApplication(tx, { officeId: other.officeId, stage: 'Review', firstName: 'Olga', lastName: 'Other' }));
    expect((await byKey(secret, { method: 'GET', url: `/api/App/GetApp/${foreign}/false` })).statusCode).toBe(404);
    expect((await byKey(secret, { method: 'PUT', url: '/api/App/GetOfficeApps', payload: { officeId: other.officeId } })).statusCode).toBe(404);
    // Reading offers, the office's settings or its keys is not what a key is for.
    expect((await byKey(secret, { method: 'GET', url: `/api/Office/GetOfficeInfo/${office.officeId}` })).statusCode).toBe(403);
    expect((await byKey(secret, { method: 'PUT', url: '/api/ApiKeys/GetKeys', payload: { officeId: office.officeId } })).statusCode).toBe(403);
    const unknown = await byKey('pk_not-a-key-of-anyone', { method: 'PUT', url: '/api/App/GetOfficeApps', payload: { officeId: office.officeId } });
    expect(unknown.statusCode).toBe(401);
    expect(json<{ detail: string }>(unknown).detail).toBe('The API key is not valid or was revoked.');
  });

  it('refuses calls past the limit of the minute with 429 and when to try again', async () => {
    const { secret } = await addKey('Busy software', 2);
    const list = () => byKey(secret, { method: 'PUT', url: '/api/App/GetOfficeApps', payload: { officeId: office.officeId } });
    expect([(await list()).statusCode, (await list()).statusCode]).toEqual([200, 200]);
    const third = await list();
    expect(third.statusCode).toBe(429);
    expect(third.headers['content-type']).toContain('application/problem+json');
    expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(third.headers['retry-after'])).toBeLessThanOrEqual(60);
    // The minute over, the key works again.
    await h.database.db.execute(sql`update api_keys set window_start = now() - interval '61 seconds' where name = 'Busy software'`);
    expect((await list()).statusCode).toBe(200);
  });

  it('opens nothing once revoked; revoking again answers the key as it is', async () => {
    const { apiKey, secret } = await addKey('Old software');
    const revoked = json<ApiKey>(await keys(office.admin, 'RevokeKey', { keyId: apiKey.keyId }));
    expect(revoked).toMatchObject({ status: 'Revoked', revokedAtUtc: expect.any(String) });
    expect((await byKey(secret, { method: 'PUT', url: '/api/App/GetOfficeApps', payload: { officeId: office.officeId } })).statusCode).toBe(401);
    expect(json<ApiKey>(await keys(office.admin, 'RevokeKey', { keyId: apiKey.keyId })).revokedAtUtc).toBe(revoked.revokedAtUtc);
  });

  it("is managed by the office's admins only, at most 20 active keys, each with a name", async () => {
    expect((await keys(office.support, 'AddKey', { officeId: office.officeId, name: 'Mine' })).statusCode).toBe(403);
    expect((await keys(other.admin, 'GetKeys', { officeId: office.officeId })).statusCode).toBe(404);
    const blank = await keys(office.admin, 'AddKey', { officeId: office.officeId, name: '   ' });
    expect(json<{ errors: Record<string, string[]> }>(blank).errors.name).toEqual(['Name the key after the software that uses it.']);
    const active = Number((await h.database.db.execute<{ n: number }>(sql`select count(*)::int as n from api_keys where office_id = ${office.officeId} and revoked_at is null`)).rows[0]!.n);
    for (let i = active; i < 20; i += 1) await addKey(`Spare ${i}`);
    const more = await keys(office.admin, 'AddKey', { officeId: office.officeId, name: 'One too many' });
    expect(more.statusCode).toBe(409);
    expect(json<{ detail: string }>(more).detail).toBe('An office has at most 20 active API keys. Revoke one it no longer uses first.');
  });
});
