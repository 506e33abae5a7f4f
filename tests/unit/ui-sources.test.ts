/**
 * How a screen's source behaves when its record is missing or it polls (issue 16, decision 0181): a read of the record
 * the address names that answers 404 shows the not-found page, a read refused with 403 the not-authorized page; a poll stops when a read fails
 * or its `refetchWhile` no longer holds, and waits longer while the answer stays the same.
 */
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { forgetRefusals, missingRecord, operationQuery, pollWait, POLL_BACKOFF_LIMIT } from '../../src/engine/queries.ts';
import { onSignInChange } from '../../src/app/session/signed-in-as.ts';
import { EMPTY_SESSION, type SessionState } from '../../src/app/session/state.ts';

const byAddress = { operation: 'App_GetApp', params: { id: { var: 'route.params.id' } } };

describe('a read of the record the address names', () => {
  it('shows not-found on 404 and not-authorized on 403, wherever the binding reads the address', () => {
    expect(missingRecord({ status: 404 }, byAddress)).toBe('notFound');
    expect(missingRecord({ status: 403 }, byAddress)).toBe('forbidden');
    expect(missingRecord({ status: 404 }, { operation: 'App_GetAppFiles', query: { appId: { or: [{ var: 'dialog.appId' }, { var: 'route.params.id' }] } } })).toBe('notFound');
    expect(missingRecord({ status: 404 }, { operation: 'Office_GetLandingPage', params: { code: { var: ['route.params.code', ''] } } })).toBe('notFound');
  });

  it('shows not-found when the server refuses only what the address gives (an id that is no number)', () => {
    expect(missingRecord({ status: 400, problem: { errors: { id: ['This field must be a valid whole number.'] } } }, byAddress)).toBe('notFound');
    const searched = { operation: 'App_GetOfficeApps', params: { id: { var: 'route.params.id' } }, body: { search: { var: 'filter.search' } } };
    expect(missingRecord({ status: 400, problem: { errors: { search: ['Too long.'] } } }, searched)).toBeUndefined();
    expect(missingRecord({ status: 400, problem: { errors: { id: ['x'], search: ['Too long.'] } } }, searched)).toBeUndefined();
    // A body field the address gives counts as the address: /settings/integrations/abc.
    const inBody = { operation: 'Webhooks_GetDeliveries', body: { endpointId: { '+': [{ var: 'route.params.id' }] }, status: { var: 'filter.status' } } };
    expect(missingRecord({ status: 400, problem: { errors: { endpointId: ['This field must be a valid whole number.'] } } }, inBody)).toBe('notFound');
    expect(missingRecord({ status: 400, problem: { errors: { status: ['Not one of the choices.'] } } }, inBody)).toBeUndefined();
  });

  it('shows not-authorized when any read of the page is refused: the server refuses more than the route table shows', () => {
    expect(missingRecord({ status: 403 }, { operation: 'AdminUsers_GetAllUsers', body: { userRoles: ['df.admin'] } })).toBe('forbidden');
  });

  it('leaves other failures, other sources and quiet sources (which word the failure themselves) to the page', () => {
    expect(missingRecord({ status: 400 }, byAddress)).toBeUndefined();
    expect(missingRecord({ status: 500 }, byAddress)).toBeUndefined();
    expect(missingRecord(null, byAddress)).toBeUndefined();
    expect(missingRecord({ status: 404 }, { operation: 'App_GetOfficeApps', body: { officeId: { var: 'session.officeId' } } })).toBeUndefined();
    expect(missingRecord({ status: 404 }, { ...byAddress, quiet: true })).toBeUndefined();
    expect(missingRecord({ status: 404 }, undefined)).toBeUndefined();
  });
});

