/**
 * A pre-qualification waiting on a lender that decides by callback watches that application from its first wait to
 * the decision: a callback that arrives while it reads the lender's status (between two waits) is its news too. Before,
 * such a callback found no one waiting and was applied at once, beside the pre-qualification — in the demo's reopening,
 * against the application's old lender id, refused (409) and retried by the lender eight times.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tellLenderNews, waterfallOver, watchLenderNews, whileAsking } from '../../server/lenders/http/news.ts';

/** Whether a promise has settled yet, read after the timers moved. */
function settled(promise: Promise<void>): () => boolean {
  let done = false;
  void promise.then(() => (done = true));
  return () => done;
}

afterEach(() => vi.useRealTimers());

describe('lender news', () => {
  it('keeps news that came between two waits for the next wait, and is no one’s once the watch is closed', async () => {
    vi.useFakeTimers();
    const signal = new AbortController().signal;
    expect(tellLenderNews('acme', 'A-1')).toBe(false);
    const watch = watchLenderNews('acme', 'A-1');
    expect(tellLenderNews('acme', 'A-1')).toBe(true);
    const first = settled(watch.wait(60_000, signal));
    await vi.advanceTimersByTimeAsync(0);
    expect(first()).toBe(true);

    const second = settled(watch.wait(60_000, signal));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(second()).toBe(false);
    expect(tellLenderNews('acme', 'A-1')).toBe(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(second()).toBe(true);

    const third = settled(watch.wait(60_000, signal));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(third()).toBe(true);
    watch.close();
    expect(tellLenderNews('acme', 'A-1')).toBe(false);
    expect(tellLenderNews('acme', 'A-2')).toBe(false);
  });

  it('tells a callback when the waterfall of its application is over, whether it recorded or failed, or after the bound', async () => {
    vi.useFakeTimers();
    await expect(waterfallOver(7, 60_000)).resolves.toBeUndefined();

    let finish = () => {};
    const asked = whileAsking(7, () => new Promise<string>((resolve) => (finish = () => resolve('recorded'))));
    const over = settled(waterfallOver(7, 60_000));
    const otherApplication = settled(waterfallOver(8, 60_000));
    await vi.advanceTimersByTimeAsync(5_000);
    expect(over()).toBe(false);
    expect(otherApplication()).toBe(true);
    finish();
    await expect(asked).resolves.toBe('recorded');
    await vi.advanceTimersByTimeAsync(0);
    expect(over()).toBe(true);

    const failing = whileAsking(7, () => Promise.reject(new Error('the database went away')));
    const afterFailure = settled(waterfallOver(7, 60_000));
    await expect(failing).rejects.toThrow('the database went away');
    await vi.advanceTimersByTimeAsync(0);
    expect(afterFailure()).toBe(true);

    void whileAsking(9, () => new Promise<void>(() => {}));
    const bounded = settled(waterfallOver(9, 10_000));
    await vi.advanceTimersByTimeAsync(9_999);
    expect(bounded()).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(bounded()).toBe(true);
  });
});
