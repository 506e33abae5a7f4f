import type { FastifyRequest } from 'fastify';
import type { Handlers } from '../http/handler-types.ts';
import type { Services } from '../services.ts';
import { eventStream } from '../events/stream.ts';

const STREAM_HEADERS = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-accel-buffering': 'no' };

/** The events of one office (null: every office) from after the request's Last-Event-ID, until the client leaves. */
async function streamFor(request: FastifyRequest, services: Services, officeId: number | null, wait: number | undefined) {
  const closed = new AbortController();
  request.raw.on('close', () => closed.abort());
  const lastEventId = request.headers['last-event-id'];
  const body = await eventStream(services.database, officeId, typeof lastEventId === 'string' ? lastEventId : undefined, wait ?? 0, closed.signal);
  return { status: 200 as const, body, headers: STREAM_HEADERS };
}

/** Events as they happen, for the live screens: an office's (its staff, platform admins), every office's (platform admins). */
export const eventHandlers: Pick<Handlers, 'Events_Stream' | 'AdminEvents_Stream'> = {
  async Events_Stream({ params, query, request, services }) {
    return streamFor(request, services, params.officeId, query.wait);
  },
  async AdminEvents_Stream({ query, request, services }) {
    return streamFor(request, services, null, query.wait);
  },
};
