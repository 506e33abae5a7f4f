import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type RequestListener } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';

/**
 * A caller's callback endpoint on 127.0.0.1: records what lenders post, refusing the first `failures` of them. Over
 * https with `tls` (the portal in demo mode, with its self-signed certificate).
 */
export interface Receiver {
  url: string;
  /** What arrived, with when (process.hrtime.bigint()): the benches measure deliveries by it. */
  received: { headers: IncomingHttpHeaders; body: string; status: number; at: bigint }[];
  /** How many of the next posts answer 500 before the endpoint acknowledges. */
  failures: number;
  /** Resolves with the posts (those `which` keeps) once `count` of them arrived, or rejects after `ms`. */
  waitFor(count: number, ms?: number, which?: (post: Receiver['received'][number]) => boolean): Promise<Receiver['received']>;
  /** Stops listening, so a post is refused as by a receiver that is down; `start` listens again at the same address. */
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

export async function startReceiver(tls?: { key: Buffer; cert: Buffer }): Promise<Receiver> {
  const receiver = { received: [], failures: 0 } as unknown as Receiver;
  const listener: RequestListener = (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const status = receiver.failures > 0 ? 500 : 200;
      if (status === 500) receiver.failures -= 1;
      receiver.received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8'), status, at: process.hrtime.bigint() });
      response.writeHead(status, { 'content-type': 'application/json' }).end('{}');
    });
  };
  const server = tls ? createHttpsServer(tls, listener) : createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  receiver.url = `${tls ? 'https' : 'http'}://localhost:${port}/callback`;
  receiver.waitFor = async (count, ms = 5000, which = () => true) => {
    const until = Date.now() + ms;
    for (;;) {
      const posts = receiver.received.filter(which);
      if (posts.length >= count) return posts;
      if (Date.now() > until) throw new Error(`${posts.length} of ${count} posts arrived in ${ms} ms`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  receiver.stop = () => new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
  receiver.start = () => new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  receiver.close = () => (server.listening ? receiver.stop() : Promise.resolve());
  return receiver;
}

/** Whether one of a webhook post's signatures is the secret's (Standard Webhooks: HMAC-SHA256 over id, timestamp and body). */
export function signedBy(secret: string, post: Receiver['received'][number]): boolean {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const expected = `v1,${createHmac('sha256', key).update(`${post.headers['webhook-id']}.${post.headers['webhook-timestamp']}.${post.body}`).digest('base64')}`;
  return String(post.headers['webhook-signature']).split(' ').includes(expected);
}
