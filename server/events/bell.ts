import type { Database } from '../db/index.ts';

/**
 * What wakes this process's event streams: the database's notification of an event's commit (migration 0030), on
 * whichever node it happened. A stream arms its wait before it reads, so an event committed between its read and its
 * wait still wakes it. Where nothing can be heard (the listening connection failed), streams look every half second,
 * the time a screen has to follow a borrower's step; while hearing, they still look now and then, for a notification
 * lost in a dropped connection.
 */

/** An office, or null: every office (the platform admins' streams). */
export type Whose = number | null;

const LOOK_EVERY_MS = 500;
const LOOK_WHILE_HEARING_MS = 5_000;
const CHANNEL = 'pos_events';

export interface Armed {
  /** Until an event of the office may have been committed, at most `ms` (or the bell's own look), or the signal. */
  rung(ms: number, signal: AbortSignal): Promise<void>;
  /** Not waited for after all (the read filled a batch, the stream ended). */
  disarm(): void;
}

export interface EventBell {
  arm(officeId: Whose): Armed;
}

type Waiter = { officeId: Whose; ring: () => void };

async function createBell(database: Database): Promise<EventBell> {
  const waiting = new Set<Waiter>();
  let lookMs = LOOK_EVERY_MS;
  try {
    await database.listen(CHANNEL, (payload) => {
      for (const waiter of waiting) {
        if (payload === undefined || waiter.officeId === null || String(waiter.officeId) === payload) waiter.ring();
      }
    });
    lookMs = LOOK_WHILE_HEARING_MS;
  } catch {
    // Not heard: the streams look as often as a screen needs.
  }
  return {
    arm(officeId) {
      let rang = false;
      let ring: () => void = () => void (rang = true);
      const waiter: Waiter = { officeId, ring: () => ring() };
      waiting.add(waiter);
      return {
        disarm: () => void waiting.delete(waiter),
        rung(ms, signal) {
          return new Promise<void>((resolve) => {
            const done = () => {
              clearTimeout(timer);
              signal.removeEventListener('abort', done);
              waiting.delete(waiter);
              resolve();
            };
            const timer = setTimeout(done, Math.min(ms, lookMs));
            signal.addEventListener('abort', done);
            ring = done;
            if (rang || signal.aborted) done();
          });
        },
      };
    },
  };
}

const bells = new WeakMap<Database, Promise<EventBell>>();

/** One bell per database in a process, listening from the first stream on. */
export function eventBell(database: Database): Promise<EventBell> {
  let bell = bells.get(database);
  if (!bell) bells.set(database, (bell = createBell(database)));
  return bell;
}
