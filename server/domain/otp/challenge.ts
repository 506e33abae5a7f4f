import { createHmac, timingSafeEqual } from 'node:crypto';

export type Channel = 'Email' | 'Sms';

const subKey = (secret: Buffer, purpose: string): Buffer => createHmac('sha256', secret).update(purpose).digest();

/**
 * Codes are stored as keyed hashes bound to their challenge: six digits are too few for a plain hash to resist a dump,
 * and a code is good for the challenge it was sent for only. docs/decisions/0173-passcodes-need-the-link.md
 */
export function hashCode(secret: Buffer, challengeId: string, code: string): string {
  return createHmac('sha256', subKey(secret, 'otp-code/v2')).update(`${challengeId}:${code}`).digest('base64url');
}

/** A landing page's contact (office, channel, phone or e-mail) as a keyed hash: its limits are counted without it. */
export function contactKey(secret: Buffer, contact: { officeId: number; channel: Channel; destination: string }): string {
  return createHmac('sha256', subKey(secret, 'otp-contact/v1')).update(`${contact.officeId}:${contact.channel}:${contact.destination}`).digest('base64url');
}

export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

export function maskEmail(email: string): string {
  const [local = '', domain = ''] = email.split('@');
  return `${local.slice(0, 1)}***@${domain}`;
}

export function maskPhone(phone: string): string {
  return `(***) ***-${phone.replace(/\D/g, '').slice(-4)}`;
}
