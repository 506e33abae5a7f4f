import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Database } from '../../server/db/index.ts';
import type { OnNotice } from '../../server/db/listen.ts';
import { eventBell } from '../../server/events/bell.ts';

/** A database that hears what the test says it notified, or cannot listen at all. */
function fakeDatabase(canListen = true): { database: Database; notify: (payload: string | undefined) => void } {
  const heard: OnNotice[] = [];
  const listen = async (_channel: string, onNotice: OnNotice) => {
    if (!canListen) throw new Error('no connection');
    heard.push(onNotice);
    return () => {};
  };
  return { database: { listen } as unknown as Database, notify: (payload) => heard.forEach((onNotice) => onNotice(payload)) };
}

/** Whether the promise has settled once what is due now has run; no timer moves. */
async function settled(promise: Promise<void>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await vi.advanceTimersByTimeAsync(0);
  return done;
}

describe('the bell of the event streams', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());
  const open = new AbortController().signal;

  it("rings a stream of the event's office and the platform's, not another office's", async () => {
    const { database, notify } = fakeDatabase();
    const bell = await eventBell(database);
    const own = bell.arm(7).rung(60_000, open);
    const other = bell.arm(8).rung(60_000, open);
    const platform = bell.arm(null).rung(60_000, open);
    notify('7');
    expect([await settled(own), await settled(other), await settled(platform)]).toEqual([true, false, true]);
  });

  it('rings a stream armed before its read for an event committed before its wait', async () => {
    const { database, notify } = fakeDatabase();
    const bell = await eventBell(database);
    const armed = bell.arm(7);
    notify('7');
    expect(await settled(armed.rung(60_000, open))).toBe(true);
  });

  it('rings every stream when notifications may have been lost (a reconnected listener)', async () => {
    const { database, notify } = fakeDatabase();
    const bell = await eventBell(database);
    const waits = [bell.arm(7).rung(60_000, open), bell.arm(8).rung(60_000, open)];
    notify(undefined);
    expect(await Promise.all(waits.map(settled))).toEqual([true, true]);
  });

  it('looks now and then while hearing, and every half second when it cannot hear', async () => {
    const hearing = await eventBell(fakeDatabase().database);
    const deaf = await eventBell(fakeDatabase(false).database);
    const slow = hearing.arm(7).rung(60_000, open);
    const fast = deaf.arm(7).rung(60_000, open);
    await vi.advanceTimersByTimeAsync(500);
    expect([await settled(slow), await settled(fast)]).toEqual([false, true]);
    await vi.advanceTimersByTimeAsync(4_500);
    expect(await settled(slow)).toBe(true);
  });

  it('ends a wait when its stream ends', async () => {
    const bell = await eventBell(fakeDatabase().database);
    const closed = new AbortController();
    const wait = bell.arm(7).rung(60_000, closed.signal);
    expect(await settled(wait)).toBe(false);
    closed.abort();
    expect(await settled(wait)).toBe(true);
  });
});
