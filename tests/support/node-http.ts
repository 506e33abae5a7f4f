import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { createServer } from 'node:net';
import type { FastifyInstance } from 'fastify';

/** What a call over the network answered, in the shape fastify's inject gives the API tests. */
export interface NetworkAnswer {
  statusCode: number;
  headers: IncomingHttpHeaders;
  body: string;
  json(): unknown;
}

export interface NetworkCall {
  method: string;
  url: string;
  headers?: Record<string, string | undefined>;
  payload?: string | object;
}

/** One call to 127.0.0.1:port over HTTP, its Host header as given (brands and the sign-in pages go by it). */
export function callPort(port: number, call: NetworkCall): Promise<NetworkAnswer> {
  const body = call.payload === undefined ? undefined : typeof call.payload === 'string' ? call.payload : JSON.stringify(call.payload);
  const headers: Record<string, string> = { ...(body !== undefined && typeof call.payload === 'object' ? { 'content-type': 'application/json' } : {}) };
  for (const [name, value] of Object.entries(call.headers ?? {})) if (value !== undefined) headers[name.toLowerCase()] = value;
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method: call.method, path: call.url, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ statusCode: res.statusCode ?? 0, headers: res.headers, body: text, json: () => JSON.parse(text) });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Something that answers `inject` as a fastify instance does, over the network to the port `at` names for each call:
 * the sign-in flow of the API tests (identity-flow.ts) walks the built-in provider on real processes with it.
 */
export function overNetwork(at: (call: NetworkCall) => number): FastifyInstance {
  return { inject: (options: NetworkCall) => callPort(at(options), options) } as unknown as FastifyInstance;
}

/** An open server-sent event stream over HTTP: what it said so far, and its end. */
export function openStream(port: number, call: Omit<NetworkCall, 'method' | 'payload'>): { text: () => string; close: () => void; status: Promise<number> } {
  let text = '';
  let close = () => {};
  const status = new Promise<number>((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method: 'GET', path: call.url, headers: call.headers as Record<string, string> }, (res) => {
      resolve(res.statusCode ?? 0);
      res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      res.on('error', () => {});
    });
    close = () => req.destroy();
    req.on('error', reject);
    req.end();
  });
  return { text: () => text, close: () => close(), status };
}

/** A port nothing listens on now, for a process to take. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
