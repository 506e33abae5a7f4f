import { sql } from 'drizzle-orm';
import type { components } from '../../../codegen/generated/api.ts';
import { encryptPii } from '../../crypto/pii.ts';
import type { Db } from '../../db/index.ts';
import { startDelivery } from '../../events/webhook-delivery.ts';
import { newWebhookSecret } from '../../events/signing.ts';
import { webhookAddressProblem } from '../../events/webhook-address.ts';
import type { Caller } from '../../http/caller.ts';
import { HttpProblem } from '../../http/problem.ts';
import type { Services } from '../../services.ts';
import { staffUserId } from '../applications/records.ts';
import { toUtc } from '../values.ts';

/**
 * Webhook endpoints of an office, or of the platform (office null: every office's events), as their admins manage them
 * (issue 39; decision 0266). The signing secret is kept encrypted and shown once, when made or rotated.
 */

type Schemas = components['schemas'];
type Endpoint = Schemas['WebhookEndpoint'];
type Upsert = Schemas['WebhookEndpointUpsert'];

const PER_OFFICE = 10;
const DEFAULT_OVERLAP_HOURS = 24;

type Row = {
  id: number; office_id: number | null; url: string; description: string | null; event_types: Endpoint['eventTypes']; status: Endpoint['status'];
  paused_reason: string | null; previous_until: string | Date | null; created_at: string | Date; last_status: Endpoint['lastDeliveryStatus']; last_at: string | Date | null;
};

function endpointOf(row: Row): Endpoint {
  const rotating = row.previous_until && new Date(row.previous_until).getTime() > Date.now() ? toUtc(row.previous_until) : null;
  return {
    endpointId: Number(row.id), officeId: row.office_id === null ? null : Number(row.office_id), url: row.url, description: row.description, eventTypes: row.event_types,
    status: row.status, pausedReason: row.paused_reason, previousSecretUntilUtc: rotating, createdAtUtc: toUtc(row.created_at)!, lastDeliveryStatus: row.last_status, lastDeliveryAtUtc: toUtc(row.last_at),
  };
}

const selectEndpoints = (where: ReturnType<typeof sql>) => sql`
  select e.id, e.office_id, e.url, e.description, e.event_types, e.status, e.paused_reason, e.previous_until, e.created_at, last.status as last_status, last.at as last_at
  from webhook_endpoints e
  left join lateral (
    select d.status, d.last_attempt_at as at from webhook_deliveries d
    where d.endpoint_id = e.id and d.last_attempt_at is not null order by d.last_attempt_at desc, d.id desc limit 1
  ) last on true
  where e.deleted_at is null and ${where} order by e.id`;

export async function endpointById(db: Db, endpointId: number): Promise<Endpoint> {
  const [row] = (await db.execute<Row>(selectEndpoints(sql`e.id = ${endpointId}`))).rows;
  if (!row) throw new HttpProblem(404, 'There is no webhook endpoint with that id.');
  return endpointOf(row);
}

/** The office's endpoints; without an office, the platform's own (platform admins: the access rule lets no one else by). */
export async function listEndpoints(db: Db, officeId: number | undefined): Promise<Endpoint[]> {
  const where = officeId === undefined ? sql`e.office_id is null` : sql`e.office_id = ${officeId}`;
  return (await db.execute<Row>(selectEndpoints(where))).rows.map(endpointOf);
}

async function checkedUrl(services: Services, url: string): Promise<string> {
  const problem = await webhookAddressProblem(services.settings, url.trim());
  if (problem) throw HttpProblem.field('url', problem);
  return new URL(url.trim()).toString();
}

function withoutTest(types: Upsert['eventTypes']): NonNullable<Upsert['eventTypes']> {
  const chosen = (types ?? []).filter((type) => type !== 'webhook.test');
  if (chosen.length === 0) throw HttpProblem.field('eventTypes', 'Choose at least one event.');
  return chosen as NonNullable<Upsert['eventTypes']>;
}

