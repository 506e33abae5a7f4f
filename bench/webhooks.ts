import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import type { Settings } from '../server/config.ts';
import type { Database } from '../server/db/index.ts';
import { encryptPii } from '../server/crypto/pii.ts';
import { recordEvent } from '../server/events/record.ts';
import { eventStream } from '../server/events/stream.ts';
import { newWebhookSecret } from '../server/events/signing.ts';
import { webhookQueues } from '../server/events/webhook-delivery.ts';
import { createJobRunner, type JobRunner } from '../server/jobs/runner.ts';
import { startReceiver } from '../tests/support/receiver.ts';
import type { DatabaseKind } from './profiles.ts';
import { fresh } from './queue.ts';
import { percentile } from './stats.ts';

/**
 * From a state change to a webhook received (issue 39; decision 0266): events recorded one per transaction, as
 * requests record them, each kicking its process's runner after the commit; a receiver on loopback acknowledges each
 * signed delivery. Events per second through a burst, and at a steady 20 a second each event's time from its commit
 * to its arrival (p50, p99), with one node, and on PostgreSQL with two (two runners on two connections, the events spread over both). Deliveries
 * of one application go in order, so the events are spread over 50 applications.
 */
const APPLICATIONS = 50;
const quiet = { error: (o: object, m: string) => console.error(m, o), warn: () => {} };

/** A platform admin's stream on this node, from now on: each expected event's time from its commit to its frame. */
async function liveScreen(database: Database, expected: number): Promise<{ read(committed: Map<string, bigint>): Promise<number[]> }> {
  const closed = new AbortController();
  const stream = (await eventStream(database, null, undefined, 300, closed.signal)) as Readable;
  const seen = new Map<string, bigint>();
  // A frame may come in two chunks: what follows the last complete frame waits for the next one.
  let rest = '';
  stream.on('data', (chunk: Buffer) => {
    const at = process.hrtime.bigint();
    const frames = (rest + String(chunk)).split('\n\n');
    rest = frames.pop()!;
    for (const frame of frames) {
      const id = /^data: \{"id":"([^"]+)"/m.exec(frame)?.[1];
      if (id) seen.set(id, at);
    }
  });
  return {
    async read(committed) {
      for (let waited = 0; seen.size < expected && waited < 60_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
      closed.abort();
      return [...committed].map(([id, at]) => Number(seen.get(id)! - at) / 1e6);
    },
  };
}

export async function benchWebhooks(kind: DatabaseKind, postgresUrl: string | undefined, quick: boolean): Promise<string[]> {
  const count = quick ? 200 : 1_000;
  const paced = quick ? 60 : 200;
  const lines: string[] = [];
  for (const nodes of kind === 'postgres' ? [1, 2] : [1]) {
    const database = await fresh(kind, postgresUrl);
    const handles = [await database.open()];
    if (nodes === 2) handles.push(await database.open());
    const receiver = await startReceiver();
    const runners: JobRunner[] = [];
    try {
      const settings = { mode: 'demo', piiKey: randomBytes(32), publicUrl: 'https://localhost:3000' } as Settings;
      await handles[0]!.db.execute(sql`
        insert into webhook_endpoints (office_id, url, event_types, secret)
        values (null, ${receiver.url}, '["application.signed"]'::jsonb, ${encryptPii(settings.piiKey, newWebhookSecret())})`);
      for (const handle of handles) runners.push(createJobRunner(handle.db, webhookQueues(handle.db, settings), quiet));
      const committed = new Map<string, bigint>();
      const record = async (i: number) => {
        const node = i % nodes;
        const { eventId } = await handles[node]!.db.transaction((tx) =>
          recordEvent(tx, { type: 'application.signed', officeId: null, appId: 1 + (i % APPLICATIONS), subject: { kind: 'application', id: 1 + (i % APPLICATIONS) } }),
        );
        committed.set(eventId, process.hrtime.bigint());
        runners[node]!.kick();
      };
      // Throughput: a burst, recorded as fast as one writer can, until the receiver has every one.
      const started = process.hrtime.bigint();
      for (let i = 0; i < count; i++) await record(i);
      await receiver.waitFor(count, 120_000);
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      // Time to arrive: events at a steady 20 a second, each timed from its commit to the receiver, and to a live
      // screen's stream open on the last node (the other one, with two).
      committed.clear();
      const before = receiver.received.length;
      const screen = await liveScreen(handles.at(-1)!, paced);
      for (let i = 0; i < paced; i++) {
        await record(count + i);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await receiver.waitFor(before + paced, 60_000);
      const onScreen = await screen.read(committed);
      const arrived = new Map<string, bigint>();
      for (const post of receiver.received.slice(before)) arrived.set(String(post.headers['webhook-id']), post.at);
      const delays = [...committed].map(([id, at]) => Number(arrived.get(id)! - at) / 1e6);
      lines.push(
        `Webhooks (${kind}, ${nodes} node${nodes === 1 ? '' : 's'}): ${Math.round(count / seconds).toLocaleString('en-US')} events/s from commit to receiver (a burst of ${count}); ` +
          `at 20 events/s, commit to arrival p50 ${percentile(delays, 50).toFixed(1)} ms, p99 ${percentile(delays, 99).toFixed(1)} ms (${paced} events); ` +
          `commit to a live screen's stream${nodes === 2 ? ' on the other node' : ''} p50 ${percentile(onScreen, 50).toFixed(1)} ms, p99 ${percentile(onScreen, 99).toFixed(1)} ms`,
      );
    } finally {
      for (const runner of runners) await runner.stop();
      await receiver.close();
      for (const handle of handles) await handle.close();
      await database.drop();
    }
  }
  return lines;
}
