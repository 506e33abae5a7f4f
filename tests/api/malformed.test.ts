import { beforeAll, describe, expect, it } from 'vitest';
import { bundleOpenApi } from '../../core/contract/bundle.ts';
import { readOperations } from '../../core/contract/operations.ts';
import { harness, type Harness } from '../support/harness.ts';
import { databaseFingerprint } from '../support/snapshot.ts';
import { examples, type Example, exampleAppId } from './examples.ts';

const operations = new Map(readOperations(bundleOpenApi()).map((op) => [op.operationId, op]));

type Json = Record<string, unknown>;

/** A value of another JSON type than the one given. */
function wrongType(value: unknown): unknown {
  if (typeof value === 'string') return 12345;
  if (typeof value === 'number') return 'not a number';
  if (typeof value === 'boolean') return 'yes';
  if (Array.isArray(value)) return 'not a list';
  return 7;
}

function jsonPayload(example: Example): Json | undefined {
  const payload = example.request.payload;
  return payload && typeof payload === 'object' && !Buffer.isBuffer(payload) && !('pipe' in payload) ? (payload as Json) : undefined;
}

/** Every way a request can be malformed, derived from a valid example of the operation. */
function malformedVariants(example: Example): Array<{ label: string; request: Example['request']; field?: string; status?: number }> {
  const variants: Array<{ label: string; request: Example['request']; field?: string; status?: number }> = [];
  const op = operations.get(example.operationId)!;
  const body = jsonPayload(example);
  if (body) {
    for (const [key, value] of Object.entries(body)) {
      variants.push({ label: `${key} of the wrong type`, field: key, request: { ...example.request, payload: { ...body, [key]: wrongType(value) } } });
      if (typeof value === 'string') {
        variants.push({ label: `${key} far too long`, field: key, request: { ...example.request, payload: { ...body, [key]: 'x'.repeat(200_000) } } });
      }
    }
    variants.push({ label: 'an unknown field', field: 'unexpectedField', request: { ...example.request, payload: { ...body, unexpectedField: 1 } } });
    variants.push({ label: 'invalid JSON', field: '$', request: { ...example.request, payload: '{"officeId": 1,', headers: { 'content-type': 'application/json' } } });
    variants.push({ label: 'a JSON array', request: { ...example.request, payload: '[1,2]', headers: { 'content-type': 'application/json' } } });
    variants.push({ label: 'JSON null', request: { ...example.request, payload: 'null', headers: { 'content-type': 'application/json' } } });
    variants.push({ label: 'a body over the size limit', status: 413, request: { ...example.request, payload: JSON.stringify({ ...body, search: 'x'.repeat(2_000_000) }), headers: { 'content-type': 'application/json' } } });
  }
  const template = op.path.split('/');
  const [path, query] = example.request.url.split('?');
  const segments = path!.split('/');
  template.forEach((part, index) => {
    if (!part.startsWith('{')) return;
    const name = part.slice(1, -1);
    const param = op.parameters.find((p) => p.name === name && p.in === 'path');
    const replacement = param?.schema.type === 'string' && !param.schema.enum ? 'x'.repeat(300) : 'not-valid';
    const at = (value: string) => [...segments.slice(0, index), value, ...segments.slice(index + 1)].join('/') + (query ? `?${query}` : '');
    variants.push({ label: `path parameter ${name} malformed`, field: name, request: { ...example.request, url: at(replacement) } });
    variants.push({ label: `path parameter ${name} far too long`, status: 414, request: { ...example.request, url: at('y'.repeat(5_000)) } });
  });
  variants.push({ label: 'an unknown query parameter', field: 'bogus', request: { ...example.request, url: `${example.request.url}${query ? '&' : '?'}bogus=1` } });
  return variants;
}

describe('malformed input to every implemented operation', () => {
  let h: Harness;
  let appId: number;
  beforeAll(async () => {
    h = await harness();
    appId = await exampleAppId(h);
  });

  it('answers 400 problem+json naming the field, and changes nothing in the database', async () => {
    const before = await databaseFingerprint(h.database.db);
    let tried = 0;
    for (const example of examples(appId)) {
      for (const variant of malformedVariants(example)) {
        tried += 1;
        const response = await h.call({ ...variant.request, as: example.as, borrowerOf: example.borrowerOf });
        const what = `${example.operationId} with ${variant.label}`;
        expect(response.statusCode, `${what}: ${response.body.slice(0, 200)}`).toBe(variant.status ?? 400);
        expect(response.headers['content-type'], what).toContain('application/problem+json');
        const problem = JSON.parse(response.body) as { status: number; traceId: string; errors?: Record<string, string[]> };
        expect(problem.status, what).toBe(variant.status ?? 400);
        expect(problem.traceId, what).toMatch(/^[0-9a-f]{32}$/);
        if (variant.field && (variant.status ?? 400) === 400) expect(Object.keys(problem.errors ?? {}), what).toContain(variant.field);
        expect(response.body, what).not.toMatch(/at \w+ \(|node_modules|\.ts:\d+/);
      }
    }
    expect(tried).toBeGreaterThan(50);
    expect(await databaseFingerprint(h.database.db)).toEqual(before);
  });
});
