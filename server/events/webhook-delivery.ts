import { sql } from 'drizzle-orm';
import type { Settings } from '../config.ts';
import { decryptPii } from '../crypto/pii.ts';
import type { Db } from '../db/index.ts';
import { enqueue, type ClaimedJob } from '../jobs/queue.ts';
import type { JobOutcome, QueueWork } from '../jobs/runner.ts';
import { sendEmail } from '../notify/outbox.ts';
import { eventOf, type EventRow } from './event-view.ts';
import { WEBHOOK_ATTEMPTS, WEBHOOK_QUEUE } from './queue-names.ts';
import { signWebhook } from './signing.ts';
import { guardedLookup, webhookAddressProblem } from './webhook-address.ts';
import { postWebhook, WebhookTimeout } from './webhook-post.ts';

/**
 * Sending one event to one endpoint (issue 39; decision 0266), a job of the durable queue. Deliveries with the same
 * order key (an application's) go one at a time, in the order of their events: only the first undelivered one of a key
 * has a job, and it starts the next when the endpoint acknowledges it. A failure is tried again from 30 s, doubling to
 * an hour, for about a day; then the delivery has failed, the endpoint is paused and its admins are told by e-mail.
 */

const TIMEOUT_MS = 10_000;
const EXCERPT = 200;

type Row = EventRow & {
  delivery_id: number; endpoint_id: number; order_key: string; status: 'Pending' | 'Delivered' | 'Failed'; url: string; endpoint_status: 'Active' | 'Paused';
  secret: string; previous_secret: string | null; previous_until: string | Date | null; event_pk: number;
};

async function deliveryRow(db: Db, deliveryId: number): Promise<Row | undefined> {
  const rows = await db.execute<Row>(sql`
    select d.id as delivery_id, d.endpoint_id, d.order_key, d.status, e.url, e.status as endpoint_status, e.secret, e.previous_secret, e.previous_until,
      ev.id as event_pk, ev.event_id, ev.type, ev.office_id, ev.app_id, ev.subject, ev.data, ev.occurred_at
    from webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id join events ev on ev.id = d.event_id
    where d.id = ${deliveryId}`);
  return rows.rows[0];
}

/** Whether an earlier event of the same key is still to be delivered to this endpoint: this one waits its turn. */
export async function waitsItsTurn(db: Db, endpointId: number, orderKey: string, eventPk: number): Promise<boolean> {
  const earlier = await db.execute(sql`
    select 1 from webhook_deliveries where endpoint_id = ${endpointId} and order_key = ${orderKey} and event_id < ${eventPk} and status <> 'Delivered' limit 1`);
  return earlier.rows.length > 0;
}

/** Starts a delivery's job; `attempt` names a new job when it was sent before (a replay, a resumed endpoint). */
export async function startDelivery(db: Db, deliveryId: number, attempt?: string): Promise<void> {
  await enqueue(db, { queue: WEBHOOK_QUEUE, key: attempt ? `${deliveryId}:${attempt}` : String(deliveryId), payload: { deliveryId }, maxAttempts: WEBHOOK_ATTEMPTS });
}

type Attempt = { status: number | null; excerpt: string | null; latencyMs: number; error: string | null; delivered: boolean };

async function recordAttempt(db: Db, deliveryId: number, attempt: Attempt): Promise<void> {
  await db.execute(sql`
    update webhook_deliveries set attempts = attempts + 1, response_status = ${attempt.status}, response_excerpt = ${attempt.excerpt}, latency_ms = ${attempt.latencyMs},
      last_error = ${attempt.error}, last_attempt_at = now(),
      status = case when ${attempt.delivered} then 'Delivered'::webhook_delivery_status else status end,
      delivered_at = case when ${attempt.delivered} then now() else delivered_at end
    where id = ${deliveryId}`);
}

/**
 * An acknowledgement, and the next event of the same key for this endpoint, in one transaction under the endpoint's
 * lock (see fanOut). Marked delivered before that lock, a new event of the key could find nothing to wait for and get
 * its own job while this found it pending and started another: the receiver got it twice. The next job is named after
 * the job that acknowledged, so a delivery sent before (a replayed range, a resumed endpoint) gets a new job, and this
 * job tried again starts none twice.
 */
async function acknowledge(db: Db, row: Row, attempt: Attempt, acknowledgedBy: ClaimedJob): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`select id from webhook_endpoints where id = ${row.endpoint_id} for update`);
    await recordAttempt(tx, row.delivery_id, attempt);
    const next = await tx.execute<{ id: number }>(sql`
      select id from webhook_deliveries where endpoint_id = ${row.endpoint_id} and order_key = ${row.order_key} and event_id > ${row.event_pk} and status = 'Pending'
      order by event_id limit 1`);
    if (next.rows[0]) await startDelivery(tx, Number(next.rows[0].id), `after-job-${acknowledgedBy.id}`);
  });
}

