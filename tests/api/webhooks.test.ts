import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../codegen/generated/api.ts';
import { applicationEventsOf } from '../../server/events/application-events.ts';
import { recordEvent } from '../../server/events/record.ts';
import { guardedLookup, webhookAddressProblem } from '../../server/events/webhook-address.ts';
import { postWebhook } from '../../server/events/webhook-post.ts';
import { jobRunnerOf } from '../../server/jobs/runner.ts';
import { OFFICE_ADMIN, PLATFORM, SUPPORT } from '../support/demo-accounts.ts';
import { harness, type Harness } from '../support/harness.ts';
import { jobsSettled } from '../support/jobs.ts';
import { signedBy, startReceiver, type Receiver } from '../support/receiver.ts';
import { journeyOffice, json, prequalForm, type JourneyOffice } from './journey-fixtures.ts';

/**
 * Events and signed webhooks (issue 39, items 1 and 2; decision 0266): an office admin's endpoint gets the events it
 * chose, once each, in order per application, signed as Standard Webhooks; a failing endpoint is tried again, then
 * paused and its admins e-mailed, and gets what waited once resumed; the delivery log, a replay, a rotated secret with
 * its overlap, a test event; other offices and roles are refused.
 */

type Schemas = components['schemas'];
type Secret = Schemas['WebhookSecret'];
type Delivery = Schemas['WebhookDelivery'];
type Event = Schemas['Event'];

let h: Harness;
let office: JourneyOffice;
let receiver: Receiver;
const db = () => h.database.db;
const call = (as: string, op: string, body: object) => h.request(as, 'PUT', `/api/Webhooks/${op}`, body);

const eventsOf = (posts: Receiver['received']) => posts.map((post) => JSON.parse(post.body) as Event);
/** The next attempt of this endpoint's waiting deliveries is their last (not other tests' endpoints', in the suite's database). */
const lastAttemptNext = (endpoint: number) =>
  db().execute(sql`
    update jobs set attempts = max_attempts - 1 where queue = 'webhook' and state = 'Queued'
    and (payload->>'deliveryId')::bigint in (select id from webhook_deliveries where endpoint_id = ${endpoint})`);
/** Runs what is due now, as the runner's timer would later: a retry's wait is cut short. */
async function retryNow(): Promise<void> {
  await db().execute(sql`update jobs set run_at = now() where queue = 'webhook' and state = 'Queued'`);
  jobRunnerOf(db())!.kick();
  await jobsSettled(db());
}

beforeAll(async () => {
  h = await harness();
  office = await journeyOffice(h);
  receiver = await startReceiver();
});
afterAll(async () => receiver?.close());

describe('application events from how the record changes', () => {
  const at = { stage: 'NotApplicable', decisionStatus: 'Pending', contractSubStatus: 'NotApplicable', productCode: null, statusText: 'Waiting for lender decisions' } as const;
  it('says what happened once, on the change that made it', () => {
    expect(applicationEventsOf(at, { decisionStatus: 'Approved' })).toEqual(['application.prequalified']);
    expect(applicationEventsOf({ ...at, decisionStatus: 'Approved' }, { decisionStatus: 'Approved' })).toEqual([]);
    expect(applicationEventsOf(at, { stage: 'Declined', decisionStatus: 'Declined' })).toEqual(['application.declined']);
    expect(applicationEventsOf({ ...at, stage: 'OfferSelected', productCode: 'A' }, { productCode: 'B' })).toEqual(['application.offer_selected']);
    expect(applicationEventsOf({ ...at, stage: 'SigningRequired' }, { contractSubStatus: 'KBAPassed' })).toEqual(['application.identity_passed']);
    expect(applicationEventsOf({ ...at, stage: 'ReadyToFinalize' }, { stage: 'SubmittedForFunding' })).toEqual(['application.finalized']);
    expect(applicationEventsOf({ ...at, stage: 'Refund' }, { stage: 'Funded' })).toEqual([]);
  });

  it('says the status changed where no named event does, and only then', () => {
    const reading = { contractSubStatus: 'AgreementPresented', statusText: 'Borrower is reading the loan agreement' } as const;
    expect(applicationEventsOf({ ...at, stage: 'SigningRequired' }, reading)).toEqual(['application.status_changed']);
    expect(applicationEventsOf({ ...at, stage: 'SigningRequired', ...reading }, reading)).toEqual([]);
    expect(applicationEventsOf(at, { decisionStatus: 'Approved', statusText: 'Offers available' })).toEqual(['application.prequalified']);
  });
});

