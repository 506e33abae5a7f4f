/**
 * A pre-qualification waiting on a lender that decides by callback watches that application from its first wait to
 * the decision: a callback that arrives while it reads the lender's status (between two waits) is its news too. Before,
 * such a callback found no one waiting and was applied at once, beside the pre-qualification — in the demo's reopening,
 * against the application's old lender id, refused (409) and retried by the lender eight times.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tellLenderNews, watchLenderNews } from '../../server/lenders/http/news.ts';

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
});