export async function addEndpoint(services: Services, caller: Caller, body: Upsert): Promise<Schemas['WebhookSecret']> {
  if (body.officeId === undefined && !(caller.kind === 'staff' && caller.userRole === 'df.admin')) throw new HttpProblem(403, 'Only platform admins add endpoints for the platform.');
  if (!body.url) throw HttpProblem.field('url', 'Enter the address that receives the events.');
  const url = await checkedUrl(services, body.url);
  const eventTypes = withoutTest(body.eventTypes);
  const db = services.db;
  if (body.officeId !== undefined) {
    const [count] = (await db.execute<{ n: number }>(sql`select count(*)::int as n from webhook_endpoints where office_id = ${body.officeId} and deleted_at is null`)).rows;
    if (Number(count!.n) >= PER_OFFICE) throw HttpProblem.conflict(`An office has at most ${PER_OFFICE} webhook endpoints; delete one first.`);
  }
  const secret = newWebhookSecret();
  const [created] = (
    await db.execute<{ id: number }>(sql`
      insert into webhook_endpoints (office_id, url, description, event_types, secret, created_by)
      values (${body.officeId ?? null}, ${url}, ${body.description?.trim() || null}, ${JSON.stringify(eventTypes)}::jsonb, ${encryptPii(services.settings.piiKey, secret)}, ${staffUserId(caller)})
      returning id`)
  ).rows;
  return { endpoint: await endpointById(db, Number(created!.id)), secret };
}

/** Its address, events, description, or its status: resuming sends, in order, what waited or failed while paused. */
export async function updateEndpoint(services: Services, body: Upsert): Promise<Endpoint> {
  const db = services.db;
  const endpointId = body.endpointId;
  if (endpointId === undefined) throw HttpProblem.field('endpointId', 'Say which endpoint.');
  const before = await endpointById(db, endpointId);
  const url = body.url === undefined ? before.url : await checkedUrl(services, body.url);
  const eventTypes = body.eventTypes === undefined ? before.eventTypes : withoutTest(body.eventTypes);
  const description = body.description === undefined ? before.description : body.description?.trim() || null;
  const status = body.status ?? before.status;
  await db.execute(sql`
    update webhook_endpoints set url = ${url}, event_types = ${JSON.stringify(eventTypes)}::jsonb, description = ${description}, status = ${status},
      paused_reason = case when ${status} = 'Paused' then coalesce(paused_reason, 'Paused by an admin') else null end, updated_at = now()
    where id = ${endpointId}`);
  if (before.status === 'Paused' && status === 'Active') await sendWhatWaited(db, endpointId, `resumed-${Date.now()}`);
  return endpointById(db, endpointId);
}

/** The first undelivered delivery of each order key starts again (the failed ones first become pending). */
async function sendWhatWaited(db: Db, endpointId: number, attempt: string): Promise<void> {
  await db.execute(sql`update webhook_deliveries set status = 'Pending' where endpoint_id = ${endpointId} and status = 'Failed'`);
  const heads = await db.execute<{ id: number }>(sql`
    select distinct on (order_key) id from webhook_deliveries where endpoint_id = ${endpointId} and status = 'Pending' order by order_key, event_id`);
  for (const head of heads.rows) await startDelivery(db, Number(head.id), attempt);
}

/** What remains is a tombstone (no secret, no log), so that a repeated delete answers as the first did. */
export async function deleteEndpoint(db: Db, endpointId: number): Promise<void> {
  const deleted = await db.execute(sql`
    update webhook_endpoints set deleted_at = now(), status = 'Paused', secret = '', previous_secret = null, updated_at = now()
    where id = ${endpointId} and deleted_at is null returning id`);
  if (deleted.rows.length === 0) throw new HttpProblem(404, 'There is no webhook endpoint with that id.');
  await db.execute(sql`delete from webhook_deliveries where endpoint_id = ${endpointId}`);
}

export async function rotateSecret(services: Services, endpointId: number, overlapHours = DEFAULT_OVERLAP_HOURS): Promise<Schemas['WebhookSecret']> {
  const secret = newWebhookSecret();
  const rotated = await services.db.execute(sql`
    update webhook_endpoints set previous_secret = secret, previous_until = now() + ${overlapHours} * interval '1 hour',
      secret = ${encryptPii(services.settings.piiKey, secret)}, updated_at = now()
    where id = ${endpointId} and deleted_at is null returning id`);
  if (rotated.rows.length === 0) throw new HttpProblem(404, 'There is no webhook endpoint with that id.');
  return { endpoint: await endpointById(services.db, endpointId), secret };
}