describe('webhook addresses', () => {
  it('are checked again on the addresses the connection uses: a name that answers a private one gets nothing (DNS rebinding)', async () => {
    const listening = await startReceiver();
    try {
      const post = (mode: 'production' | 'demo') => postWebhook(listening.url, {}, '{}', { lookup: guardedLookup({ mode }), timeoutMs: 5_000, excerpt: 200 });
      // 'localhost' stands for a name whose answer changed after the address was saved: it resolves to 127.0.0.1.
      await expect(post('production')).rejects.toThrow('the address points into a private network');
      expect(listening.received).toHaveLength(0);
      await expect(post('demo')).resolves.toEqual({ status: 200, excerpt: '{}' });
    } finally {
      await listening.close();
    }
  });

  it('are https to the internet outside demo mode; demo mode also takes this machine', async () => {
    const production = { mode: 'production' } as const;
    expect(await webhookAddressProblem(production, 'http://203.0.113.9/hook')).toBe('The address must start with https://.');
    for (const inside of ['https://127.0.0.1/hook', 'https://10.1.2.3/hook', 'https://169.254.169.254/latest', 'https://[::1]/hook', 'https://192.168.0.4/hook', 'https://[::ffff:10.0.0.1]/x']) {
      expect(await webhookAddressProblem(production, inside), inside).toBe('The address points into a private network; webhooks go to addresses on the internet only.');
    }
    expect(await webhookAddressProblem(production, 'https://203.0.113.9/hook')).toBeNull();
    expect(await webhookAddressProblem(production, 'https://user:pw@203.0.113.9/hook')).toMatch(/user name or password/);
    expect(await webhookAddressProblem({ mode: 'demo' }, 'http://localhost:4000/hook')).toBeNull();
    expect(await webhookAddressProblem({ mode: 'demo' }, 'http://10.1.2.3/hook')).toBe('The address must start with https://.');
  });
});

