import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
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

/**
 * One port, both protocols (docs/decisions/0061-https-and-the-local-certificate.md): connections that
 * open with a TLS handshake go to the https server that runs the app; plain-http connections go to a
 * small http server that only redirects to `publicUrl` (308, same path) and answers PLAIN_HTTP_PATHS
 * through the app. So http://localhost:3000 typed in a browser lands on https://localhost:3000, and
 * the issuer, the MSAL authority and the app share one origin. Pass it to Fastify as `serverFactory`.
 */
export function dualProtocolServer(handler: (request: IncomingMessage, response: ServerResponse) => void, options: DualProtocolOptions): HttpsServer {
  const server = createHttpsServer({ key: options.key, cert: options.cert, minVersion: 'TLSv1.2' }, handler);
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
