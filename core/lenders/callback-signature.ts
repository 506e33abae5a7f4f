import { createHmac } from 'node:crypto';

/**
 * How a lender signs what it posts to the portal (decision 0110): the portal verifies with these, and the lender service
 * (decision 0259) signs with them, so the two cannot drift apart.
 */

/**
 * The HMAC key a lender signs its callbacks with: HMAC-SHA256(LENDER_CALLBACK_SECRET, "lender-callback/v1/<code>"),
 * so each lender holds its own key and one lender's key says nothing about another's.
 */
export function lenderCallbackKey(settings: { lenderCallbackSecret: Buffer }, code: string): Buffer {
  return createHmac('sha256', settings.lenderCallbackSecret).update(`lender-callback/v1/${code}`).digest();
}

/** `sha256=<hex>` over `<timestamp>.<raw body>`, as a lender sends it in X-Lender-Signature. */
export function signLenderCallback(key: Buffer, timestamp: string, rawBody: Buffer | string): string {
  return `sha256=${createHmac('sha256', key).update(`${timestamp}.`).update(rawBody).digest('hex')}`;
}
