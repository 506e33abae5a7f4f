import type { Handlers } from '../http/handler-types.ts';
import { officeEventStream } from '../events/stream.ts';

/** The office's events as they happen, for the live screens (x-access: the office's staff, platform admins). */
export const eventHandlers: Pick<Handlers, 'Events_Stream'> = {
  async Events_Stream({ params, query, request, services }) {
    const closed = new AbortController();
    request.raw.on('close', () => closed.abort());
    const lastEventId = request.headers['last-event-id'];
    const body = await officeEventStream(services.db, params.officeId, typeof lastEventId === 'string' ? lastEventId : undefined, query.wait ?? 0, closed.signal);
    return { status: 200, body, headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-accel-buffering': 'no' } };
  },
};
