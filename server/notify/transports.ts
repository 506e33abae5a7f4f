import { createTransport } from 'nodemailer';
import type { NotifySettings } from '../config.ts';
import type { Transport } from './delivery.ts';

/**
 * The real deliveries behind the outbox (docs/decisions/0104): SMTP through nodemailer, and an HTTP
 * SMS gateway that takes `POST {to, text, from?}` as JSON with an optional bearer token — the shape
 * most gateways accept or can be adapted to with a small relay. Both are configured by settings only.
 */

export function smtpTransport(settings: NonNullable<NotifySettings['smtp']>): Transport {
  const mailer = createTransport(settings.url, { from: settings.from });
  return {
    channel: 'Email',
    async deliver({ recipient, subject, body }) {
      await mailer.sendMail({ from: settings.from, to: recipient, subject: subject ?? '', text: body });
    },
  };
}

export function httpSmsTransport(settings: NonNullable<NotifySettings['sms']>, fetcher: typeof fetch = fetch): Transport {
  return {
    channel: 'Sms',
    async deliver({ recipient, body }) {
      const response = await fetcher(settings.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(settings.token ? { authorization: `Bearer ${settings.token}` } : {}),
        },
        body: JSON.stringify({ to: toE164(recipient), text: body, ...(settings.from ? { from: settings.from } : {}) }),
        signal: AbortSignal.timeout(10_000),
      });
      if (!response.ok) throw new Error(`the SMS gateway answered ${response.status}`);
    },
  };
}

/** (512) 555-0100 → +15125550100 (US numbers, the only ones the forms accept). */
export function toE164(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  return digits.length === 10 ? `+1${digits}` : `+${digits}`;
}

/** The configured transports by channel; none in a bare demo (the outbox page is then where messages are read). */
export function configuredTransports(settings: NotifySettings): Partial<Record<'Email' | 'Sms', Transport>> {
  return {
    ...(settings.smtp ? { Email: smtpTransport(settings.smtp) } : {}),
    ...(settings.sms ? { Sms: httpSmsTransport(settings.sms) } : {}),
  };
}