async function deliver(db: Db, settings: Settings, job: ClaimedJob): Promise<JobOutcome> {
  const row = await deliveryRow(db, (job.payload as { deliveryId: number }).deliveryId);
  if (!row || row.status === 'Delivered') return { done: { outcome: 'nothing to send' } };
  if (row.endpoint_status === 'Paused') return { done: { outcome: 'the endpoint is paused: sent when it is resumed' } };
  if (await waitsItsTurn(db, row.endpoint_id, row.order_key, row.event_pk)) return { done: { outcome: 'waits for an earlier event of the same application' } };
  const problem = await webhookAddressProblem(settings, row.url);
  if (problem) throw new Error(problem);

  const body = JSON.stringify(eventOf(row));
  const timestamp = Math.floor(Date.now() / 1000);
  const secrets = [decryptPii(settings.piiKey, row.secret)];
  if (row.previous_secret && row.previous_until && new Date(row.previous_until).getTime() > Date.now()) secrets.push(decryptPii(settings.piiKey, row.previous_secret));
  const started = performance.now();
  let status: number;
  let excerpt: string;
  try {
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'pos-financing-webhooks/1',
      'webhook-id': row.event_id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signWebhook(secrets, row.event_id, timestamp, body),
    };
    ({ status, excerpt } = await postWebhook(row.url, headers, body, { lookup: guardedLookup(settings), timeoutMs: TIMEOUT_MS, excerpt: EXCERPT }));
  } catch (error) {
    const reason = error instanceof WebhookTimeout ? error.message : `could not connect (${error instanceof Error ? error.message : String(error)})`;
    await recordAttempt(db, row.delivery_id, { status: null, excerpt: null, latencyMs: Math.round(performance.now() - started), error: reason, delivered: false });
    throw new Error(reason);
  }
  const delivered = status >= 200 && status < 300;
  const attempt = { status, excerpt, latencyMs: Math.round(performance.now() - started), error: delivered ? null : `the endpoint answered ${status}`, delivered };
  if (!delivered) {
    await recordAttempt(db, row.delivery_id, attempt);
    throw new Error(attempt.error!);
  }
  await acknowledge(db, row, attempt, job);
  return { done: { status } };
}

/** A delivery that failed for a day: it is Failed, its endpoint paused, and those who manage it are e-mailed. */
async function gaveUp(db: Db, settings: Settings, job: ClaimedJob, reason: string): Promise<void> {
  const row = await deliveryRow(db, (job.payload as { deliveryId: number }).deliveryId);
  if (!row) return;
  await db.transaction(async (tx) => {
    await tx.execute(sql`update webhook_deliveries set status = 'Failed' where id = ${row.delivery_id} and status = 'Pending'`);
    const paused = await tx.execute<{ office_id: number | null }>(sql`
      update webhook_endpoints set status = 'Paused', paused_reason = ${`Paused after a delivery failed for a day: ${reason}`.slice(0, 500)}, updated_at = now()
      where id = ${row.endpoint_id} and status = 'Active' returning office_id`);
    if (!paused.rows[0]) return;
    const officeId = paused.rows[0].office_id;
    const admins = await tx.execute<{ email: string }>(
      officeId === null
        ? sql`select email from users where user_role = 'df.admin' and not is_disabled`
        : sql`select u.email from users u join user_offices uo on uo.user_id = u.id where uo.office_id = ${officeId} and uo.role = 'admin' and not uo.is_disabled and not u.is_disabled`,
    );
    // An office's admins resume it on its Integrations page; the platform's endpoints have no screen yet, only the API.
    const where = officeId === null ? null : `${settings.publicUrl}/#/settings/integrations`;
    const resume = where ? `once it is resumed: ${where}` : 'once it is resumed (Webhooks_UpdateEndpoint, status Active).';
    for (const { email } of admins.rows) {
      await sendEmail(tx, {
        to: email,
        subject: 'A webhook endpoint was paused',
        text: `Deliveries to ${row.url} failed for a day (${reason}), so the endpoint was paused. Its events wait and are sent in order ${resume}`,
        links: where ? [{ label: 'Open Integrations', url: where }] : [],
      });
    }
  });
}

export function webhookQueues(db: Db, settings: Settings): Record<string, QueueWork> {
  return {
    [WEBHOOK_QUEUE]: { run: (job) => deliver(db, settings, job), retry: { baseMs: 30_000, capMs: 3_600_000 }, gaveUp: (job, reason) => gaveUp(db, settings, job, reason) },
  };
}