describe('a read whose answer arrives before the part showing it mounts', () => {
  /**
   * The page is drawn while the read is on its way, then held back (a new descriptor set or a chunk loading) until the
   * answer is in: the part mounts with the options of that render.
   */
  async function callsWhenAnswered(status: number, between?: (client: QueryClient) => Promise<void>): Promise<number> {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    let calls = 0;
    const services = {
      api: {
        call: async () => {
          calls++;
          throw Object.assign(new Error('refused'), { status });
        },
      },
    };
    const drawn = operationQuery(services as never, byAddress, { route: { params: { id: '987654' } } } as never);
    const read = client.prefetchQuery(drawn);
    const observer = new QueryObserver(client, drawn);
    await read;
    await between?.(client);
    const stop = observer.subscribe(() => undefined);
    await new Promise((settled) => setTimeout(settled, 0));
    stop();
    return calls;
  }

  it('does not ask again for a record found missing, not the visitor\'s, or not open to whoever is signed in', async () => {
    expect(await callsWhenAnswered(404)).toBe(1);
    expect(await callsWhenAnswered(403)).toBe(1);
    expect(await callsWhenAnswered(401)).toBe(1);
  });

  it('asks again for what was refused once someone else signed in', async () => {
    expect(await callsWhenAnswered(401, forgetRefusals)).toBe(2);
    expect(await callsWhenAnswered(404, forgetRefusals)).toBe(2);
  });

  it('asks again after a failure that may pass', async () => {
    expect(await callsWhenAnswered(503)).toBe(2);
  });
});

describe('who the tab is signed in as', () => {
  it('changes when staff or a patient signs in or out, not when a token is renewed', () => {
    let state: SessionState = EMPTY_SESSION;
    const listeners = new Set<(s: SessionState) => void>();
    const store = { get: () => state, subscribe: (l: (s: SessionState) => void) => (listeners.add(l), () => void listeners.delete(l)) };
    const set = (partial: Partial<SessionState>) => {
      state = { ...state, ...partial };
      listeners.forEach((l) => l(state));
    };
    let changes = 0;
    onSignInChange(store, () => changes++);
    const staff = { givenName: 'Ana', familyName: 'Diaz', emails: [], objectId: 'u-1' };
    set({ authenticated: true, identity: staff, accessToken: 'a' });
    set({ accessToken: 'b' });
    expect(changes).toBe(1);
    set({ borrowerAuthenticated: true, borrowerAppId: 7 });
    set({ borrowerAppId: 8 });
    expect(changes).toBe(3);
    set(EMPTY_SESSION);
    expect(changes).toBe(4);
  });
});

describe('a poll (spec §7)', () => {
  const source = { operation: 'App_GetApp', refetchInterval: 3000, refetchWhile: { '!': { in: [{ var: 'data.stage' }, ['Funded']] } } };
  const query = () => ({ state: { status: 'success' as const, data: { stage: 'Review' } as unknown, dataUpdatedAt: 1 } });

  it('waits its interval, then twice as long for each answer that did not change, up to a limit', () => {
    const wait = pollWait(source, {});
    const q = query();
    const waits: Array<number | false> = [wait(q as never)];
    for (let at = 2; at <= 6; at++) {
      q.state.dataUpdatedAt = at;
      waits.push(wait(q as never), wait(q as never));
    }
    expect(waits).toEqual([3000, 6000, 6000, 12000, 12000, 3000 * POLL_BACKOFF_LIMIT, 3000 * POLL_BACKOFF_LIMIT, 12000, 12000, 12000, 12000]);
  });

  it('starts again from its interval when the answer changes', () => {
    const wait = pollWait(source, {});
    const q = query();
    wait(q as never);
    q.state.dataUpdatedAt = 2;
    expect(wait(q as never)).toBe(6000);
    q.state = { status: 'success', data: { stage: 'OfferSelected' }, dataUpdatedAt: 3 };
    expect(wait(q as never)).toBe(3000);
  });

  it('stops when a read failed, or once refetchWhile no longer holds', () => {
    const wait = pollWait(source, {});
    expect(wait({ state: { status: 'error', data: undefined, dataUpdatedAt: 0 } } as never)).toBe(false);
    expect(wait({ state: { status: 'success', data: { stage: 'Funded' }, dataUpdatedAt: 1 } } as never)).toBe(false);
  });
});
