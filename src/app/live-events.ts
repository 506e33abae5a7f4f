import type { QueryClient } from '@tanstack/react-query';
import { operationIndex, type OperationId } from '../../codegen/generated/operation-index.ts';
import { authPort } from './auth-port.ts';
import { session } from './session/store.ts';

/**
 * Live screens (issue 39 item 4; decision 0267): while staff work in an office, its events stream in
 * (Events_Stream, server-sent events read with fetch, which can carry the bearer token as EventSource cannot), and
 * each event has the page read again what it shows that events change — the operations the contract marks `x-live`.
 * A stream that ends or drops is opened again after the last event read, so nothing is missed; the office changed or
 * the person signed out, it closes.
 */

const WAIT_SECONDS = 300;
const RETRY_MS = [1_000, 2_000, 5_000, 10_000, 30_000];
/** Events that arrive together (a decision and its offers) refresh the page once. */
const SETTLE_MS = 150;

const LIVE = new Set(Object.entries(operationIndex).filter(([, op]) => op.live).map(([id]) => id as OperationId));

export interface ServerSentEvent {
  id: string | null;
  event: string;
  data: string;
}

/** The complete events in `buffer` (frames end with a blank line) and what is left of it. */
export function parseEvents(buffer: string): { events: ServerSentEvent[]; rest: string } {
  const frames = buffer.replace(/\r\n?/g, '\n').split('\n\n');
  const rest = frames.pop() ?? '';
  const events: ServerSentEvent[] = [];
  for (const frame of frames) {
    const event: ServerSentEvent = { id: null, event: 'message', data: '' };
    let hasData = false;
    for (const line of frame.split('\n')) {
      if (line === '' || line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'id') event.id = value;
      else if (field === 'event') event.event = value;
      else if (field === 'data') {
        event.data += (hasData ? '\n' : '') + value;
        hasData = true;
      }
    }
    if (hasData) events.push(event);
  }
  return { events, rest };
}

/**
 * The stream of what the signed-in staff member sees now: the events of the office they work in, or — someone of the
 * platform without an office — every office's (AdminEvents_Stream, which refuses those it is not for); null for no one
 * (not signed in, a borrower, an office user without an office yet).
 */
function currentStream(): string | null {
  const state = session.get();
  if (!state.authenticated || state.borrowerAuthenticated || state.accessDisabled) return null;
  const officeId = state.selectedOfficeId ?? state.officeId;
  if (officeId !== null) return `/api/Events/Stream/${officeId}`;
  return state.userRole ? '/api/admin/Events/Stream' : null;
}

/** Refused for good (the office is not this person's, or no longer): asking again would only be refused again. */
class Refused extends Error {}

async function follow(stream: string, lastEventId: { value: string | null }, signal: AbortSignal, onEvent: () => void): Promise<void> {
  const token = await authPort().acquireToken();
  if (!token) throw new Error('no token');
  const response = await fetch(`${stream}?wait=${WAIT_SECONDS}`, {
    headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream', ...(lastEventId.value ? { 'last-event-id': lastEventId.value } : {}) },
    signal,
  });
  if (!response.ok || !response.body) {
    // Nothing of a refusal's body is wanted: let the request end.
    await response.body?.cancel();
    if (response.status === 403 || response.status === 404) throw new Refused(`the event stream answered ${response.status}`);
    throw new Error(`the event stream answered ${response.status}`);
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    const parsed = parseEvents(buffer + value);
    buffer = parsed.rest;
    for (const event of parsed.events) {
      if (event.id) lastEventId.value = event.id;
      onEvent();
    }
  }
}

/** Follows the events of what the person sees for as long as the app runs; answers the function that stops it. */
export function followOfficeEvents(queryClient: QueryClient): () => void {
  let current: string | null = null;
  let controller: AbortController | null = null;
  let settle: ReturnType<typeof setTimeout> | undefined;
  const refresh = () => {
    clearTimeout(settle);
    settle = setTimeout(() => void queryClient.invalidateQueries({ predicate: (query) => LIVE.has(query.queryKey[0] as OperationId) }), SETTLE_MS);
  };
  const run = async (stream: string, signal: AbortSignal) => {
    const lastEventId = { value: null as string | null };
    for (let failures = 0; !signal.aborted; ) {
      try {
        await follow(stream, lastEventId, signal, refresh);
        failures = 0;
      } catch (error) {
        if (signal.aborted || error instanceof Refused) return;
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS[Math.min(failures, RETRY_MS.length - 1)]));
        failures += 1;
      }
    }
  };
  const update = () => {
    const next = currentStream();
    if (next === current) return;
    controller?.abort();
    controller = null;
    current = next;
    if (next === null) return;
    controller = new AbortController();
    void run(next, controller.signal);
  };
  const unsubscribe = session.subscribe(update);
  update();
  return () => {
    unsubscribe();
    controller?.abort();
    clearTimeout(settle);
  };
}
