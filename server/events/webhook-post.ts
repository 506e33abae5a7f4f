import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';

/** What the endpoint answered: its status and the first characters of its body. */
export interface WebhookAnswer {
  status: number;
  excerpt: string;
}

export class WebhookTimeout extends Error {}

/**
 * Posts one signed delivery (issue 39; decision 0266): connecting only to what `lookup` allows (webhook-address.ts),
 * following no redirect, reading no more of the answer than its excerpt, and giving up after `timeoutMs` in all.
 */
export function postWebhook(url: string, headers: Record<string, string>, body: string, options: { lookup: LookupFunction; timeoutMs: number; excerpt: number }): Promise<WebhookAnswer> {
  const target = new URL(url);
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const request = send(target, { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, lookup: options.lookup }, (response) => {
      let text = '';
      const answer = () => resolve({ status: response.statusCode ?? 0, excerpt: text.slice(0, options.excerpt) });
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        text += chunk;
        // Enough for the log: the rest of a large answer is not read.
        if (text.length >= options.excerpt) response.destroy();
      });
      response.on('end', answer);
      response.on('close', answer);
    });
    const deadline = setTimeout(() => request.destroy(new WebhookTimeout(`no answer within ${options.timeoutMs / 1000} s`)), options.timeoutMs);
    request.on('close', () => clearTimeout(deadline));
    request.on('error', reject);
    request.end(body);
  });
}
