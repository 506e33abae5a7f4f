/**
 * How API answers travel (issue 17, docs/decisions/0200):
 * - nothing is stored by a browser or a proxy (Cache-Control: no-store): answers carry patients' data, and office
 *   devices are shared;
 * - except the public reads the contract marks `x-cache: revalidate` (reference lists, a landing page, a logo): asked
 *   without anyone's token they get an ETag and `no-cache`, so a repeat visit revalidates them for a 304 instead of
 *   downloading them again; and those it marks `x-cache: immutable` (named by their content) are kept for a year;
 * - JSON answers of 1 KB or more are compressed (brotli at a quality that costs well under a millisecond, or gzip),
 *   per the request's Accept-Encoding.
 */
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { contentEtag, preferredEncoding, stillFresh } from './encoding.ts';
import type { OperationCache } from '../../core/contract/operations.ts';

export const IMMUTABLE = 'public, max-age=31536000, immutable';

const MIN_BYTES = 1024;
/** Brotli quality 4 compresses JSON about as well as gzip -9, several times faster. */
const BROTLI = { params: { [zlib.BROTLI_PARAM_QUALITY]: 4, [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT } };
const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

const cacheOf = (request: FastifyRequest) => (request.routeOptions.config as { cache?: OperationCache }).cache;

const isPublic = (request: FastifyRequest, reply: FastifyReply) =>
  cacheOf(request) !== undefined &&
  request.method === 'GET' &&
  reply.statusCode === 200 &&
  !request.headers.authorization &&
  !request.headers['x-borrower-token'];

async function compressed(request: FastifyRequest, reply: FastifyReply, body: string | Buffer, cacheable: boolean): Promise<string | Buffer> {
  // A string's length is at most its size in bytes: short answers are let through without measuring them.
  if (body.length < MIN_BYTES || !/json/.test(String(reply.getHeader('content-type') ?? '')) || reply.getHeader('content-encoding')) return body;
  const accept = request.headers['accept-encoding'];
  const encoding = accept ? preferredEncoding(accept) : undefined;
  // A cache must keep the encodings apart; an answer no one keeps needs the header only when it is compressed.
  if (cacheable || encoding) reply.header('vary', 'accept-encoding');
  if (!encoding) return body;
  reply.header('content-encoding', encoding);
  reply.removeHeader('content-length');
  return encoding === 'br' ? brotliAsync(body, BROTLI) : gzipAsync(body, { level: 6 });
}

export function registerApiAnswers(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (!request.url.startsWith('/api/')) return payload;
    // Streams (files) and empty answers pass as they are.
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) {
      reply.header('cache-control', 'no-store');
      return payload;
    }
    if (!isPublic(request, reply)) {
      reply.header('cache-control', 'no-store');
      return compressed(request, reply, payload, false);
    }
    if (cacheOf(request) === 'immutable') {
      reply.header('cache-control', IMMUTABLE);
      return compressed(request, reply, payload, true);
    }
    const etag = contentEtag(payload);
    reply.header('cache-control', 'no-cache').header('etag', etag);
    if (stillFresh(request.headers['if-none-match'], etag)) {
      reply.code(304);
      return '';
    }
    return compressed(request, reply, payload, true);
  });
}
