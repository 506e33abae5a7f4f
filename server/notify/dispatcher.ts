import { sql } from 'drizzle-orm';
import type { Db } from '../db/index.ts';

/** What a dispatcher delivers through: SMTP (nodemailer) and an HTTP SMS gateway (transports.ts). */
export interface Transport {
  channel: 'Email' | 'Sms';
  deliver(message: { recipient: string; subject: string | null; body: string }): Promise<void>;
}

/**
 * Hands `Pending` outbox rows to the configured transports (docs/decisions/0066, 0104). A row is
 * claimed in a short statement (`FOR UPDATE SKIP LOCKED`, then `sent_at` = the attempt's time), and
 * delivered outside any transaction, so a slow SMTP server never holds a database connection and
 * several processes can dispatch at once. On a Pending row `sent_at` is the last attempt: a row is
 * tried again after RETRY_AFTER (also a row whose process died mid-delivery — at least once), and a
 * row that failed MAX_ATTEMPTS times becomes Failed. Rows of a channel without a transport stay
 * Pending: in demo mode they are read on /dev/outbox.
 */
export const MAX_ATTEMPTS = 5;
const RETRY_AFTER = sql`interval '2 minutes'`;

export interface DispatchResult {
  sent: number;
  failed: number;
}

export async function dispatchPending(db: Db, transports: Partial<Record<'Email' | 'Sms', Transport>>, limit = 20): Promise<DispatchResult> {
  const channels = Object.keys(transports) as ('Email' | 'Sms')[];
  const result: DispatchResult = { sent: 0, failed: 0 };
  if (channels.length === 0) return result;
  const claimed = await db.execute<{ id: number; channel: 'Email' | 'Sms'; recipient: string; subject: string | null; body: string; attempts: number }>(sql`
    update outbox set sent_at = now(), attempts = attempts + 1
    where id in (
      select id from outbox
      where status = 'Pending' and channel in (${sql.join(channels.map((c) => sql`${c}::message_channel`), sql`, `)})
        and (sent_at is null or sent_at < now() - ${RETRY_AFTER})
      order by created_at, id limit ${limit} for update skip locked)
    returning id, channel, recipient, subject, body, attempts`);
  for (const row of claimed.rows) {
    try {
      await transports[row.channel]!.deliver({ recipient: row.recipient, subject: row.subject, body: row.body });
      await db.execute(sql`update outbox set status = 'Sent', sent_at = now(), last_error = null where id = ${row.id}`);
      result.sent += 1;
    } catch (error) {
      const status = Number(row.attempts) >= MAX_ATTEMPTS ? 'Failed' : 'Pending';
      await db.execute(sql`update outbox set status = ${status}::outbox_status, last_error = ${String((error as Error).message).slice(0, 500)} where id = ${row.id}`);
      result.failed += 1;
    }
  }
  return result;
}

/**
 * A dispatcher for one process: `kick()` after a commit that queued messages, and a slow timer for
 * retries and for messages queued by other processes. Does nothing when no transport is configured.
 */
export function createDispatcher(db: Db, transports: Partial<Record<'Email' | 'Sms', Transport>>, log: { error(obj: object, msg: string): void }) {
  const active = Object.keys(transports).length > 0;
  let running: Promise<void> | undefined;
  let again = false;
  const run = async () => {
    do {
      again = false;
      try {
        const { sent, failed } = await dispatchPending(db, transports);
        if (sent + failed === 20) again = true;
      } catch (error) {
        log.error({ err: error }, 'outbox dispatch failed');
      }
    } while (again);
  };
  const kick = () => {
    if (!active) return;
    if (running) {
      again = true;
      return;
    }
    running = run().finally(() => {
      running = undefined;
    });
  };
  let timer: NodeJS.Timeout | undefined;
  return {
    active,
    kick,
    /** Retries every `intervalMs`; the timer does not keep the process alive. */
    start(intervalMs = 15_000) {
      if (!active || timer) return;
      timer = setInterval(kick, intervalMs);
      timer.unref();
      kick();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await running;
    },
  };
}

export type Dispatcher = ReturnType<typeof createDispatcher>;
