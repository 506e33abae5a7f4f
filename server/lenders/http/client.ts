/**
 * Calls to one lender's API as its file describes them (issue 38): its authentication (OAuth 2.0 client credentials
 * with the token kept until shortly before it expires, an API key, or HMAC-signed requests), a timeout per call,
 * retries with backoff only where a repeat is safe, an Idempotency-Key on money, a circuit breaker, and the lender's
 * answers sorted into data and outcomes (declined, pending review, unavailable, bad request). Nothing here names a
 * lender: everything comes from the file and the server's configuration.
 */
import { createHmac, randomUUID } from 'node:crypto';
import type { LenderHttp, LenderHttpOperation } from '../../../codegen/generated/descriptors.ts';
import { evaluate, truthy, type Context } from '../../../core/expressions.ts';
import { Breaker } from './breaker.ts';
import { MappingError, render, renderPath } from './mapping.ts';

/** Where the lender is and the secrets its authentication needs: server configuration, never the lender file. */
export interface LenderEndpoint {
  baseUrl: string;
  clientId?: string;
  clientSecret?: string;
  apiKey?: string;
  signingSecret?: string;
}

export type OperationName = keyof LenderHttp['operations'];
export type Outcome = 'Declined' | 'PendingReview' | 'Unavailable' | 'BadRequest';

/** What a call came to: the lender's answer to map, or an outcome with the reason, for the log (no personal data). */
export type CallResult = { kind: 'answer'; status: number; body: unknown } | { kind: 'outcome'; is: Outcome; status: number | null; reason: string };

export interface CallOptions {
  signal?: AbortSignal;
  /** The intent's key on a call described `idempotent` (the same on every retry and every repeat of the intent). */
  idempotencyKey?: string;
}

