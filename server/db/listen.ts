import pg from 'pg';

/**
 * Notifications of PostgreSQL's NOTIFY, heard on one connection of its own: a pooled connection goes back to the pool
 * between statements and would stop hearing. A dropped connection is opened again after a pause, and each listener
 * is then told once with no payload: what was notified while nobody listened is lost, so it must look for itself.
 * Listeners keep a slow look of their own besides (server/events/bell.ts), so a connection that cannot be opened costs
 * latency, not events; it is not logged apart.
 */

export type OnNotice = (payload: string | undefined) => void;

export interface Listener {
  listen(channel: string, onNotice: OnNotice): Promise<() => void>;
  close(): Promise<void>;
}

const REOPEN_AFTER_MS = 1_000;

export function postgresListener(url: string): Listener {
  const heard = new Map<string, Set<OnNotice>>();
  let client: pg.Client | undefined;
  let opening: Promise<pg.Client> | undefined;
  let closed = false;

  const tellAll = (channel: string, payload: string | undefined) => {
    for (const onNotice of heard.get(channel) ?? []) onNotice(payload);
  };

  async function open(): Promise<pg.Client> {
    const next = new pg.Client({ connectionString: url });
    next.on('notification', (message) => tellAll(message.channel, message.payload));
    next.on('error', () => dropped(next));
    next.on('end', () => dropped(next));
    await next.connect();
    for (const channel of heard.keys()) await next.query(`LISTEN ${quoted(channel)}`);
    return next;
  }

  function connection(): Promise<pg.Client> {
    if (client) return Promise.resolve(client);
    opening ??= open().then(
      (opened) => {
        client = opened;
        opening = undefined;
        return opened;
      },
      (error: unknown) => {
        opening = undefined;
        throw error;
      },
    );
    return opening;
  }

  function dropped(which: pg.Client): void {
    if (client !== which) return;
    client = undefined;
    void which.end().catch(() => {});
    if (closed) return;
    const reopen = () => {
      if (closed || heard.size === 0) return;
      connection().then(
        () => {
          for (const channel of heard.keys()) tellAll(channel, undefined);
        },
        () => setTimeout(reopen, REOPEN_AFTER_MS).unref(),
      );
    };
    setTimeout(reopen, REOPEN_AFTER_MS).unref();
  }

  return {
    async listen(channel, onNotice) {
      const listeners = heard.get(channel) ?? new Set<OnNotice>();
      const first = listeners.size === 0;
      listeners.add(onNotice);
      heard.set(channel, listeners);
      try {
        if (first) await (await connection()).query(`LISTEN ${quoted(channel)}`);
      } catch (error) {
        listeners.delete(onNotice);
        throw error;
      }
      return () => void listeners.delete(onNotice);
    },
    async close() {
      closed = true;
      const last = client ?? (await opening?.catch(() => undefined));
      client = undefined;
      await last?.end().catch(() => {});
    },
  };
}

/** A channel is an identifier, not a value: LISTEN takes no parameter. Ours are written in code, never given. */
function quoted(channel: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new TypeError(`not a channel name: ${channel}`);
  return `"${channel}"`;
}
