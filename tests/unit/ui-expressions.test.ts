import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bind, condition, evaluate, ExpressionError, fillTemplate, getPath, OPERATORS, text } from '../../core/expressions.ts';
import { buildContext, evaluateConditions, flagsOf } from '../../src/engine/context.ts';
import { ROOT } from '../../core/contract/documents.ts';
import { filesUnder } from '../../core/files.ts';

const ctx = {
  session: { authenticated: true, role: 'x-role', userRole: null, officeId: 7, identity: { givenName: 'Ada' } },
  route: { params: { id: '5' }, query: {} },
  list: [1, 2, 3],
  empty: [],
};

describe('the expression language', () => {
  it('reads paths, with defaults for missing values', () => {
    expect(evaluate({ var: 'session.identity.givenName' }, ctx)).toBe('Ada');
    expect(evaluate({ var: 'list.1' }, ctx)).toBe(2);
    expect(evaluate({ var: ['session.nothing', 'fallback'] }, ctx)).toBe('fallback');
    expect(evaluate({ var: 'a.b.c' }, ctx)).toBeUndefined();
    expect(getPath(ctx, '')).toBe(ctx);
  });

  it('compares loosely across route strings and numbers, strictly otherwise', () => {
    expect(evaluate({ '==': [{ var: 'route.params.id' }, 5] }, ctx)).toBe(true);
    expect(evaluate({ '!=': [{ var: 'session.userRole' }, null] }, ctx)).toBe(false);
    expect(evaluate({ '==': [{ var: 'missing' }, null] }, ctx)).toBe(true);
    expect(evaluate({ '>': [{ var: 'route.params.id' }, 0] }, ctx)).toBe(true);
    expect(evaluate({ '<': [1, 2, 3] }, ctx)).toBe(true);
    expect(evaluate({ '<=': [null, 3] }, ctx)).toBe(false);
  });

  it('has JSON Logic truthiness and value-returning and/or', () => {
    expect(evaluate({ '!': { var: 'empty' } }, ctx)).toBe(true);
    expect(evaluate({ '!!': { var: 'list' } }, ctx)).toBe(true);
    expect(evaluate({ and: [true, 'x', 0] }, ctx)).toBe(0);
    expect(evaluate({ or: [null, '', 'first'] }, ctx)).toBe('first');
  });

  it('has in, if, cat, arithmetic and missing', () => {
    expect(evaluate({ in: [{ var: 'session.role' }, ['a', 'x-role']] }, ctx)).toBe(true);
    expect(evaluate({ in: ['dmi', 'admin'] }, ctx)).toBe(true);
    expect(evaluate({ if: [false, 'a', { var: 'session.authenticated' }, 'b', 'c'] }, ctx)).toBe('b');
    expect(evaluate({ if: [false, 'a'] }, ctx)).toBeNull();
    expect(evaluate({ cat: ['#', { var: 'session.officeId' }, { var: 'none' }] }, ctx)).toBe('#7');
    expect(evaluate({ '+': ['5'] }, ctx)).toBe(5);
    expect(evaluate({ '-': [10, 4] }, ctx)).toBe(6);
    expect(evaluate({ '*': [2, 3, 4] }, ctx)).toBe(24);
    expect(evaluate({ '/': [9, 3] }, ctx)).toBe(3);
    expect(evaluate({ missing: ['session.role', 'session.title'] }, ctx)).toEqual(['session.title']);
  });

  it('builds an object from name, value pairs (a body that holds a list of objects)', () => {
    expect(evaluate([{ object: ['id', { var: 'session.officeId' }, 'status', 'Completed'] }], ctx)).toEqual([{ id: 7, status: 'Completed' }]);
    expect(evaluate({ object: [] }, ctx)).toEqual({});
  });

  it('refuses objects that are not one known operator', () => {
    expect(() => evaluate({ eval: 'alert(1)' }, ctx)).toThrow(ExpressionError);
    expect(() => evaluate({ var: 'a', '==': [] }, ctx)).toThrow(ExpressionError);
  });

  it('fills text placeholders and bindings', () => {
    expect(fillTemplate('Hi {session.identity.givenName}, #{session.officeId}{nothing}', ctx)).toBe('Hi Ada, #7');
    expect(text({ if: [{ var: 'session.authenticated' }, 'Hello {session.identity.givenName}', 'Bye'] }, ctx)).toBe('Hello Ada');
    expect(text(undefined, ctx)).toBe('');
    expect(bind({ id: { var: 'route.params.id' }, label: 'Office {session.officeId}' }, ctx)).toEqual({ id: '5', label: 'Office 7' });
    expect(condition(undefined, ctx, true)).toBe(true);
    expect(condition({ var: 'empty' }, ctx, true)).toBe(false);
  });

  it('evaluates named conditions in order, each seeing the earlier ones', () => {
    const cond = evaluateConditions({ a: { var: 'session.authenticated' }, b: { and: [{ var: 'cond.a' }, { '==': [{ var: 'session.officeId' }, 7] }] } }, ctx);
    expect(cond).toEqual({ a: true, b: true });
    const built = buildContext({ session: ctx.session, route: { name: 'r', path: '/', params: {}, query: {} }, brand: {}, conditions: {}, flags: {}, now: new Date('2030-05-01T12:00:00Z') });
    expect(built.year).toBe(2030);
    // The browser's day (noon UTC is 05/01 in every time zone the tests run in, UTC-11 to UTC+11).
    expect(built.today).toBe('05/01/2030');
    expect(flagsOf([{ type: 'feature-flag', name: 'a', value: 'true', isEnabled: true }, { type: 'feature-flag', name: 'b', value: 'false', isEnabled: true }, { type: 'States', name: 'TX' }])).toEqual({ a: true, b: false });
  });

  it('is interpreted: engine and widget code never evaluates strings as code', () => {
    for (const file of [...filesUnder(join(ROOT, 'src')), ...filesUnder(join(ROOT, 'codegen', 'generated', 'forms'))]) {
      const source = readFileSync(file, 'utf8');
      expect(/\beval\s*\(|new Function\s*\(/.test(source), file).toBe(false);
    }
  });
});

describe('the meta-schema of the expression language', () => {
  it('allows exactly the operators the interpreter knows', () => {
    const common = JSON.parse(readFileSync(join(ROOT, 'screens/_meta/common.schema.json'), 'utf8')) as { $defs: { operation: { propertyNames: { enum: string[] } } } };
    expect([...common.$defs.operation.propertyNames.enum].sort()).toEqual([...OPERATORS].sort());
  });
});
