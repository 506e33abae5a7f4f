import type { components } from '../../codegen/generated/api.ts';

type Event = components['schemas']['Event'];

/** An `events` row as the database answers it (snake case, a bigint id). */
export type EventRow = {
  event_id: string;
  type: Event['type'];
  office_id: number | null;
  app_id: number | null;
  subject: Event['subject'];
  data: Event['data'];
  occurred_at: string | Date;
};

/** The event as webhooks deliver it (schemas/entities/event.json). */
export function eventOf(row: EventRow): Event {
  return {
    id: row.event_id,
    type: row.type,
    occurredAt: new Date(row.occurred_at).toISOString(),
    officeId: row.office_id === null ? null : Number(row.office_id),
    appId: row.app_id === null ? null : Number(row.app_id),
    subject: row.subject,
    data: row.data,
  };
}
