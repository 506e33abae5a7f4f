import { beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { bundleOpenApi } from '../../core/contract/bundle.ts';
import { readOperations } from '../../core/contract/operations.ts';
import messages from '../../schemas/messages.json';
import { harness, type Harness } from '../support/harness.ts';
import { PRODUCT_OWNER } from '../support/demo-accounts.ts';
import { databaseFingerprint, rowCounts } from '../support/snapshot.ts';
import { exampleFixtures, examples, type Example, exampleAppId } from './examples.ts';
import { jobsSettled } from '../support/jobs.ts';

/**
 * Money and messages happen once (issue 16, part 5; decision 0172), for every x-idempotent operation of the contract:
 * a call without an Idempotency-Key is refused and changes nothing. Every write happens once per key (decision 0253):
 * ten identical calls with one key, fired at once, change the database exactly as one call does — table by table,
 * outbox included.
 */
const operations = readOperations(bundleOpenApi());
const idempotent = new Set(operations.filter((op) => op.idempotent).map((op) => op.operationId));
const writes = new Set(operations.filter((op) => op.write).map((op) => op.operationId));

const delta = (before: Record<string, number>, after: Record<string, number>) =>
  Object.fromEntries(Object.keys(after).map((table) => [table, after[table]! - (before[table] ?? 0)]).filter(([, change]) => change !== 0));

/** Writes to what every record shares (the live descriptor set), not to records of their own. */
const SHARED_STATE = new Set(['Studio_Publish', 'Studio_Revert', 'Studio_Rollback']);
/** Writes to the one record the caller has (a product owner's drafts), which both sets of records share. */
const CALLERS_OWN = new Set(['Studio_SaveDraft']);

describe('money, messages and every other write happen once', () => {
  let h: Harness;
  let appId: number;
  beforeAll(async () => {
    h = await harness();
    appId = await exampleAppId(h);
  });

  /** The live publication's id (0: the deployed files). */
  const livePublication = async () => (JSON.parse((await h.request(PRODUCT_OWNER, 'GET', '/api/Studio/GetHistory')).body) as { publications: { id: number }[] }).publications[0]?.id ?? 0;
  const call = (example: Example, idempotencyKey: string | false) => h.call({ ...example.request, as: example.as, borrowerOf: example.borrowerOf, idempotencyKey });

  /** The caller's own record emptied, so that the one call and the ten each make it anew, whatever earlier tests left. */
  const emptyCallersOwn = async (example: Example) => {
    if (CALLERS_OWN.has(example.operationId)) expect((await h.request(example.as!, 'PUT', example.request.url, { files: {} })).statusCode).toBe(200);
  };

  it('requires the key on every x-idempotent operation of the contract, takes one on every other write, and each has an example', () => {
    for (const op of operations) {
      const key = op.parameters.find((p) => p.in === 'header' && p.name === 'Idempotency-Key');
      expect(key?.required, op.operationId).toBe(op.idempotent ? true : op.write ? false : undefined);
    }
    // A read sent as PUT or POST says so (x-reads); a GET never needs to.
    expect(operations.filter((op) => op.method === 'get' && !op.write).length).toBeGreaterThan(0);
    expect(operations.filter((op) => op.method !== 'get' && !op.write).map((op) => op.operationId)).toEqual(expect.arrayContaining(['App_GetOfficeApps', 'Studio_CheckDraft']));
    expect([...idempotent].filter((id) => !examples(appId).some((e) => e.operationId === id))).toEqual([]);
    expect([...idempotent]).toEqual(expect.arrayContaining(['App_SendApp', 'App_SubmitRefund', 'App_FinalizeApp', 'AdminApps_MarkAppsFunded', 'App_SubmitTrans', 'App_SendESignLink', 'Otp_SendOtp', 'Users_UpsertUser', 'Users_ResendInvite']));
  });

  it('refuses each one without an Idempotency-Key with a problem that says what to send, and changes nothing', async () => {
    const list = examples(appId, await exampleFixtures(h)).filter((e) => idempotent.has(e.operationId));
    const before = await databaseFingerprint(h.database.db);
    for (const example of list) {
      const response = await call(example, false);
      expect(response.statusCode, example.operationId).toBe(400);
      expect(response.headers['content-type']).toContain('application/problem+json');
      expect(JSON.parse(response.body), example.operationId).toMatchObject({
        detail: messages.messages.idempotencyKeyRequired,
        errors: { 'idempotency-key': [messages.messages.idempotencyKeyRequired] },
      });
    }
    expect(await databaseFingerprint(h.database.db)).toEqual(before);
  });

  it('changes the database as one call does when ten identical calls with one key arrive at once', async () => {
    // Two sets of the same records: on one each call is made once, on the other ten times at once.
    const once = examples(appId, await exampleFixtures(h));
    const tenfold = examples(appId, await exampleFixtures(h));
    let checked = 0;
    for (const [index, single] of once.entries()) {
      const repeated = tenfold[index]!;
      if (!writes.has(single.operationId)) {
        // The calls before set up the state the next example needs (enrollment, review…), on both sets alike.
        await call(single, undefined as never);
        await call(repeated, undefined as never);
        continue;
      }
      const live = SHARED_STATE.has(single.operationId) ? await livePublication() : undefined;
      await emptyCallersOwn(single);
      const start = await rowCounts(h.database.db);
      const first = await call(single, `once-${index}-${Date.now()}`);
      // What the call enqueued (its lender told) is done before counting, here and after the ten.
      await jobsSettled(h.database.db);
      const one = delta(start, await rowCounts(h.database.db));
      // Both sets of records share the live descriptor set: it is put back, so that the ten calls find it as the one did.
      if (live !== undefined) expect((await h.request(PRODUCT_OWNER, 'POST', '/api/Studio/Rollback', { id: live, note: 'As before the one call' })).statusCode).toBe(200);
      await emptyCallersOwn(repeated);

      const key = `tenfold-${index}-${Date.now()}`;
      const before = await rowCounts(h.database.db);
      const answers: LightMyRequestResponse[] = await Promise.all(Array.from({ length: 10 }, () => call(repeated, key)));
      await jobsSettled(h.database.db);
      const ten = delta(before, await rowCounts(h.database.db));

      const what = `${single.operationId} (one call answered ${first.statusCode}: ${first.body.slice(0, 120)})`;
      expect(first.statusCode, what).toBeLessThan(300);
      expect(ten, what).toEqual(one);
      // One ran; the others got its answer again, or, where the key is claimed first, were told it is under way (409).
      const statuses = answers.map((a) => a.statusCode);
      expect(statuses.every((status) => status < 300 || (idempotent.has(single.operationId) && status === 409)), `${what}: ${statuses}`).toBe(true);
      expect(new Set(answers.filter((a) => a.statusCode < 300).map((a) => a.body)).size, what).toBe(1);
      checked += 1;
    }
    expect(checked).toBe(examples(appId).filter((e) => writes.has(e.operationId)).length);
    // Every write's example once and ten times over, each with its row counts and jobs: 30-40 s on two cores, but 87 s
    // and past 60 s in the two full runs where this was the suite's first file. Vitest runs first the file that failed or
    // took longest the last time (a fresh clone: the largest), and the first file pays the process's one-time costs (the
    // shared database, each operation's validators) while the type-check and the other suites start beside it.
  }, 180_000);
});
