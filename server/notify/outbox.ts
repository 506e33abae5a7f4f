import { eq } from 'drizzle-orm';
import type { Db } from '../db/index.ts';
import { outbox, smsOptOuts } from '../db/schema.ts';
import { enqueue } from '../jobs/queue.ts';
import { MESSAGE_ATTEMPTS, MESSAGE_QUEUE } from './delivery.ts';

/**
 * Every e-mail and text message the product sends is first written to the `outbox` table, in the
 * caller's transaction: an invite or a passcode exists exactly when its message does, and so does the job
 * that delivers it (delivery.ts, docs/decisions/0066-outbox.md and 0262) through the configured transport
 * (SMTP, an SMS gateway), marking the row `Sent` or `Failed`. Until a transport is configured — and
 * always in demo mode — the outbox is where messages are read.
 */
export interface Link {
  label: string;
  url: string;
}

export interface Email {
  to: string;
  subject: string;
  /** Plain text; links are also listed in `links` so that the outbox page can show them as buttons. */
  text: string;
  links?: Link[];
}

export interface Sms {
  /** A mobile phone in the (###) ###-#### mask. */
  to: string;
  text: string;
  links?: Link[];
}

export type Queued = { queued: true; id: number } | { queued: false; reason: 'opted-out' };

const EMAIL = /^[^\s@]+@[^\s@]+$/;
const PHONE = /^\(\d{3}\) \d{3}-\d{4}$/;

function enqueueDelivery(db: Db, outboxId: number) {
  return enqueue(db, { queue: MESSAGE_QUEUE, key: String(outboxId), payload: { outboxId }, maxAttempts: MESSAGE_ATTEMPTS });
}

export async function sendEmail(db: Db, email: Email): Promise<Queued> {
  if (!EMAIL.test(email.to)) throw new TypeError('sendEmail: not an e-mail address');
  const [row] = await db
    .insert(outbox)
    .values({ channel: 'Email', recipient: email.to.toLowerCase(), subject: email.subject, body: email.text, links: email.links ?? [] })
    .returning({ id: outbox.id });
  await enqueueDelivery(db, row!.id);
  return { queued: true, id: row!.id };
}

/** Numbers that replied STOP get nothing (spec §2: replying STOP opts out). */
/** Whether a mobile phone ((###) ###-####) replied STOP: no text goes to it (TCPA). */
export async function smsOptedOut(db: Db, phone: string): Promise<boolean> {
  const [optedOut] = await db.select({ phone: smsOptOuts.phone }).from(smsOptOuts).where(eq(smsOptOuts.phone, phone.replace(/\D/g, '')));
  return optedOut !== undefined;
}

export async function sendSms(db: Db, sms: Sms): Promise<Queued> {
  if (!PHONE.test(sms.to)) throw new TypeError('sendSms: not a (###) ###-#### mobile phone');
  if (await smsOptedOut(db, sms.to)) return { queued: false, reason: 'opted-out' };
  const [row] = await db
    .insert(outbox)
    .values({ channel: 'Sms', recipient: sms.to, subject: null, body: sms.text, links: sms.links ?? [] })
    .returning({ id: outbox.id });
  await enqueueDelivery(db, row!.id);
  return { queued: true, id: row!.id };
}
