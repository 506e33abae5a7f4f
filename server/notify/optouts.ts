import { eq } from 'drizzle-orm';
import type { Db } from '../db/index.ts';
import { smsOptOuts } from '../db/schema.ts';
import { optOutWords } from '../descriptors/languages.ts';

/**
 * Inbound text replies (docs/decisions/0105). A reply whose whole text is an opt-out keyword puts the
 * number on `sms_opt_outs`, after which `sendSms` queues nothing for it; START / UNSTOP take it off
 * again (the CTIA keywords). The gateway sends the carrier-required confirmation itself. Each language of
 * screens/languages/ adds its own opt-out words ('ALTO', 'PARAR'), decision 0216.
 */
export const OPT_OUT_KEYWORDS = ['STOP', 'STOPALL', 'QUIT', 'END', 'REVOKE', 'OPT OUT', 'OPTOUT', 'CANCEL', 'UNSUBSCRIBE'] as const;
export const OPT_IN_KEYWORDS = ['START', 'UNSTOP'] as const;

/** The 10 digits of a US number as sms_opt_outs keeps it: '+1 (512) 555-0100' → '5125550100'; null when not one. */
export function phoneDigits(phone: string): string | null {
  let digits = phone.replace(/\D/g, '');
  if (digits.length === 11 && digits.startsWith('1')) digits = digits.slice(1);
  return digits.length === 10 ? digits : null;
}

/** The keyword a reply consists of, ignoring case, spacing and punctuation around it ('Stop.' → STOP). */
export function keywordOf(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toUpperCase().replace(/[^A-Z ]/g, ' ').replace(/\s+/g, ' ').trim();
}

export type ReplyOutcome = 'opted-out' | 'opted-in' | 'ignored';

export async function receiveSmsReply(db: Db, reply: { from: string; text: string }): Promise<ReplyOutcome> {
  const phone = phoneDigits(reply.from);
  if (!phone) return 'ignored';
  const keyword = keywordOf(reply.text);
  if ((OPT_OUT_KEYWORDS as readonly string[]).includes(keyword) || optOutWords().has(keyword)) {
    await db.insert(smsOptOuts).values({ phone }).onConflictDoNothing();
    return 'opted-out';
  }
  if ((OPT_IN_KEYWORDS as readonly string[]).includes(keyword)) {
    await db.delete(smsOptOuts).where(eq(smsOptOuts.phone, phone));
    return 'opted-in';
  }
  return 'ignored';
}

export async function isOptedOut(db: Db, phone: string): Promise<boolean> {
  const digits = phoneDigits(phone);
  if (!digits) return false;
  const [row] = await db.select({ phone: smsOptOuts.phone }).from(smsOptOuts).where(eq(smsOptOuts.phone, digits));
  return Boolean(row);
}
