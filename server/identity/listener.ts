import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createSecureServer, type Http2SecureServer, type Http2Session } from 'node:http2';
import type { TLSSocket } from 'node:tls';
import type { Socket } from 'node:net';

/** Plain-http paths answered as they are (harnesses and load balancers probe them); everything else redirects. */
export const PLAIN_HTTP_PATHS = new Set(['/api/health']);

/** A TLS connection starts with a handshake record (content type 22); anything else is plain http. */
const TLS_HANDSHAKE = 0x16;

export interface DualProtocolOptions {
  key: Buffer;
  cert: Buffer;
  /** The https origin plain-http requests are redirected to (PUBLIC_URL). */
  publicUrl: string;
}

/** The https side: HTTP/2 where the browser offers it, HTTP/1.1 otherwise; Fastify's shutdown closes what is idle. */
export type DualProtocolServer = Http2SecureServer & { closeIdleConnections(): void };

/**
 * One port, both protocols (docs/decisions/0061-https-and-the-local-certificate.md): connections that
 * open with a TLS handshake go to the https server that runs the app; plain-http connections go to a
 * small http server that only redirects to `publicUrl` (308, same path) and answers PLAIN_HTTP_PATHS
 * through the app. So http://localhost:3000 typed in a browser lands on https://localhost:3000, and
 * the issuer, the MSAL authority and the app share one origin. Pass it to Fastify as `serverFactory`.
 * The https side speaks HTTP/2 to browsers that offer it (ALPN; docs/decisions/0243): a phone fetches a page's
 * chunks over one connection, with their headers compressed, instead of queueing them on six.
 */
export function dualProtocolServer(handler: (request: IncomingMessage, response: ServerResponse) => void, options: DualProtocolOptions): DualProtocolServer {
  const server = createSecureServer({ key: options.key, cert: options.cert, minVersion: 'TLSv1.2', allowHTTP1: true }, handler as never) as DualProtocolServer;
  const sessions = new Set<Http2Session>();
  server.on('session', (session: Http2Session) => {
    sessions.add(session);
    session.once('close', () => sessions.delete(session));
  });
  // HTTP/1.1 over TLS: each socket with the number of its requests still being answered.
  const http1 = new Map<TLSSocket, number>();
  server.on('secureConnection', (socket: TLSSocket) => {
    if (socket.alpnProtocol === 'h2') return;
    http1.set(socket, 0);
    socket.once('close', () => http1.delete(socket));
  });
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const socket = request.socket as TLSSocket;
    const open = http1.get(socket);
    if (open === undefined) return;
    http1.set(socket, open + 1);
    response.once('close', () => http1.has(socket) && http1.set(socket, http1.get(socket)! - 1));
  });
  // A session ends once its open streams are answered; an HTTP/1.1 socket is closed if it has none.
  server.closeIdleConnections = () => {
    for (const session of sessions) session.close();
    for (const [socket, open] of http1) if (open === 0) socket.destroy();
  };
  const plainSockets = new Set<Socket>();
  const plain = createHttpServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0]!;
    if (PLAIN_HTTP_PATHS.has(path) && (request.method === 'GET' || request.method === 'HEAD')) {
      handler(request, response);
      return;
    }
    const location = new URL(request.url ?? '/', options.publicUrl).href;
    response.writeHead(308, { location, 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
    response.end(`Use ${location}\n`);
  });
  plain.keepAliveTimeout = 5_000;

  const tlsListeners = server.listeners('connection') as ((socket: Socket) => void)[];
  server.removeAllListeners('connection');
  server.on('connection', (socket: Socket) => {
    socket.setTimeout(30_000, () => socket.destroy());
    socket.once('readable', function peek() {
      const first = socket.read(1) as Buffer | null;
      if (first === null) {
        // Closed before sending anything, or nothing buffered yet.
        if (!socket.destroyed && !socket.readableEnded) socket.once('readable', peek);
        return;
      }
      socket.unshift(first);
      socket.setTimeout(0);
      if (first[0] === TLS_HANDSHAKE) {
        for (const listener of tlsListeners) listener.call(server, socket);
      } else {
        plainSockets.add(socket);
        socket.once('close', () => plainSockets.delete(socket));
        plain.emit('connection', socket);
      }
    });
  });
  server.once('close', () => {
    for (const socket of plainSockets) socket.destroy();
  });
  return server;
}
