import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import type { Database, Db } from '../db/index.ts';
import { eventBell, type Whose } from './bell.ts';
import { eventOf, type EventRow } from './event-view.ts';

/**
 * An office's events — or every office's, for platform admins — as server-sent events (issue 39 item 4; decision 0267), read from the `events` table so that
 * every node serves every event, whichever node recorded it. A stream starts after the client's Last-Event-ID (else
 * at the newest event: what happened before is in the lists the page just read), sends what follows as it is
 * committed — woken by the database's notification of the commit, else looked for every half second (bell.ts) — with a
 * comment now and then so that proxies keep it open, and ends after `wait` seconds; the client comes back with the
 * last id it read, so a drop loses nothing.
 */

const KEEP_ALIVE_MS = 15_000;
const BATCH = 100;

type Row = EventRow & { id: number };

const ofWhose = (officeId: Whose) => (officeId === null ? sql`true` : sql`office_id = ${officeId}`);

async function eventsAfter(db: Db, officeId: Whose, after: number): Promise<Row[]> {
  const rows = await db.execute<Row>(sql`
    select id, event_id, type, office_id, app_id, subject, data, occurred_at from events
    where ${ofWhose(officeId)} and id > ${after} order by id limit ${BATCH}`);
  return rows.rows;
}

const frame = (row: Row) => `id: ${row.id}\nevent: ${row.type}\ndata: ${JSON.stringify(eventOf(row))}\n\n`;

async function startingPoint(db: Db, officeId: Whose, lastEventId: string | undefined): Promise<number> {
  if (lastEventId !== undefined) return Number(lastEventId);
  const [row] = (await db.execute<{ id: number | null }>(sql`select max(id) as id from events where ${ofWhose(officeId)}`)).rows;
  return Number(row?.id ?? 0);
}

/** The streams of this process, ended when it stops: an open stream would otherwise hold the server's close for its `wait`. */
const open = new Set<AbortController>();

export function endEventStreams(): void {
  for (const stream of open) stream.abort();
}

/** With `wait` 0, what there is now as one answer; else a stream, which `closed` (the client gone) or the server's close ends early. */
export async function eventStream(database: Database, officeId: Whose, lastEventId: string | undefined, waitSeconds: number, closed: AbortSignal): Promise<string | Readable> {
  const { db } = database;
  let last = await startingPoint(db, officeId, lastEventId);
  if (waitSeconds === 0) return `retry: 1000\n\n${(await eventsAfter(db, officeId, last)).map(frame).join('')}`;
  const bell = await eventBell(database);
  const until = Date.now() + waitSeconds * 1000;
  let quietSince = Date.now();
  const ended = new AbortController();
  open.add(ended);
  const signal = AbortSignal.any([closed, ended.signal]);
  async function* frames(): AsyncGenerator<string> {
    yield 'retry: 1000\n\n';
    try {
      yield* follow();
    } finally {
      open.delete(ended);
    }
  }
  async function* follow(): AsyncGenerator<string> {
    while (!signal.aborted && Date.now() < until) {
      const armed = bell.arm(officeId);
      try {
        const rows = await eventsAfter(db, officeId, last);
        for (const row of rows) {
          last = Number(row.id);
          yield frame(row);
        }
        if (rows.length > 0) quietSince = Date.now();
        else if (Date.now() - quietSince >= KEEP_ALIVE_MS) {
          quietSince = Date.now();
          yield ': still here\n\n';
        }
        if (rows.length < BATCH) await armed.rung(Math.max(0, Math.min(quietSince + KEEP_ALIVE_MS, until) - Date.now()), signal);
      } finally {
        armed.disarm();
      }
    }
  }
  return Readable.from(frames(), { objectMode: false });
}
