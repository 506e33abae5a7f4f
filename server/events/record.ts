import { sql } from 'drizzle-orm';
import type { EventType } from '../../codegen/generated/schemas.ts';
import type { Db } from '../db/index.ts';
import { startDelivery, waitsItsTurn } from './webhook-delivery.ts';

/**
 * Recording what happened (issue 39; decision 0266): one row of `events` in the transaction of the change, so an event
 * exists exactly when its change does, and in the same commit one delivery (and its job) per webhook endpoint that
 * chose its type — the office's own, and the platform's. The data is what a receiver needs to act and nothing a
 * stranger could misuse: ids, stages, amounts, a lender's code; never an SSN, a date of birth or a bank number.
 */

export interface NewEvent {
  type: EventType;
  officeId: number | null;
  /** The application it is about: its deliveries keep their order per application. */
  appId?: number | null;
  subject: { kind: 'application' | 'office' | 'user' | 'lender' | 'webhook'; id: string | number };
  data?: Record<string, string | number | boolean | null>;
}

/** Keys an event's data may never have: what identifies or pays a person. */
const FORBIDDEN = /ssn|social|dob|birth|account|routing|bank/i;

export async function recordEvent(tx: Db, event: NewEvent): Promise<{ id: number; eventId: string }> {
  const data = event.data ?? {};
  const leak = Object.keys(data).find((key) => FORBIDDEN.test(key));
  if (leak) throw new TypeError(`recordEvent: '${leak}' may not be in an event's data`);
  const inserted = await tx.execute<{ id: number; event_id: string }>(sql`
    insert into events (type, office_id, app_id, subject, data)
    values (${event.type}, ${event.officeId}, ${event.appId ?? null}, ${JSON.stringify({ kind: event.subject.kind, id: String(event.subject.id) })}::jsonb, ${JSON.stringify(data)}::jsonb)
    returning id, event_id`);
  const { id, event_id: eventId } = inserted.rows[0]!;
  await fanOut(tx, Number(id), event);
  return { id: Number(id), eventId };
}

/**
 * One delivery per endpoint that chose the type, a paused one too: its events wait, and are sent when it is resumed. Only the first undelivered delivery of its order key gets a job
 * (webhook-delivery.ts starts the next); the endpoint's row is locked while that is decided here and there, so an
 * acknowledgement and a new event of the same key give the new delivery one job: neither none nor two.
 */
async function fanOut(tx: Db, id: number, event: NewEvent): Promise<void> {
  const orderKey = event.appId ? `app:${event.appId}` : `event:${id}`;
  const endpoints = await tx.execute<{ id: number }>(sql`
    select id from webhook_endpoints
    where deleted_at is null and event_types ? ${event.type} and (office_id is null or office_id = ${event.officeId})
    order by id for update`);
  for (const endpoint of endpoints.rows) {
    const endpointId = Number(endpoint.id);
    const inserted = await tx.execute<{ id: number }>(sql`
      insert into webhook_deliveries (endpoint_id, event_id, order_key) values (${endpointId}, ${id}, ${orderKey})
      on conflict do nothing returning id`);
    const delivery = inserted.rows[0];
    if (delivery && !(await waitsItsTurn(tx, endpointId, orderKey, id))) await startDelivery(tx, Number(delivery.id));
  }
}
