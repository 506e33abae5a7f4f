import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { rootCertificates } from 'node:tls';
import { lenderCallbackKey, signLenderCallback } from '../core/lenders/callback-signature.ts';
import type { LenderServiceConfig } from './config.ts';
import type { Faults } from './faults.ts';

/**
 * The lenders' callbacks: a JSON body in the shape of the portal's LenderCallback (schemas/api/lender-callback.json),
 * its event id in `data.eventId`, signed as decision 0110 says (X-Lender-Timestamp, X-Lender-Signature with the
 * lender's own key) and posted until the receiver answers 2xx. A retry sends the same bytes with a fresh timestamp and
 * signature, so a receiver that keys on the body or the event id applies it once.
 */

export interface CallbackPayload {
  lenderCode: string;
  appId: number;
  lenderAppId: string;
  eventType: 'Decision' | 'ContractStatus' | 'Funding' | 'Refund';
  decisionStatus?: string;
  contractStatus?: string;
  data?: Record<string, string | number | boolean | null>;
}

/** One callback and how its delivery went (GET /admin/callbacks). */
export interface Delivery {
  eventId: string;
  lenderCode: string;
  url: string;
  body: string;
  attempts: number;
  acknowledged: boolean;
  /** The receiver's last HTTP status, or the network error. */
  lastOutcome: number | string | null;
}

/** The deliveries kept for GET /admin/callbacks: the newest, so a long demo does not grow without end. */
const KEPT = 500;
const ATTEMPT_TIMEOUT_MS = 10_000;
const MAX_WAIT_MS = 60_000;

function post(url: URL, body: string, headers: Record<string, string>, ca: string[] | undefined): Promise<number> {
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const request = send(url, { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, timeout: ATTEMPT_TIMEOUT_MS, ...(ca ? { ca } : {}) }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    request.on('timeout', () => request.destroy(new Error('timed out')));
    request.on('error', reject);
    request.end(body);
  });
}

export interface CallbackSender {
  /** Sends a callback; resolves after its first attempt (later ones follow on their own). */
  send(url: string, payload: CallbackPayload): Promise<Delivery>;
  deliveries(): Delivery[];
  /** Stops the retries still waiting. */
  close(): void;
}

export function callbackSender(config: LenderServiceConfig, faultsOf: (code: string) => Faults): CallbackSender {
  const deliveries: Delivery[] = [];
  const waiting = new Set<NodeJS.Timeout>();
  // Read when first needed: in demo mode the portal writes its certificate while both start.
  let ca: string[] | undefined;
  const trusted = () => {
    if (config.callbackCaFiles.length && !ca) ca = [...rootCertificates, ...config.callbackCaFiles.map((file) => readFileSync(file, 'utf8'))];
    return ca;
  };

  async function attempt(delivery: Delivery): Promise<void> {
    delivery.attempts += 1;
    const timestamp = String(Math.floor(Date.now() / 1000));
    const key = faultsOf(delivery.lenderCode).badSignature ? randomBytes(32) : lenderCallbackKey({ lenderCallbackSecret: config.callbackSecret }, delivery.lenderCode);
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'x-lender-timestamp': timestamp,
      'x-lender-signature': signLenderCallback(key, timestamp, delivery.body),
      ...(config.portalApiKey ? { 'x-api-key': config.portalApiKey } : {}),
    };
    try {
      delivery.lastOutcome = await post(new URL(delivery.url), delivery.body, headers, trusted());
      delivery.acknowledged = delivery.lastOutcome >= 200 && delivery.lastOutcome < 300;
    } catch (error) {
      delivery.lastOutcome = (error as Error).message;
    }
    if (delivery.acknowledged || delivery.attempts >= config.retryAttempts) return;
    const timer = setTimeout(() => {
      waiting.delete(timer);
      void attempt(delivery);
    }, Math.min(MAX_WAIT_MS, config.retryBaseMs * 2 ** (delivery.attempts - 1)));
    waiting.add(timer);
  }

  return {
    async send(url, payload) {
      const eventId = randomUUID();
      const body = JSON.stringify({ ...payload, occurredAtUtc: new Date().toISOString(), data: { ...payload.data, eventId } });
      const delivery: Delivery = { eventId, lenderCode: payload.lenderCode, url, body, attempts: 0, acknowledged: false, lastOutcome: null };
      deliveries.push(delivery);
      if (deliveries.length > KEPT) deliveries.shift();
      await attempt(delivery);
      return delivery;
    },
    deliveries: () => [...deliveries],
    close() {
      for (const timer of waiting) clearTimeout(timer);
      waiting.clear();
    },
  };
}
