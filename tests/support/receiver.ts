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
  /** Resolves with the posts once `count` of them arrived (or rejects after `ms`). */
  waitFor(count: number, ms?: number): Promise<Receiver['received']>;
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
  receiver.url = `${tls ? 'https' : 'http'}://localhost:${(server.address() as AddressInfo).port}/callback`;
  receiver.waitFor = async (count, ms = 5000) => {
    const until = Date.now() + ms;
    while (receiver.received.length < count) {
      if (Date.now() > until) throw new Error(`${receiver.received.length} of ${count} callbacks arrived in ${ms} ms`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return receiver.received;
  };
  receiver.close = () => new Promise((resolve) => server.close(() => resolve()));
  return receiver;
}
