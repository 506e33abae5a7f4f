import { describe, expect, it } from 'vitest';
import { decideAccess, type Visitor } from '../../src/engine/access.ts';
import { buildPath, buildRouteTable, paramsOf, queryString, resolveTarget, TargetError } from '../../src/engine/routing.ts';
import type { LenderDescriptor, RoutesDescriptor } from '../../codegen/generated/descriptors.ts';

const anonymous: Visitor = { authenticated: false, role: null, userRole: null, borrowerAuthenticated: false, borrowerAppId: null };
const staff = (role: string | null, userRole: string | null = null): Visitor => ({ ...anonymous, authenticated: true, role, userRole });

describe('the route guard', () => {
  it('lets anyone open anonymous routes', () => {
    expect(decideAccess({ anonymous: true }, anonymous, {})).toEqual({ kind: 'allow' });
  });

  it('sends visitors without borrower sign-in for the route id to borrower sign-in', () => {
    expect(decideAccess({ borrower: true }, anonymous, { id: '5' }).kind).toBe('borrowerSignIn');
    expect(decideAccess({ borrower: true }, staff('r1'), { id: '5' }).kind).toBe('borrowerSignIn');
    const borrower = { ...anonymous, borrowerAuthenticated: true, borrowerAppId: 5 };
    expect(decideAccess({ borrower: true }, borrower, { id: '5' }).kind).toBe('allow');
    expect(decideAccess({ borrower: true }, borrower, { id: '6' }).kind).toBe('borrowerSignIn');
    expect(decideAccess({ borrower: true }, borrower, {}).kind).toBe('allow');
  });

  it('sends visitors who are not signed in to staff sign-in', () => {
    expect(decideAccess({}, anonymous, {}).kind).toBe('signIn');
    expect(decideAccess({ roles: ['r1'] }, anonymous, {}).kind).toBe('signIn');
  });

  it('lets any signed-in staff user open routes without lists', () => {
    expect(decideAccess({}, staff(null), {}).kind).toBe('allow');
  });

  it('passes a staff user whose role OR userRole is listed, and answers 403 otherwise', () => {
    const access = { roles: ['r1'], userRoles: ['u1', 'u2'] };
    expect(decideAccess(access, staff('r1'), {}).kind).toBe('allow');
    expect(decideAccess(access, staff('r2', 'u2'), {}).kind).toBe('allow');
    expect(decideAccess(access, staff('r2'), {}).kind).toBe('forbidden');
    expect(decideAccess({ userRoles: ['u1'] }, staff('r1', 'u2'), {}).kind).toBe('forbidden');
  });
});

describe('paths and targets', () => {
  const routes = {
    format: 1,
    signIn: { route: 'sign-in', query: { p: { var: 'request.path' } } },
    borrowerSignIn: { route: 'sign-in' },
    home: { route: 'sign-in' },
    notFound: { message: 'x', link: 'y', layout: 'l' },
    forbidden: { message: 'z' },
    lenderFlows: { namePrefix: '{code}-', pathPrefix: '/flows/{code}/' },
    routes: [
      { name: 'sign-in', path: '/in', layout: 'l', access: { anonymous: true }, screen: 's' },
      { name: 'item', path: '/items/:id?', layout: 'l', access: {}, screen: 's' },
    ],
  } as unknown as RoutesDescriptor;
  const lender = { format: 1, code: 'abc', name: 'A', routes: [{ name: 'start', path: ':id?', step: 'start', layout: 'l', access: { borrower: true }, screen: 's' }] } as unknown as LenderDescriptor;
  const table = buildRouteTable(routes, [lender]);

  it('joins lender flows into the route table with their prefixes', () => {
    expect(table.find((r) => r.name === 'abc-start')).toMatchObject({ path: '/flows/abc/:id?', flow: { code: 'abc', step: 'start' } });
  });

  it('builds paths with optional and required parameters', () => {
    expect(paramsOf('/a/:id?/b/:code')).toEqual([{ name: 'id', optional: true }, { name: 'code', optional: false }]);
    expect(buildPath('/items/:id?', { id: 5 })).toBe('/items/5');
    expect(buildPath('/items/:id?', {})).toBe('/items');
    expect(buildPath('/a/:x', { x: 'a b/c' })).toBe('/a/a%20b%2Fc');
    expect(() => buildPath('/a/:x', {})).toThrow(TargetError);
    expect(queryString({ a: 1, b: null, c: '' })).toBe('?a=1');
  });

  it('resolves targets by route name, computed names and external addresses', () => {
    expect(resolveTarget(routes.signIn, { request: { path: '/items/5' } }, table)).toMatchObject({ kind: 'route', path: '/in?p=%2Fitems%2F5' });
    expect(resolveTarget({ route: { cat: [{ var: 'row.code' }, '-start'] }, params: { id: 9 } }, { row: { code: 'abc' } }, table)).toMatchObject({ path: '/flows/abc/9' });
    expect(resolveTarget({ href: { var: 'u' } }, { u: 'https://example.test' }, table)).toEqual({ kind: 'href', href: 'https://example.test' });
    expect(() => resolveTarget({ route: 'nope' }, {}, table)).toThrow(TargetError);
  });
});
