import { describe, expect, it } from 'vitest';
import { parseEvents } from '../../src/app/live-events.ts';

/** The web app's reading of server-sent events (src/app/live-events.ts), frame by frame as chunks arrive. */
describe('parseEvents', () => {
  it('reads complete frames, keeps a partial one for the next chunk, and skips comments and retry-only frames', () => {
    const first = parseEvents('retry: 1000\n\n: still here\n\nid: 7\nevent: application.signed\ndata: {"a":1}\n\nid: 8\nevent: appl');
    expect(first.events).toEqual([{ id: '7', event: 'application.signed', data: '{"a":1}' }]);
    expect(first.rest).toBe('id: 8\nevent: appl');
    const second = parseEvents(`${first.rest}ication.funded\ndata: {"b":\ndata: 2}\r\n\r\n`);
    expect(second.events).toEqual([{ id: '8', event: 'application.funded', data: '{"b":\n2}' }]);
    expect(second.rest).toBe('');
  });
});