describe('webhooks of an office', () => {
  let secret = '';
  let endpointId = 0;

  it('refuses what an endpoint cannot be, and other offices and roles', async () => {
    const base = { officeId: office.officeId, url: receiver.url, eventTypes: ['application.created'] };
    expect(json<{ errors: Record<string, string[]> }>(await call(office.admin, 'AddEndpoint', { ...base, url: 'ftp://example.com' })).errors.url).toEqual(['The address must start with https://.']);
    expect(json<{ errors: Record<string, string[]> }>(await call(office.admin, 'AddEndpoint', { ...base, eventTypes: ['webhook.test'] })).errors.eventTypes).toEqual(['Choose at least one event.']);
    expect((await call(OFFICE_ADMIN, 'AddEndpoint', base)).statusCode).toBe(404);
    expect((await call(office.support, 'AddEndpoint', base)).statusCode).toBe(403);
    expect((await call(office.admin, 'AddEndpoint', { url: receiver.url, eventTypes: ['application.created'] })).statusCode).toBe(404);
    expect((await call(SUPPORT, 'GetEndpoints', { officeId: office.officeId })).statusCode).toBe(404);
  });

  it("gets the chosen events of the office's applications, once, in order, signed, and nothing else", async () => {
    const added = await call(office.admin, 'AddEndpoint', {
      officeId: office.officeId, url: receiver.url, description: 'Practice software', eventTypes: ['application.created', 'application.prequalified', 'application.offer_selected'],
    });
    expect(added.statusCode, added.body).toBe(200);
    ({ secret } = json<Secret>(added));
    endpointId = json<Secret>(added).endpoint.endpointId;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(JSON.stringify(json<Schemas['WebhookEndpoint'][]>(await call(office.admin, 'GetEndpoints', { officeId: office.officeId })))).not.toContain(secret);

    const submitted = await h.call({ method: 'POST', url: '/api/App/SubmitApp', payload: prequalForm(office.officeId), as: office.admin });
    expect(submitted.statusCode, submitted.body).toBe(200);
    const appId = json<{ id: number }>(submitted).id;
    const offers = json<{ id: number }[]>(await h.call({ method: 'GET', url: `/api/App/GetOffers/${appId}`, borrowerOf: appId }));
    const chosen = await h.call({ method: 'POST', url: '/api/App/SelectOffer', payload: { appId, offerId: offers[0]!.id, agreeToTerms: true }, borrowerOf: appId });
    expect(chosen.statusCode, chosen.body).toBe(200);
    await jobsSettled(db());

    const posts = await receiver.waitFor(3);
    expect(eventsOf(posts).map((e) => e.type)).toEqual(['application.created', 'application.prequalified', 'application.offer_selected']);
    expect(eventsOf(posts).every((e) => e.appId === appId && e.officeId === office.officeId)).toBe(true);
    expect(posts.every((post) => signedBy(secret, post) && post.headers['webhook-id'] === JSON.parse(post.body).id)).toBe(true);
    expect(posts.some((post) => /ssn|dob|birth|account/i.test(post.body))).toBe(false);
    // The events are in the database once, whoever else was told.
    const recorded = await db().execute<{ type: string }>(sql`select type from events where app_id = ${appId} order by id`);
    expect(recorded.rows.map((r) => r.type)).toEqual(['application.created', 'application.prequalified', 'application.offer_selected']);
  });

  // Two connections are needed: one holds the endpoint's lock while the runner's acknowledgement waits for it.
  it.skipIf(!process.env.DATABASE_URL)('sends an event that comes while the one before it is being acknowledged once, after it', async () => {
    const own = await startReceiver();
    try {
      const added = await call(office.admin, 'AddEndpoint', { officeId: office.officeId, url: own.url, eventTypes: ['application.status_changed'] });
      const ownId = json<Secret>(added).endpoint.endpointId;
      const submitted = await h.call({ method: 'POST', url: '/api/App/SubmitApp', payload: prequalForm(office.officeId), as: office.admin });
      const appId = json<{ id: number }>(submitted).id;
      await jobsSettled(db());
      const step = (n: number) => ({ type: 'application.status_changed', officeId: office.officeId, appId, subject: { kind: 'application', id: appId }, data: { step: n } }) as const;
      // Recorded outside a request, so nothing kicks the runner until the test does.
      await recordEvent(db(), step(1));
      await db().transaction(async (tx) => {
        await tx.execute(sql`select id from webhook_endpoints where id = ${ownId} for update`);
        jobRunnerOf(db())!.kick();
        await own.waitFor(1);
        for (let waited = 0; ; waited += 20) {
          const blocked = await db().execute<{ n: number }>(sql`
            select count(*)::int as n from pg_stat_activity
            where wait_event_type = 'Lock' and datname = current_database() and query like '%from webhook_endpoints where id = % for update%'`);
          if (blocked.rows[0]!.n > 0) break;
          if (waited > 5_000) throw new Error("the first delivery's acknowledgement never waited for the endpoint's lock");
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        // The acknowledgement waits for this lock: the second event comes now.
        await recordEvent(tx, step(2));
      });
      await jobsSettled(db());
      const posts = await own.waitFor(2);
      const jobs = await db().execute<{ delivery: string }>(sql`
        select payload->>'deliveryId' as delivery from jobs where queue = 'webhook'
        and (payload->>'deliveryId')::bigint in (select id from webhook_deliveries where endpoint_id = ${ownId})`);
      expect(jobs.rows).toHaveLength(2);
      expect(eventsOf(posts).map((e) => e.data)).toEqual([{ step: 1 }, { step: 2 }]);
      expect((await call(office.admin, 'DeleteEndpoint', { endpointId: ownId })).statusCode).toBe(200);
    } finally {
      await own.close();
    }
  });

  it('tries a failing delivery again and holds the next event of the same application until it is acknowledged', async () => {
    receiver.received.length = 0;
    receiver.failures = 1;
    const submitted = await h.call({ method: 'POST', url: '/api/App/SubmitApp', payload: prequalForm(office.officeId), as: office.admin });
    const appId = json<{ id: number }>(submitted).id;
    await jobsSettled(db());
    // The first event failed once; the second waits for it.
    expect(receiver.received.map((post) => post.status)).toEqual([500]);
    // The log of this application alone, newest first.
    const log = json<{ results: Delivery[] }>(await call(office.admin, 'GetDeliveries', { endpointId, appId, page: 1, pageSize: 5 })).results;
    expect(log.map((d) => [d.appId, d.eventType])).toEqual([[appId, 'application.prequalified'], [appId, 'application.created']]);
    expect(log[1]).toMatchObject({ status: 'Pending', attempts: 1, responseStatus: 500, responseExcerpt: '{}', lastError: 'the endpoint answered 500' });
    await retryNow();
    await retryNow();
    const types = eventsOf(receiver.received.filter((post) => post.status === 200)).map((e) => e.type);
    expect(types).toEqual(['application.created', 'application.prequalified']);
  });

  it('replays a delivery with its event id, and signs with both secrets while a rotation overlaps', async () => {
    const [last] = json<{ results: Delivery[] }>(await call(office.admin, 'GetDeliveries', { endpointId, status: 'Delivered', page: 1, pageSize: 1 })).results;
    receiver.received.length = 0;
    const rotated = json<Secret>(await call(office.admin, 'RotateSecret', { endpointId, overlapHours: 1 }));
    expect(rotated.secret).not.toBe(secret);
    expect(rotated.endpoint.previousSecretUntilUtc).not.toBeNull();
    expect(json<{ replayed: number }>(await call(office.admin, 'Replay', { endpointId, deliveryId: last!.deliveryId }))).toEqual({ replayed: 1 });
    await jobsSettled(db());
    const [post] = await receiver.waitFor(1);
    expect(post!.headers['webhook-id']).toBe(last!.eventId);
    expect(signedBy(rotated.secret, post!) && signedBy(secret, post!)).toBe(true);
    const test = json<Delivery>(await call(office.admin, 'SendTest', { endpointId }));
    await jobsSettled(db());
    expect(eventsOf(await receiver.waitFor(2)).at(-1)).toMatchObject({ type: 'webhook.test', officeId: office.officeId, appId: null });
    expect(test.eventType).toBe('webhook.test');
    secret = rotated.secret;
  });

  it('replays what happened in a time range, each with its event id, and says so when nothing did or the range is backwards', async () => {
    const logged = json<{ results: Delivery[] }>(await call(office.admin, 'GetDeliveries', { endpointId, page: 1, pageSize: 100 })).results;
    receiver.received.length = 0;
    const range = { endpointId, fromUtc: new Date(Date.now() - 3_600_000).toISOString(), toUtc: new Date(Date.now() + 60_000).toISOString() };
    expect(json<{ replayed: number }>(await call(office.admin, 'Replay', range))).toEqual({ replayed: logged.length });
    await jobsSettled(db());
    const posts = await receiver.waitFor(logged.length);
    expect(posts.map((post) => post.headers['webhook-id']).sort()).toEqual(logged.map((d) => d.eventId).sort());
    const errors = async (body: object) => json<{ errors: Record<string, string[]> }>(await call(office.admin, 'Replay', { endpointId, ...body })).errors;
    const nothing = await call(office.admin, 'Replay', { endpointId, fromUtc: '2001-01-01T00:00:00Z', toUtc: '2001-01-02T00:00:00Z' });
    expect([nothing.statusCode, json<{ detail: string }>(nothing).detail]).toEqual([409, 'Nothing this endpoint was sent happened in that time range.']);
    expect(await errors({ fromUtc: range.toUtc, toUtc: range.fromUtc })).toEqual({ toUtc: ['The end is before the start.'] });
    expect(await errors({})).toEqual({ deliveryId: ['Give a delivery, or a time range (fromUtc and toUtc).'] });
  });

  it('pauses an endpoint that failed for a day, e-mails its admins, and sends what waited once resumed', async () => {
    receiver.received.length = 0;
    receiver.failures = 1_000;
    const submitted = await h.call({ method: 'POST', url: '/api/App/SubmitApp', payload: prequalForm(office.officeId), as: office.admin });
    const appId = json<{ id: number }>(submitted).id;
    await jobsSettled(db());
    // Its last attempt comes now rather than in a day.
    await lastAttemptNext(endpointId);
    await retryNow();
    const [endpoint] = json<Schemas['WebhookEndpoint'][]>(await call(office.admin, 'GetEndpoints', { officeId: office.officeId }));
    expect(endpoint).toMatchObject({ status: 'Paused', pausedReason: 'Paused after a delivery failed for a day: the endpoint answered 500', lastDeliveryStatus: 'Failed' });
    const mail = await db().execute<{ recipient: string; links: { url: string }[] }>(sql`select recipient, links from outbox where subject = 'A webhook endpoint was paused' order by id desc limit 1`);
    expect(mail.rows[0]).toEqual({ recipient: office.admin, links: [{ label: 'Open Integrations', url: expect.stringMatching(/\/#\/settings\/integrations$/) }] });

    // What happens while it is paused waits too.
    receiver.failures = 0;
    const later = json<{ id: number }>(await h.call({ method: 'POST', url: '/api/App/SubmitApp', payload: prequalForm(office.officeId), as: office.admin })).id;
    await jobsSettled(db());
    receiver.received.length = 0;
    expect(json<Schemas['WebhookEndpoint']>(await call(office.admin, 'UpdateEndpoint', { endpointId, status: 'Active' })).status).toBe('Active');
    await jobsSettled(db());
    await retryNow();
    const sent = eventsOf(receiver.received.filter((post) => post.status === 200));
    expect(sent.filter((e) => e.appId === appId).map((e) => e.type)).toEqual(['application.created', 'application.prequalified']);
    expect(sent.filter((e) => e.appId === later).map((e) => e.type)).toEqual(['application.created', 'application.prequalified']);
  });

  it('lets platform admins have endpoints for every office, and deletes an endpoint with its log', async () => {
    const platform = await call(PLATFORM, 'AddEndpoint', { url: receiver.url, eventTypes: ['office.approved'] });
    expect(platform.statusCode, platform.body).toBe(200);
    expect(json<Schemas['WebhookEndpoint'][]>(await call(PLATFORM, 'GetEndpoints', {})).map((e) => e.officeId)).toEqual([null]);
    // Paused after a day of failures, its admins are told how to resume it: it has no screen, so no link to one.
    receiver.failures = 1_000;
    await call(PLATFORM, 'SendTest', { endpointId: json<Secret>(platform).endpoint.endpointId });
    await jobsSettled(db());
    await lastAttemptNext(json<Secret>(platform).endpoint.endpointId);
    await retryNow();
    receiver.failures = 0;
    const mail = await db().execute<{ recipient: string; body: string; links: unknown[] }>(sql`select recipient, body, links from outbox where subject = 'A webhook endpoint was paused' and recipient = ${PLATFORM} order by id desc limit 1`);
    expect(mail.rows[0]).toMatchObject({ recipient: PLATFORM, links: [], body: expect.stringContaining('(Webhooks_UpdateEndpoint, status Active)') });
    expect((await call(office.admin, 'DeleteEndpoint', { endpointId: json<Secret>(platform).endpoint.endpointId })).statusCode).toBe(404);
    expect((await call(office.admin, 'DeleteEndpoint', { endpointId })).statusCode).toBe(200);
    expect(json<Schemas['WebhookEndpoint'][]>(await call(office.admin, 'GetEndpoints', { officeId: office.officeId }))).toEqual([]);
  });
});

describe("the office's event stream (live screens)", () => {
  const stream = (officeId: number, wait: number, lastEventId?: string, as = office.admin) =>
    h.call({ method: 'GET', url: `/api/Events/Stream/${officeId}?wait=${wait}`, as, headers: lastEventId ? { 'last-event-id': lastEventId } : {} });
  const frames = (body: string) => body.split('\n\n').filter((f) => f.includes('data: ')).map((f) => ({ id: /^id: (\d+)$/m.exec(f)![1]!, type: /^event: (.+)$/m.exec(f)![1]!, data: JSON.parse(/^data: (.+)$/m.exec(f)![1]!) as Event }));

  it('sends what happens while it is open, and after the last event a reconnecting client read', async () => {
    const open = stream(office.officeId, 2);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const submitted = await h.call({ method: 'POST', url: '/api/App/SubmitApp', payload: prequalForm(office.officeId), as: office.admin });
    const appId = json<{ id: number }>(submitted).id;
    const answer = await open;
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/event-stream/);
    const live = frames(answer.body);
    expect(live.map((f) => f.type)).toEqual(['application.created', 'application.prequalified']);
    expect(live.every((f) => f.data.appId === appId && f.data.type === f.type)).toBe(true);

    // A client that read the first comes back for the rest; one that read both gets nothing again.
    expect(frames((await stream(office.officeId, 0, live[0]!.id)).body).map((f) => f.type)).toEqual(['application.prequalified']);
    expect(frames((await stream(office.officeId, 0, live[1]!.id)).body)).toEqual([]);
  });

  it("tells platform admins of every office's events, and no one else", async () => {
    const before = frames((await stream(office.officeId, 0, '0')).body).at(-1)!.id;
    const all = (as: string) => h.call({ method: 'GET', url: '/api/admin/Events/Stream?wait=0', as, headers: { 'last-event-id': before } });
    const appId = json<{ id: number }>(await h.call({ method: 'POST', url: '/api/App/SubmitApp', payload: prequalForm(office.officeId), as: office.admin })).id;
    const seen = frames((await all(PLATFORM)).body);
    expect(seen.filter((f) => f.data.appId === appId).map((f) => f.type)).toEqual(['application.created', 'application.prequalified']);
    expect((await all(office.admin)).statusCode).toBe(403);
  });

  it("wakes every listener at an event's commit, with its office, and never for a rollback", async () => {
    const heard: (string | undefined)[] = [];
    const stop = await h.database.listen('pos_events', (payload) => heard.push(payload));
    try {
      const event = (officeId: number | null) => ({ type: 'office.approved' as const, officeId, subject: { kind: 'office' as const, id: officeId ?? 0 } });
      const rolledBack = db().transaction(async (tx) => {
        await recordEvent(tx, event(null));
        throw new Error('rolled back');
      });
      await expect(rolledBack).rejects.toThrow('rolled back');
      await db().transaction(async (tx) => {
        await recordEvent(tx, event(office.officeId));
        await new Promise((resolve) => setTimeout(resolve, 50));
        expect(heard).toEqual([]);
      });
      // Delivered after the commit, on the listening connection (PostgreSQL) or the same instance (PGlite).
      for (let tries = 0; tries < 100 && heard.length === 0; tries++) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(heard).toContain(String(office.officeId));
      expect(heard).not.toContain('');
    } finally {
      stop();
    }
  });

  it("is the office's own: another office's staff are refused, a bad resume point too", async () => {
    expect((await stream(office.officeId, 0, undefined, OFFICE_ADMIN)).statusCode).toBe(404);
    expect((await stream(office.officeId, 0, 'yesterday')).statusCode).toBe(400);
    expect((await stream(office.officeId, 301)).statusCode).toBe(400);
  });
});
