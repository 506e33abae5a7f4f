import { sql, type SQL } from 'drizzle-orm';
import type { components } from '../../../codegen/generated/api.ts';
import type { Db } from '../../db/index.ts';
import { startDelivery, waitsItsTurn } from '../../events/webhook-delivery.ts';
import type { RequestBody } from '../../http/handler-types.ts';
import { HttpProblem } from '../../http/problem.ts';
import { paged, type Page } from '../paging.ts';
import { endpointById } from './endpoints.ts';
import { toUtc } from '../values.ts';

/** An endpoint's delivery log, replays from it, and a test event (issue 39; decision 0266). */

type Schemas = components['schemas'];
type Delivery = Schemas['WebhookDelivery'];

const REPLAY_LIMIT = 1000;

type Row = {
  id: number; endpoint_id: number; event_id: string; type: Delivery['eventType']; app_id: number | null; occurred_at: string | Date; status: Delivery['status'];
  attempts: number; response_status: number | null; response_excerpt: string | null; latency_ms: number | null; last_error: string | null;
  last_attempt_at: string | Date | null; delivered_at: string | Date | null;
};

function deliveryOf(row: Row): Delivery {
  return {
    deliveryId: Number(row.id), endpointId: Number(row.endpoint_id), eventId: row.event_id, eventType: row.type, appId: row.app_id === null ? null : Number(row.app_id),
    occurredAtUtc: toUtc(row.occurred_at)!, status: row.status, attempts: Number(row.attempts), responseStatus: row.response_status, responseExcerpt: row.response_excerpt,
    latencyMs: row.latency_ms, lastError: row.last_error, lastAttemptAtUtc: toUtc(row.last_attempt_at), deliveredAtUtc: toUtc(row.delivered_at),
  };
}

const columns = sql`d.id, d.endpoint_id, ev.event_id, ev.type, ev.app_id, ev.occurred_at, d.status, d.attempts, d.response_status, d.response_excerpt, d.latency_ms,
  d.last_error, d.last_attempt_at, d.delivered_at`;

export async function listDeliveries(db: Db, query: RequestBody<'Webhooks_GetDeliveries'>): Promise<Page<Delivery>> {
  await endpointById(db, query.endpointId);
  const conditions: SQL[] = [sql`d.endpoint_id = ${query.endpointId}`];
  if (query.status) conditions.push(sql`d.status = ${query.status}`);
  if (query.appId) conditions.push(sql`d.event_id in (select id from events where app_id = ${query.appId})`);
  const where = sql.join(conditions, sql` and `);
  const order = sql.raw(query.sortDesc === false ? 'd.id asc' : 'd.id desc');
  return paged<Row, Delivery>(
    query,
    async (limit, offset) =>
      (await db.execute<Row & { total: number }>(sql`select ${columns}, count(*) over () as total from webhook_deliveries d join events ev on ev.id = d.event_id where ${where} order by ${order} limit ${limit ?? null} offset ${offset}`)).rows.map((row) => ({ ...row, total: Number(row.total) })),
    async () => Number((await db.execute<{ n: number }>(sql`select count(*) as n from webhook_deliveries d where ${where}`)).rows[0]!.n),
    deliveryOf,
  );
}

async function deliveryById(db: Db, deliveryId: number): Promise<Delivery> {
  const [row] = (await db.execute<Row>(sql`select ${columns} from webhook_deliveries d join events ev on ev.id = d.event_id where d.id = ${deliveryId}`)).rows;
  if (!row) throw new HttpProblem(404, 'There is no delivery with that id.');
  return deliveryOf(row);
}

/**
 * One delivery, or those of a time range, sent again with their event ids: each becomes pending and, when it is the
 * first of its application still to go, starts now; the others follow in order.
 */
export async function replay(db: Db, body: RequestBody<'Webhooks_Replay'>): Promise<{ replayed: number }> {
  await endpointById(db, body.endpointId);
  let chosen: SQL;
  if (body.deliveryId !== undefined) chosen = sql`d.id = ${body.deliveryId}`;
  else if (body.fromUtc && body.toUtc) {
    if (new Date(body.fromUtc) > new Date(body.toUtc)) throw HttpProblem.field('toUtc', 'The end is before the start.');
    chosen = sql`ev.occurred_at between ${body.fromUtc} and ${body.toUtc}`;
  } else throw HttpProblem.field('deliveryId', 'Give a delivery, or a time range (fromUtc and toUtc).');
  const rows = await db.execute<{ id: number; order_key: string; event_pk: number }>(sql`
    select d.id, d.order_key, d.event_id as event_pk from webhook_deliveries d join events ev on ev.id = d.event_id
    where d.endpoint_id = ${body.endpointId} and ${chosen} order by d.event_id limit ${REPLAY_LIMIT + 1}`);
  if (rows.rows.length === 0 && body.deliveryId !== undefined) throw new HttpProblem(404, 'There is no delivery with that id at this endpoint.');
  if (rows.rows.length === 0) throw HttpProblem.conflict('Nothing this endpoint was sent happened in that time range.');
  if (rows.rows.length > REPLAY_LIMIT) throw HttpProblem.conflict(`More than ${REPLAY_LIMIT} events happened in that time range: choose a shorter one; at most ${REPLAY_LIMIT} are sent again at once.`);
  const ids = rows.rows.map((r) => Number(r.id));
  await db.execute(sql`update webhook_deliveries set status = 'Pending', delivered_at = null where id in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})`);
  const attempt = `replay-${Date.now()}`;
  for (const row of rows.rows) {
    if (!(await waitsItsTurn(db, body.endpointId, row.order_key, Number(row.event_pk)))) await startDelivery(db, Number(row.id), attempt);
  }
  return { replayed: ids.length };
}

/** A webhook.test event to this endpoint only, signed like every other. */
export async function sendTest(db: Db, endpointId: number): Promise<Delivery> {
  const endpoint = await endpointById(db, endpointId);
  const [event] = (
    await db.execute<{ id: number }>(sql`
      insert into events (type, office_id, subject, data) values ('webhook.test', ${endpoint.officeId}, ${JSON.stringify({ kind: 'webhook', id: String(endpointId) })}::jsonb,
        ${JSON.stringify({ message: 'A test event from the portal: the endpoint and its signature work.' })}::jsonb)
      returning id`)
  ).rows;
  const [delivery] = (
    await db.execute<{ id: number }>(sql`insert into webhook_deliveries (endpoint_id, event_id, order_key) values (${endpointId}, ${event!.id}, ${`event:${event!.id}`}) returning id`)
  ).rows;
  await startDelivery(db, Number(delivery!.id));
  return deliveryById(db, Number(delivery!.id));
}
