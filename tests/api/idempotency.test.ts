import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { Db } from '../../server/db/index.ts';
import { once } from '../../server/http/idempotency.ts';
import { HttpProblem } from '../../server/http/problem.ts';
import type { Caller } from '../../server/http/caller.ts';
import { harness, type Harness } from '../support/harness.ts';

/** The Idempotency-Key store every write given a key runs through (server/http/bind.ts, decisions 0172 and 0253). */
describe('Idempotency-Key', () => {
  let h: Harness;
  let caller: Caller;
  beforeAll(async () => {
    h = await harness();
    caller = { kind: 'staff', userId: await h.userId('office.admin@demo.test'), email: 'office.admin@demo.test', role: 'admin', userRole: null, offices: new Map(), permissions: new Map(), disabledOffices: new Set() };
  });

  const CLAIM_FIRST = { atomic: false };
  const claim = (key: string, body: unknown, who: Caller = caller) => ({ key, operation: 'App_SubmitRefund', caller: who, method: 'POST', url: '/api/App/SubmitRefund', body });

  it('runs a repeat once and answers it with the first answer (x-idempotent: the key is claimed first)', async () => {
    let runs = 0;
    const run = async () => ({ status: 200, body: { refundId: ++runs } });
    const first = await once(h.database.db, claim('key-repeat-0001', { amount: 10 }), run, CLAIM_FIRST);
    const second = await once(h.database.db, claim('key-repeat-0001', { amount: 10 }), run, CLAIM_FIRST);
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
      once(h.database.db, claim('key-concurrent-01', { amount: 5 }), slow, CLAIM_FIRST),
      once(h.database.db, claim('key-concurrent-01', { amount: 5 }), slow, CLAIM_FIRST),
    ]);
    expect(runs).toBe(1);
    const refused = outcomes.filter((o) => o.status === 'rejected');
    expect(refused).toHaveLength(1);
    expect(((refused[0] as PromiseRejectedResult).reason as HttpProblem).status).toBe(409);
  });

  it('tells the caller of a key whose first request stopped with its server to look, not to wait', async () => {
    void once(h.database.db, claim('key-abandoned-1', { amount: 3 }), () => new Promise<never>(() => {}), CLAIM_FIRST);
    const claimed = async () => (await h.database.db.execute(sql`select 1 from idempotency_keys where key = 'key-abandoned-1'`)).rows.length > 0;
    while (!(await claimed())) await new Promise((resolve) => setTimeout(resolve, 10));
    await expect(once(h.database.db, claim('key-abandoned-1', { amount: 3 }), async () => ({ status: 200, body: {} }), CLAIM_FIRST)).rejects.toMatchObject({ detail: 'A request with this Idempotency-Key is still being processed.' });
    // Its server stopped: the claim is never answered.
    await h.database.db.execute(sql`update idempotency_keys set created_at = now() - interval '3 minutes' where key = 'key-abandoned-1'`);
    await expect(once(h.database.db, claim('key-abandoned-1', { amount: 3 }), async () => ({ status: 200, body: {} }), CLAIM_FIRST)).rejects.toMatchObject({
      status: 409,
      detail: 'The first request with this Idempotency-Key did not finish: its server stopped while it ran. See whether it took effect before sending it again with a new key.',
    });
  });

  it('refuses the same key with another request, and keeps keys apart per caller', async () => {
    await once(h.database.db, claim('key-mismatch-01', { amount: 1 }), async () => ({ status: 200, body: {} }), CLAIM_FIRST);
    await expect(once(h.database.db, claim('key-mismatch-01', { amount: 2 }), async () => ({ status: 200, body: {} }), CLAIM_FIRST)).rejects.toMatchObject({ status: 409 });
    const other: Caller = { kind: 'borrower', appId: 1000 };
    await expect(once(h.database.db, claim('key-mismatch-01', { amount: 2 }, other), async () => ({ status: 200, body: { mine: true } }), CLAIM_FIRST)).resolves.toMatchObject({ body: { mine: true } });
  });

  it('releases the key of a failed call so that it can be retried, and replays files byte for byte', async () => {
    await expect(once(h.database.db, claim('key-failure-001', {}), async () => { throw new HttpProblem(400, 'bad'); }, CLAIM_FIRST)).rejects.toMatchObject({ status: 400 });
    const file = Buffer.from('id,amount\n1,10.00\n');
    const answer = async () => ({ status: 200, body: file, headers: { 'content-disposition': 'attachment; filename="funded.csv"' } });
    await once(h.database.db, claim('key-failure-001', {}), answer, CLAIM_FIRST);
    const replay = await once(h.database.db, claim('key-failure-001', {}), async () => ({ status: 500, body: undefined }), CLAIM_FIRST);
    expect(Buffer.isBuffer(replay.body) && replay.body.equals(file)).toBe(true);
    expect(replay.headers).toEqual({ 'content-disposition': 'attachment; filename="funded.csv"' });
  });

  describe('a write whose effect stays in the database: the write and its answer commit together (decision 0253)', () => {
    const ATOMIC = { atomic: true };
    /** A write of the handler's: a row only this test writes, counted afterwards. */
    const write = (actor: string) => async (tx: Db) => {
      await tx.execute(sql`insert into security_events (kind, actor, ip) values ('idempotency-test', ${actor}, '127.0.0.1')`);
      return { status: 200, body: { written: actor } };
    };
    const written = async (actor: string) => Number((await h.database.db.execute<{ n: number }>(sql`select count(*)::int as n from security_events where kind = 'idempotency-test' and actor = ${actor}`)).rows[0]!.n);
    const note = (key: string) => ({ ...claim(key, { appId: 1, note: 'Called the patient' }), operation: 'App_UpsertAppNote', method: 'PUT', url: '/api/App/UpsertAppNote' });

    it('answers a retry after a lost answer with that answer, writing once', async () => {
      const first = await once(h.database.db, note('note-lost-answer-1'), write('lost-answer'), ATOMIC);
      // The answer never reached the browser, which sends the same call again with the same key.
      expect(await once(h.database.db, note('note-lost-answer-1'), write('lost-answer'), ATOMIC)).toEqual(first);
      expect(await written('lost-answer')).toBe(1);
    });

    it('keeps nothing of a call the database dropped before its commit: the retry writes, once', async () => {
      const dropped = async (tx: Db) => {
        await write('dropped')(tx);
        throw new Error('Connection terminated unexpectedly');
      };
      await expect(once(h.database.db, note('note-dropped-0001'), dropped, ATOMIC)).rejects.toThrow('Connection terminated');
      expect(await written('dropped'), 'the write went with its transaction').toBe(0);
      await once(h.database.db, note('note-dropped-0001'), write('dropped'), ATOMIC);
      await once(h.database.db, note('note-dropped-0001'), write('dropped'), ATOMIC);
      expect(await written('dropped')).toBe(1);
    });

    it("keeps what a refused call's own transaction wrote (a wrong passcode counted), and frees the key", async () => {
      const refused = async (tx: Db) => {
        await tx.transaction(async (own) => void (await write('refused')(own)));
        throw HttpProblem.validation({ code: ['The passcode is not correct. 4 tries left.'] });
      };
      await expect(once(h.database.db, note('note-refused-0001'), refused, ATOMIC)).rejects.toMatchObject({ status: 400 });
      expect(await written('refused')).toBe(1);
      await expect(once(h.database.db, note('note-refused-0001'), refused, ATOMIC)).rejects.toMatchObject({ status: 400 });
      expect(await written('refused'), 'the repeat ran again').toBe(2);
    });

    it('lets a concurrent repeat wait for the first and answers it alike', async () => {
      const outcomes = await Promise.all([once(h.database.db, note('note-concurrent-1'), write('concurrent'), ATOMIC), once(h.database.db, note('note-concurrent-1'), write('concurrent'), ATOMIC)]);
      expect(outcomes[1]).toEqual(outcomes[0]);
      expect(await written('concurrent')).toBe(1);
    });
  });
});
