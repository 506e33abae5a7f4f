import { describe, expect, it } from 'vitest';
import createClient from 'openapi-fetch';
import type { paths } from '../../codegen/generated/api.ts';
import { operationIndex } from '../../codegen/generated/operation-index.ts';
import { createApiFetch, headerMiddleware, operationMatcher, retryDelay, type OperationFacts } from '../../src/app/api/pipeline.ts';
import { ApiError, errorLines, isProblem, refusalOf } from '../../src/app/api/problem.ts';
import { runActions } from '../../src/engine/actions.ts';
import { fakeRuntime } from '../support/action-runtime.ts';
import messages from '../../schemas/messages.json';

interface Sent {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** A fake server: answers in order, records what it got. */
function fakeFetch(answers: Array<Response | Error>) {
  const sent: Sent[] = [];
  const fetch = async (request: Request) => {
    sent.push({ method: request.method, path: new URL(request.url).pathname, headers: Object.fromEntries(request.headers.entries()), body: await request.text() });
    const next = answers.shift() ?? new Response('{}', { status: 200 });
    if (next instanceof Error) throw next;
    return next;
  };
  return { fetch, sent };
}

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': status >= 400 ? 'application/problem+json' : 'application/json' } });

function client(answers: Array<Response | Error>, tokens: Array<string | null> = ['t1'], borrower: string | null = null) {
  const server = fakeFetch(answers);
  const sleeps: number[] = [];
  const tokenCalls: Array<{ forceRefresh?: boolean } | undefined> = [];
  const byTemplate = new Map<string, OperationFacts>(Object.values(operationIndex).map((op) => [`${op.method.toUpperCase()} ${op.path}`, op]));
  const match = operationMatcher(operationIndex);
  const api = createClient<paths>({
    baseUrl: 'http://test',
    fetch: createApiFetch({
      fetch: server.fetch,
      acquireToken: async (options) => {
        tokenCalls.push(options);
        return tokens.length > 1 ? tokens.shift()! : tokens[0]!;
      },
      write: (request) => match(request.method, new URL(request.url).pathname)?.write ?? true,
      sleep: async (ms) => void sleeps.push(ms),
      random: () => 0.5,
    }),
  });
  api.use(headerMiddleware({ operationFor: (m, p) => byTemplate.get(`${m.toUpperCase()} ${p}`), apiKey: () => 'web-key', borrowerToken: () => borrower, newIdempotencyKey: () => 'idem-1' }));
  return { api, ...server, sleeps, tokenCalls };
}

describe('the API client middleware', () => {
  it('sends the bearer token, and X-Api-Key only on (key) calls', async () => {
    const c = client([json(200, { items: [] }), json(200, { status: 'ok', database: 'up' })]);
    await c.api.GET('/api/Config/GetConfigItems/{type}', { params: { path: { type: 'States' } } });
    await c.api.GET('/api/health');
    expect(c.sent[0]!.headers.authorization).toBe('Bearer t1');
    expect(c.sent[0]!.headers['x-api-key']).toBe('web-key');
    expect(c.sent[1]!.headers['x-api-key']).toBeUndefined();
  });

  it('sends the borrower token from the session, and no bearer when nobody is signed in', async () => {
    const c = client([json(200, {})], [null], 'borrower-token');
    await c.api.GET('/api/health');
    expect(c.sent[0]!.headers['x-borrower-token']).toBe('borrower-token');
    expect(c.sent[0]!.headers.authorization).toBeUndefined();
  });

  it('renews the token once on 401 and repeats the call with it', async () => {
    const c = client([json(401, { title: 'Unauthorized', status: 401 }), json(200, { status: 'ok', database: 'up' })], ['old', 'new']);
    const result = await c.api.GET('/api/health');
    expect(result.response.status).toBe(200);
    expect(c.sent.map((s) => s.headers.authorization)).toEqual(['Bearer old', 'Bearer new']);
    expect(c.tokenCalls).toEqual([undefined, { forceRefresh: true }]);
  });

  it('gives up after one renewal', async () => {
    const c = client([json(401, { title: 'Unauthorized' }), json(401, { title: 'Unauthorized' })], ['a', 'b']);
    const result = await c.api.GET('/api/health');
    expect(result.response.status).toBe(401);
    expect(c.sent).toHaveLength(2);
  });

  it('retries safe calls up to 3 times after 100 ms × 2^attempt plus jitter', async () => {
    const c = client([json(503, {}), json(502, {}), new TypeError('network down'), json(200, { status: 'ok', database: 'up' })]);
    const result = await c.api.GET('/api/health');
    expect(result.response.status).toBe(200);
    expect(c.sent).toHaveLength(4);
    expect(c.sleeps.map(Math.round)).toEqual([110, 220, 440]);
    expect(retryDelay(0, () => 0)).toBe(100);
    expect(retryDelay(2, () => 1)).toBeCloseTo(480);
  });

  it('stops after 3 retries', async () => {
    const c = client([json(503, {}), json(503, {}), json(503, {}), json(503, {}), json(200, {})]);
    const result = await c.api.GET('/api/health');
    expect(result.response.status).toBe(503);
    expect(c.sent).toHaveLength(4);
  });

  it('never retries 501, nor a write without an idempotency key; retries a read sent as POST or PUT', async () => {
    const notImplemented = client([json(501, { title: 'Not Implemented' })]);
    expect((await notImplemented.api.GET('/api/health')).response.status).toBe(501);
    expect(notImplemented.sent).toHaveLength(1);
    const read = client([json(503, {}), json(200, {})]);
    await read.api.POST('/api/Office/SearchOffices', { body: {} });
    expect(read.sent).toHaveLength(2);
    expect(read.sent[0]!.headers['idempotency-key']).toBeUndefined();
    const unkeyed = createApiFetch({ fetch: fakeFetch([json(503, {}), json(200, {})]).fetch, acquireToken: async () => null, write: () => true, sleep: async () => undefined });
    expect((await unkeyed(new Request('http://test/api/App/UpsertAppNote', { method: 'PUT', body: '{}' }))).status).toBe(503);
  });

  it('sends every write with an Idempotency-Key and retries it with the same one (a note added once, decision 0253)', async () => {
    const c = client([json(503, {}), json(200, { id: 1 })]);
    await c.api.PUT('/api/App/UpsertAppNote', { body: { appId: 1, note: 'Called the patient' } } as never);
    expect(c.sent.map((s) => s.headers['idempotency-key'])).toEqual(['idem-1', 'idem-1']);
  });

  it('retries an x-idempotent POST with the same Idempotency-Key', async () => {
    const c = client([json(503, {}), json(200, { success: true, appId: 1, channels: ['email'] })]);
    // The contract requires the header; the middleware supplies it, so the call leaves it out.
    const body = { officeId: 1, firstName: 'A', lastName: 'B', amount: 750, email: 'a@b.test', enableRemoteSign: false };
    await c.api.POST('/api/App/SendApp', { body, params: { header: {} } } as never);
    expect(c.sent).toHaveLength(2);
    expect(c.sent.map((s) => s.headers['idempotency-key'])).toEqual(['idem-1', 'idem-1']);
    expect(c.sent[0]!.body).toBe(c.sent[1]!.body);
  });

  it('finds operations by method and path template', () => {
    const match = operationMatcher(operationIndex);
    expect(match('GET', '/api/App/GetApp/5/true')?.id).toBe('App_GetApp');
    expect(match('GET', '/api/Office/CheckNewLenders/3/newLenders')?.id).toBe('Office_CheckNewLenders');
    expect(match('PUT', '/api/App/GetApp/5/true')).toBeUndefined();
    expect(operationIndex.App_SendApp).toMatchObject({ method: 'post', key: false, write: true, body: true });
    expect(operationIndex.App_GetOfficeApps).toMatchObject({ method: 'put', write: false });
    expect(operationIndex.App_CheckBorrowerEmail.key).toBe(true);
    expect(operationIndex.App_GetLoanAgreement.download).toBe(true);
  });
});

describe("a business rule's refusal is a sentence where the person acted (issue 37)", () => {
  const refused = new ApiError(409, { title: 'Conflict', status: 409, detail: 'An office needs at least one active admin.', traceId: 't' }, 'Users_UpsertUser');
  const failed = new ApiError(500, { title: 'Internal Server Error', status: 500, traceId: 't' }, 'Users_UpsertUser');

  it('is a 409 or a 429 with its detail; a failure, a 400 or a 409 without words is none', () => {
    expect(refusalOf(refused)).toBe('An office needs at least one active admin.');
    expect(refusalOf(new ApiError(429, { status: 429, detail: 'Too many attempts. Try again in 5 minutes.' }, 'x'))).toBe('Too many attempts. Try again in 5 minutes.');
    expect(refusalOf(failed)).toBeUndefined();
    expect(refusalOf(new ApiError(400, { status: 400, detail: 'One or more validation errors occurred.' }, 'x'))).toBeUndefined();
    expect(refusalOf(new ApiError(409, { status: 409 }, 'x'))).toBeUndefined();
    expect(refusalOf(new Error('network'))).toBeUndefined();
  });

  async function submitFailing(error: unknown, where: 'beside the button' | 'nowhere') {
    const said: string[] = [];
    const toasts: string[] = [];
    const runtime = fakeRuntime([], {
      call: async () => Promise.reject(error),
      toast: { success: () => undefined, info: (m) => toasts.push(`info: ${m}`), error: () => toasts.push('error toast') },
      ...(where === 'beside the button' ? { refused: (sentence: string) => said.push(sentence) } : {}),
    });
    const done = await runActions([{ type: 'submit', operation: 'Users_UpsertUser' }], {}, runtime);
    return { done, said, toasts };
  }

  it('is said where the person acted, without the error toast', async () => {
    expect(await submitFailing(refused, 'beside the button')).toEqual({ done: false, said: ['An office needs at least one active admin.'], toasts: [] });
  });

  it('is a plain toast of its sentence where the action has no place of its own', async () => {
    expect(await submitFailing(refused, 'nowhere')).toEqual({ done: false, said: [], toasts: ['info: An office needs at least one active admin.'] });
  });

  it('leaves a failure to the error toast of spec §8, with its operation id', async () => {
    expect(await submitFailing(failed, 'beside the button')).toEqual({ done: false, said: [], toasts: ['error toast'] });
  });
});

describe('problem details and the error toast of spec §8', () => {
  const texts = messages.messages;

  it('lists the OperationId and the field errors of a 400', () => {
    const error = new ApiError(400, { title: 'Bad Request', status: 400, traceId: 'abc123', errors: { email: ['This field must be a valid e-mail address.'], firstName: ['This field is required.'] } }, 'App_SendApp');
    expect(errorLines(error, texts)).toEqual(['OperationId: abc123', 'email: This field must be a valid e-mail address.', 'firstName: This field is required.']);
    expect(messages.messages.saveError).toBe('Oops! An error has occurred while saving the information.');
  });

  it('shows detail, else title, for other statuses', () => {
    expect(errorLines(new ApiError(501, { title: 'Not Implemented', status: 501, detail: 'App_SendApp is not available yet.', traceId: 't' }, 'x'), texts)).toEqual([
      'OperationId: t',
      'App_SendApp is not available yet.',
    ]);
    expect(errorLines(new ApiError(404, { title: 'Not Found', status: 404 }, 'x'), texts)).toEqual(['Not Found']);
  });

  it('says the catalogue words when there is no problem body', () => {
    expect(errorLines(new ApiError(500, undefined, 'x'), texts)).toEqual(['A server side error occurred.']);
    expect(errorLines(new ApiError(502, undefined, 'x'), texts)).toEqual(['An unexpected server error occurred.']);
    expect(errorLines(new Error('boom'), texts)).toEqual(['boom']);
    expect(isProblem({ title: 'x' })).toBe(true);
    expect(isProblem('x')).toBe(false);
  });
});
