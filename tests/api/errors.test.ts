import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../server/app.ts';
import { createTokenVerifiers } from '../../server/identity/tokens.ts';
import { harness, type Harness } from '../support/harness.ts';

describe('errors are problem+json and never leak internals', () => {
  let h: Harness;
  let app: FastifyInstance;
  beforeAll(async () => {
    h = await harness();
    app = await buildServer({ settings: h.settings, database: h.database, verifiers: createTokenVerifiers(h.settings, undefined) });
    app.get('/api/__fails', async () => {
      throw new Error('connection to db.internal:5432 failed for user app_rw password=hunter2');
    });
    await app.ready();
  });
  afterAll(() => app.close());

  it('answers an unexpected failure with a bare 500 and a trace id to quote', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/__fails' });
    expect(response.statusCode).toBe(500);
    expect(response.headers['content-type']).toContain('application/problem+json');
    const problem = JSON.parse(response.body);
    expect(problem).toEqual({
      type: 'about:blank',
      title: 'Internal Server Error',
      status: 500,
      detail: 'A server side error occurred.',
      instance: '/api/__fails',
      traceId: response.headers['x-trace-id'],
    });
    expect(response.body).not.toMatch(/hunter2|db\.internal|\.ts:/);
  });

  it('answers unknown paths and methods with 404 problem+json', async () => {
    for (const [method, url] of [['GET', '/api/App/NoSuchCall'], ['DELETE', '/api/App/SendApp'], ['GET', '/no/such/page']] as const) {
      const response = await h.call({ method, url });
      expect(response.statusCode, url).toBe(404);
      expect(JSON.parse(response.body)).toMatchObject({ status: 404, detail: 'This page could not be found' });
    }
  });

  it('answers a wrong content type with 415 problem+json', async () => {
    const response = await h.call({ method: 'PUT', url: '/api/App/GetOfficeApps', as: 'office.admin@demo.test', payload: 'officeId=100', headers: { 'content-type': 'text/plain' } });
    expect(response.statusCode).toBe(415);
    expect(response.headers['content-type']).toContain('application/problem+json');
  });

  it('uses the spec messages, with N taken from the schema bound', async () => {
    const response = await h.call({ method: 'PUT', url: '/api/App/GetOfficeApps', as: 'office.admin@demo.test', payload: { officeId: 100, pageSize: 500, search: 'x'.repeat(101) } });
    expect(JSON.parse(response.body).errors).toEqual({
      pageSize: ['This field must have a maximum value of 100'],
      search: ['This field exceeds 100 characters.'],
    });
  });
});
