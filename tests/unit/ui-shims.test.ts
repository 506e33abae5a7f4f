import { describe, expect, it } from 'vitest';
import deepEquals from '../../src/shims/deep-equals.ts';
import shallowAllOfMerge from '../../src/shims/shallow-all-of-merge.ts';

describe('the size shims the web app is built with (vite.config.ts, docs/decisions/0046)', () => {
  it('deepEquals: JSON-like values by content, any two functions equal, dates by time, circular values without looping', () => {
    expect(deepEquals({ a: [1, { b: 'x' }], c: null }, { c: null, a: [1, { b: 'x' }] })).toBe(true);
    expect(deepEquals({ a: [1, 2] }, { a: [2, 1] })).toBe(false);
    expect(deepEquals({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(deepEquals([], {})).toBe(false);
    expect(deepEquals(NaN, NaN)).toBe(true);
    expect(deepEquals({ onChange: () => 1 }, { onChange: () => 2 })).toBe(true);
    expect(deepEquals(new Date(5), new Date(5))).toBe(true);
    expect(deepEquals(new Date(5), new Date(6))).toBe(false);
    const a: Record<string, unknown> = { n: 1 };
    a.self = a;
    const b: Record<string, unknown> = { n: 1 };
    b.self = b;
    expect(deepEquals(a, b)).toBe(true);
  });

  it('shallowAllOfMerge: properties and required lists of the parts united', () => {
    const merged = shallowAllOfMerge({ allOf: [{ properties: { a: { type: 'string' } }, required: ['a'] }], properties: { b: { type: 'number' } }, required: ['b'] });
    expect(merged.properties).toEqual({ a: { type: 'string' }, b: { type: 'number' } });
    expect(merged.required).toEqual(['a', 'b']);
  });
});
