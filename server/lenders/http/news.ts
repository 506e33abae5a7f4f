/**
 * Word that a lender has news about one of its applications — its signed callback arrived in this process — for a
 * pre-qualification waiting on that lender's decision: it reads the decision at once instead of at its next poll. On
 * several processes a callback may reach another one; the waiting side's poll covers that.
 */
type Waiter = () => void;

const waiting = new Map<string, Set<Waiter>>();
const keyOf = (code: string, lenderAppId: string) => `${code}\n${lenderAppId}`;

/** The callback's side: wakes whoever waits on this application of this lender; whether anyone did. */
export function tellLenderNews(code: string, lenderAppId: string): boolean {
  const waiters = [...(waiting.get(keyOf(code, lenderAppId)) ?? [])];
  for (const wake of waiters) wake();
  return waiters.length > 0;
}

/** The waiting side: resolves on news, after `ms`, or when `signal` aborts, whichever comes first. */
export function lenderNews(code: string, lenderAppId: string, ms: number, signal: AbortSignal): Promise<void> {
  const key = keyOf(code, lenderAppId);
  return new Promise((resolve) => {
    const waiters = waiting.get(key) ?? new Set<Waiter>();
    waiting.set(key, waiters);
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      waiters.delete(done);
      if (waiters.size === 0) waiting.delete(key);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    waiters.add(done);
  });
}
