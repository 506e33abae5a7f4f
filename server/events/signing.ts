import { createHmac, randomBytes } from 'node:crypto';

/**
 * Webhook signatures as Standard Webhooks has them (https://www.standardwebhooks.com): the secret is `whsec_` and the
 * base64 of its key; each attempt is signed over `<id>.<timestamp>.<body>` with HMAC-SHA256, `v1,<base64>`, one per
 * secret that signs (two while a rotation overlaps), separated by spaces.
 */

export const newWebhookSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

export function signWebhook(secrets: readonly string[], id: string, timestamp: number, body: string): string {
  return secrets
    .map((secret) => `v1,${createHmac('sha256', Buffer.from(secret.slice('whsec_'.length), 'base64')).update(`${id}.${timestamp}.${body}`).digest('base64')}`)
    .join(' ');
}
