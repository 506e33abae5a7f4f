import { beforeAll, describe, expect, it } from 'vitest';
import { once } from '../../server/http/idempotency.ts';
import { HttpProblem } from '../../server/http/problem.ts';
import type { Caller } from '../../server/http/caller.ts';
import { harness, type Harness } from '../support/harness.ts';

/** The Idempotency-Key store every x-idempotent operation runs through (server/http/bind.ts). */
describe('Idempotency-Key', () => {
  let h: Harness;
  let caller: Caller;
  beforeAll(async () => {
    h = await harness();
    caller = { kind: 'staff', userId: await h.userId('office.admin@demo.test'), email: 'office.admin@demo.test', role: 'admin', userRole: null, offices: new Map(), disabledOffices: new Set() };
  });

  const claim = (key: string, body: unknown, who: Caller = caller) => ({ key, operation: 'App_SubmitRefund', caller: who, method: 'POST', url: '/api/App/SubmitRefund', body });

  it('runs a repeat once and answers it with the first answer', async () => {
    let runs = 0;
    const run = async () => ({ status: 200, body: { refundId: ++runs } });
    const first = await once(h.database.db, claim('key-repeat-0001', { amount: 10 }), run);
    const second = await once(h.database.db, claim('key-repeat-0001', { amount: 10 }), run);
    expect(runs).toBe(1);
    expect(second).toEqual(first);
  });

  it('runs two concurrent submits of the same key once: the other is told to wait (409)', async () => {
    let runs = 0;
    const slow = async () => {
      runs += 1;
      await new Promise((resolve) => setTimeout(resolve, 200));
      return { status: 200, body: { ok: true } };
    };
    const outcomes = await Promise.allSettled([
      once(h.database.db, claim('key-concurrent-01', { amount: 5 }), slow),
      once(h.database.db, claim('key-concurrent-01', { amount: 5 }), slow),
    ]);
    expect(runs).toBe(1);
    const refused = outcomes.filter((o) => o.status === 'rejected');
    expect(refused).toHaveLength(1);
    expect(((refused[0] as PromiseRejectedResult).reason as HttpProblem).status).toBe(409);
  });

  it('refuses the same key with another request, and keeps keys apart per caller', async () => {
    await once(h.database.db, claim('key-mismatch-01', { amount: 1 }), async () => ({ status: 200, body: {} }));
    await expect(once(h.database.db, claim('key-mismatch-01', { amount: 2 }), async () => ({ status: 200, body: {} }))).rejects.toMatchObject({ status: 409 });
    const other: Caller = { kind: 'borrower', appId: 1000 };
    await expect(once(h.database.db, claim('key-mismatch-01', { amount: 2 }, other), async () => ({ status: 200, body: { mine: true } }))).resolves.toMatchObject({ body: { mine: true } });
  });

  it('releases the key of a failed call so that it can be retried, and replays files byte for byte', async () => {
    await expect(once(h.database.db, claim('key-failure-001', {}), async () => { throw new HttpProblem(400, 'bad'); })).rejects.toMatchObject({ status: 400 });
    const file = Buffer.from('id,amount\n1,10.00\n');
    const answer = async () => ({ status: 200, body: file, headers: { 'content-disposition': 'attachment; filename="funded.csv"' } });
    await once(h.database.db, claim('key-failure-001', {}), answer);
    const replay = await once(h.database.db, claim('key-failure-001', {}), async () => ({ status: 500, body: undefined }));
    expect(Buffer.isBuffer(replay.body) && replay.body.equals(file)).toBe(true);
    expect(replay.headers).toEqual({ 'content-disposition': 'attachment; filename="funded.csv"' });
  });
});
