/**
 * The API client's middleware, as pure functions over fetch (unit-tested with a fake fetch):
 * - headers (openapi-fetch middleware): X-Api-Key on (key) operations, X-Borrower-Token when the session holds one,
 *   an Idempotency-Key on every write (the same key for every retry of one call, decision 0253);
 * - the fetch wrapper: the bearer token from the AuthPort, one silent renewal and retry on 401, and up to 3 retries
 *   after 100 ms × 2^attempt + up to 20 % jitter for failures that are safe to retry: a read, or a write with its key.
 */
import { DESCRIPTOR_SET_HEADER } from '../../../core/descriptor-set-header.ts';
import type { Middleware } from 'openapi-fetch';

export interface OperationFacts {
  method: string;
  path: string;
  key: boolean;
  write: boolean;
}

export const MAX_RETRIES = 3;
export const BASE_DELAY_MS = 100;
export const JITTER = 0.2;
/** Statuses worth another try: timeouts, rate limits and passing server or gateway trouble. Never 501. */
export const RETRY_STATUSES: ReadonlySet<number> = new Set([408, 429, 500, 502, 503, 504]);

/** 100 ms × 2^attempt, plus up to 20 % (attempt 0, 1, 2 → 100–120, 200–240, 400–480 ms). */
export function retryDelay(attempt: number, random: () => number = Math.random): number {
  return BASE_DELAY_MS * 2 ** attempt * (1 + random() * JITTER);
}

/** Finds the operation of a request by method and path (templates such as /api/App/GetApp/{id}/{refreshStatus}). */
export function operationMatcher(operations: Record<string, OperationFacts>): (method: string, pathname: string) => (OperationFacts & { id: string }) | undefined {
  const compiled = Object.entries(operations).map(([id, op]) => ({
    id,
    op,
    method: op.method.toUpperCase(),
    pattern: new RegExp(`^${op.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}|\{[^}]+\}/g, '[^/]+')}$`),
    literal: op.path.replace(/\{[^}]+\}/g, '').length,
  }));
  // Literal segments first: /api/Office/CheckNewLenders/{officeId}/newLenders before a bare {x}.
  compiled.sort((a, b) => b.literal - a.literal);
  return (method, pathname) => {
    const upper = method.toUpperCase();
    const hit = compiled.find((c) => c.method === upper && c.pattern.test(pathname));
    return hit ? { ...hit.op, id: hit.id } : undefined;
  };
}

export interface HeaderOptions {
  /** By the contract's path template (openapi-fetch's schemaPath) and method. */
  operationFor(method: string, schemaPath: string): OperationFacts | undefined;
  apiKey(): string | null;
  borrowerToken(): string | null;
  /** The language people read (decision 0216): the server answers in it (texts, problem details). */
  language?(): string;
  /** The descriptor set the page runs on, by its hash ('' for the files as deployed): a borrower's step records it (decision 0289). */
  shownSet?(): string | undefined;
  newIdempotencyKey?: () => string;
}

/** openapi-fetch middleware adding the per-operation headers. */
export function headerMiddleware(options: HeaderOptions): Middleware {
  return {
    onRequest({ request, schemaPath }) {
      const op = options.operationFor(request.method, schemaPath);
      const key = options.apiKey();
      if (op?.key && key) request.headers.set('X-Api-Key', key);
      const language = options.language?.();
      if (language) request.headers.set('Accept-Language', language);
      const borrower = options.borrowerToken();
      if (borrower) request.headers.set('X-Borrower-Token', borrower);
      const shown = op?.write ? options.shownSet?.() : undefined;
      if (shown !== undefined) request.headers.set(DESCRIPTOR_SET_HEADER, shown);
      if (op?.write && !request.headers.has('Idempotency-Key')) {
        request.headers.set('Idempotency-Key', (options.newIdempotencyKey ?? (() => crypto.randomUUID()))());
      }
      return request;
    },
  };
}

export interface FetchOptions {
  fetch: (request: Request) => Promise<Response>;
  acquireToken(options?: { forceRefresh?: boolean }): Promise<string | null>;
  /** Does this request change something (an operation of the contract that is not a read)? */
  write(request: Request): boolean;
  sleep?(ms: number): Promise<void>;
  random?(): number;
  /** Activity for the progress overlay: +1 when a call starts, -1 when it ends. */
  onActivity?(delta: 1 | -1, request: Request): void;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Is a failure of this request safe to repeat? A read, or a write carrying its Idempotency-Key (the server acts once). */
export function safeToRetry(request: Request, write: boolean): boolean {
  return !write || request.headers.has('Idempotency-Key');
}

/** The fetch that openapi-fetch calls: bearer token, one renewal on 401, retries with back-off. */
export function createApiFetch(options: FetchOptions): (request: Request) => Promise<Response> {
  const sleep = options.sleep ?? defaultSleep;
  const random = options.random ?? Math.random;
  return async (original: Request) => {
    options.onActivity?.(1, original);
    try {
      const retryable = safeToRetry(original, options.write(original));
      let token = await options.acquireToken();
      let renewed = false;
      let attempt = 0;
      for (;;) {
        const request = original.clone();
        if (token) request.headers.set('Authorization', `Bearer ${token}`);
        let response: Response;
        try {
          response = await options.fetch(request);
        } catch (error) {
          // A network failure: the request may not have arrived at all.
          if (retryable && attempt < MAX_RETRIES) {
            await sleep(retryDelay(attempt++, random));
            continue;
          }
          throw error;
        }
        if (response.status === 401 && !renewed) {
          renewed = true;
          const fresh = await options.acquireToken({ forceRefresh: true });
          if (fresh) {
            token = fresh;
            continue;
          }
          return response;
        }
        if (RETRY_STATUSES.has(response.status) && retryable && attempt < MAX_RETRIES) {
          await sleep(retryDelay(attempt++, random));
          continue;
        }
        return response;
      }
    } finally {
      options.onActivity?.(-1, original);
    }
  };
}
