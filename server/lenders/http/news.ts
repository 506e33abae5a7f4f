/**
 * Word that a lender has news about one of its applications — its signed callback arrived in this process — for a
 * pre-qualification waiting on that lender's decision: it reads the decision at once instead of at its next poll. On
 * several processes a callback may reach another one; the waiting side's poll covers that. And the callback's side may
 * wait for that waterfall to be over before it stores its own backstop, so that the borrower's answer does not wait
 * for that write.
 */

/** One pre-qualification's interest in one application, from its first wait to its decision. */
interface Watch {
  /** Ends the wait under way, if one is. */
  wake?: () => void;
  /** News came while no wait was under way (the status was being read): the next wait ends at once. */
  told: boolean;
}

const watching = new Map<string, Set<Watch>>();
const keyOf = (code: string, lenderAppId: string) => `${code}\n${lenderAppId}`;

/**
 * The callback's side: tells whoever watches this application of this lender; whether anyone does. A watcher between
 * two waits counts: the callback is then left to it, not applied beside it.
 */
export function tellLenderNews(code: string, lenderAppId: string): boolean {
  const watches = watching.get(keyOf(code, lenderAppId));
  if (!watches?.size) return false;
  for (const watch of watches) {
    watch.told = true;
    watch.wake?.();
  }
  return true;
}

export interface LenderNewsWatch {
  /** Resolves on news (at once if some came since the last wait), after `ms`, or when `signal` aborts. */
  wait(ms: number, signal: AbortSignal): Promise<void>;
  /** The decision is read: news of this application is no longer this watcher's. */
  close(): void;
}

/** The waiting side: watches one application of one lender from the first wait to the decision. */
export function watchLenderNews(code: string, lenderAppId: string): LenderNewsWatch {
  const key = keyOf(code, lenderAppId);
  const watch: Watch = { told: false };
  const watches = watching.get(key) ?? new Set<Watch>();
  watching.set(key, watches);
  watches.add(watch);
  return {
    wait(ms, signal) {
      return new Promise((resolve) => {
        const done = () => {
          clearTimeout(timer);
          signal.removeEventListener('abort', done);
          watch.wake = undefined;
          watch.told = false;
          resolve();
        };
        const timer = setTimeout(done, watch.told || signal.aborted ? 0 : ms);
        signal.addEventListener('abort', done, { once: true });
        watch.wake = done;
      });
    },
    close() {
      watch.wake?.();
      watches.delete(watch);
      if (watches.size === 0) watching.delete(key);
    },
  };
}

/** Applications whose waterfall runs in this process: each until its answers are recorded (or it failed). */
const asking = new Map<number, Promise<void>>();

/** The waterfall's side: application `appId`'s waterfall is under way while `work` runs. */
export async function whileAsking<T>(appId: number, work: () => Promise<T>): Promise<T> {
  let end = () => {};
  const over = new Promise<void>((resolve) => (end = resolve));
  asking.set(appId, over);
  try {
    return await work();
  } finally {
    if (asking.get(appId) === over) asking.delete(appId);
    end();
  }
}

/**
 * The callback's side: resolves when application `appId`'s waterfall in this process is over (at once if none runs),
 * or after `ms`. A turn after it ends: the answer's own last write (its Idempotency-Key's) is asked for first.
 */
export function waterfallOver(appId: number, ms: number): Promise<void> {
  const over = asking.get(appId);
  if (!over) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    void over.then(() => {
      clearTimeout(timer);
      setImmediate(resolve);
    });
  });
}