export interface LenderClient {
  call(name: OperationName, context: Context, options?: CallOptions): Promise<CallResult>;
  readonly breaker: Breaker;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_BREAKER = { failures: 5, openMs: 30_000 };
const RETRY_BASE_MS = 200;
/** A token is renewed this long before it expires (at most a tenth of its life). */
const TOKEN_MARGIN_MS = 60_000;

export interface ClientDependencies {
  fetch?: typeof fetch;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

class Unavailable extends Error {}

export function lenderClient(code: string, http: LenderHttp, endpoint: LenderEndpoint | undefined, dependencies: ClientDependencies = {}): LenderClient {
  const doFetch = dependencies.fetch ?? fetch;
  const now = dependencies.now ?? Date.now;
  const sleep = dependencies.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const breaker = new Breaker(http.breaker ?? DEFAULT_BREAKER, now);
  const base = endpoint?.baseUrl.replace(/\/$/, '') ?? '';
  let token: { value: string; renewAt: number } | undefined;
  let fetchingToken: Promise<string> | undefined;

  async function newToken(signal: AbortSignal): Promise<string> {
    if (http.auth.kind !== 'oauth2') throw new Error('not an OAuth 2.0 lender');
    const form = new URLSearchParams({ grant_type: 'client_credentials', ...(http.auth.scope ? { scope: http.auth.scope } : {}) });
    const basic = Buffer.from(`${endpoint?.clientId ?? code}:${endpoint?.clientSecret ?? ''}`).toString('base64');
    const response = await doFetch(`${base}${http.auth.tokenPath}`, {
      method: 'POST',
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: form.toString(),
      signal,
    }).catch(() => {
      throw new Unavailable('the token endpoint did not answer');
    });
    if (!response.ok) throw new Unavailable(`the token endpoint answered ${response.status}`);
    const answer = (await response.json().catch(() => null)) as { access_token?: unknown; expires_in?: unknown } | null;
    if (!answer || typeof answer.access_token !== 'string' || typeof answer.expires_in !== 'number') throw new Unavailable('the token endpoint answered no token');
    const lifeMs = answer.expires_in * 1000;
    token = { value: answer.access_token, renewAt: now() + lifeMs - Math.min(TOKEN_MARGIN_MS, lifeMs / 10) };
    return token.value;
  }

  /** The bearer token, one request for it at a time; `renew` throws away the one kept (the lender refused it). */
  async function bearer(signal: AbortSignal, renew: boolean): Promise<string> {
    if (renew) token = undefined;
    if (token && now() < token.renewAt) return token.value;
    fetchingToken ??= newToken(signal).finally(() => (fetchingToken = undefined));
    return fetchingToken;
  }

  async function authHeaders(body: string, signal: AbortSignal, renew: boolean): Promise<Record<string, string>> {
    const auth = http.auth;
    if (auth.kind === 'oauth2') return { authorization: `Bearer ${await bearer(signal, renew)}` };
    if (auth.kind === 'apiKey') return { [auth.header.toLowerCase()]: endpoint?.apiKey ?? '' };
    const timestamp = String(Math.floor(now() / 1000));
    const signature = createHmac('sha256', endpoint?.signingSecret ?? '').update(`${timestamp}.${body}`).digest('hex');
    return { [auth.timestampHeader.toLowerCase()]: timestamp, [auth.header.toLowerCase()]: `sha256=${signature}` };
  }

  /** One request; an answer of any status, or Unavailable when none came in time or it was not JSON. */
  async function send(op: LenderHttpOperation, url: string, body: string | undefined, headers: Record<string, string>, signal: AbortSignal): Promise<{ status: number; body: unknown }> {
    let response: Response;
    try {
      response = await doFetch(url, { method: op.method, headers, body, signal });
    } catch {
      throw new Unavailable(signal.aborted ? 'no answer in time' : 'no connection');
    }
    const text = await response.text().catch(() => {
      throw new Unavailable('the answer was cut short');
    });
    if (!text) return { status: response.status, body: null };
    try {
      return { status: response.status, body: JSON.parse(text) as unknown };
    } catch {
      throw new Unavailable(`the answer (${response.status}) is not JSON`);
    }
  }

  function outcomeOf(op: LenderHttpOperation, context: Context, answer: { status: number; body: unknown }): CallResult {
    for (const { when, is } of op.outcomes ?? []) {
      if (truthy(evaluate(when, { ...context, response: answer }))) return { kind: 'outcome', is, status: answer.status, reason: `the answer ${answer.status} is ${is}` };
    }
    if (answer.status >= 200 && answer.status < 300) return { kind: 'answer', ...answer };
    if (answer.status === 408 || answer.status === 429 || answer.status >= 500) return { kind: 'outcome', is: 'Unavailable', status: answer.status, reason: `the lender answered ${answer.status}` };
    return { kind: 'outcome', is: 'BadRequest', status: answer.status, reason: `the lender answered ${answer.status}` };
  }

  async function call(name: OperationName, context: Context, options: CallOptions = {}): Promise<CallResult> {
    const op = http.operations[name];
    if (!op) throw new Error(`${code}: the lender file describes no '${name}' call`);
    if (!endpoint) return { kind: 'outcome', is: 'Unavailable', status: null, reason: `no address is configured (LENDER_${code.toUpperCase()}_URL)` };
    if (!breaker.allows()) return { kind: 'outcome', is: 'Unavailable', status: null, reason: 'skipped: the lender failed too often, it is tried again later' };
    const place = `/http/operations/${name}`;
    let url: string;
    let body: string | undefined;
    try {
      url = `${base}${renderPath(op.path, context, `${place}/path`)}`;
      body = op.body === undefined ? undefined : JSON.stringify(render(op.body, context, `${place}/body`));
    } catch (error) {
      if (error instanceof MappingError) return { kind: 'outcome', is: 'BadRequest', status: null, reason: `the request cannot be made: ${error.message}` };
      throw error;
    }
    const safe = op.method === 'GET' || op.idempotent === true;
    const attempts = 1 + (safe ? (op.retries ?? 0) : 0);
    const key = op.idempotent ? (options.idempotencyKey ?? randomUUID()) : undefined;
    let last: CallResult = { kind: 'outcome', is: 'Unavailable', status: null, reason: 'not sent' };
    for (let attempt = 0; attempt < attempts; attempt++) {
      if (attempt > 0) await sleep(RETRY_BASE_MS * 2 ** (attempt - 1));
      last = await once(op, context, url, body, key, options.signal);
      if (!(last.kind === 'outcome' && last.is === 'Unavailable')) break;
    }
    if (last.kind === 'outcome' && last.is === 'Unavailable') breaker.failed();
    else breaker.succeeded();
    return last;
  }

  async function once(op: LenderHttpOperation, context: Context, url: string, body: string | undefined, key: string | undefined, outer: AbortSignal | undefined): Promise<CallResult> {
    const timeout = AbortSignal.timeout(op.timeoutMs ?? http.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    const signal = outer ? AbortSignal.any([outer, timeout]) : timeout;
    try {
      for (let renew = false; ; renew = true) {
        const headers = {
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(key ? { 'idempotency-key': key } : {}),
          ...(await authHeaders(body ?? '', signal, renew)),
        };
        const answer = await send(op, url, body, headers, signal);
        // A token the lender no longer takes (revoked, its clock ahead of ours) is renewed once.
        if (answer.status === 401 && http.auth.kind === 'oauth2' && !renew) continue;
        return outcomeOf(op, context, answer);
      }
    } catch (error) {
      if (error instanceof Unavailable) return { kind: 'outcome', is: 'Unavailable', status: null, reason: error.message };
      throw error;
    }
  }

  return { call, breaker };
}
