import { describe, expect, it } from 'vitest';
import { decideAccess, type Visitor } from '../../src/engine/access.ts';
import { buildPath, buildRouteTable, paramsOf, queryString, resolveTarget, routeMatcher, TargetError } from '../../src/engine/routing.ts';
import { readdirSync, readFileSync } from 'node:fs';
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

  it('finds the route of a path: fixed segments before parameters, then the table order; decoded parameters', () => {
    const route = (name: string, path: string) => ({ name, path, layout: 'l', access: {}, screen: 's' });
    const match = routeMatcher([
      route('root', '/'),
      route('state', '/:state'),
      route('home', '/home'),
      route('prequal', '/app/prequal/:id?'),
      route('match', '/app/prequal/match'),
      route('landing', '/landing/:code?'),
      route('multi', '/landing/multi/:code?'),
      route('first', '/twice/:a'),
      route('second', '/twice/:b'),
    ] as unknown as Parameters<typeof routeMatcher>[0]);
    const at = (path: string) => {
      const found = match(path);
      return found && [found.entry.name, found.params];
    };
    expect(at('/')).toEqual(['root', {}]);
    expect(at('/home')).toEqual(['home', {}]);
    expect(at('/HOME/')).toEqual(['home', {}]);
    expect(at('/done')).toEqual(['state', { state: 'done' }]);
    expect(at('/app/prequal/match')).toEqual(['match', {}]);
    expect(at('/app/prequal/0')).toEqual(['prequal', { id: '0' }]);
    expect(at('/app/prequal')).toEqual(['prequal', {}]);
    expect(at('/landing/multi')).toEqual(['multi', {}]);
    expect(at('/landing/multi/abc')).toEqual(['multi', { code: 'abc' }]);
    expect(at('/landing/a%20b')).toEqual(['landing', { code: 'a b' }]);
    expect(at('/landing/%E0%A4%A')).toEqual(['landing', { code: '%E0%A4%A' }]);
    expect(at('/twice/x')).toEqual(['first', { a: 'x' }]);
    expect(at('/app/prequal/1/2')).toBeUndefined();
    expect(at('/nope/nope')).toBeUndefined();
  });

  it('finds every route of the real table by a path built from it', () => {
    const json = (path: string) => JSON.parse(readFileSync(path, 'utf8'));
    const lenders = readdirSync('screens/lenders').filter((f) => f.endsWith('.json')).map((f) => json(`screens/lenders/${f}`) as LenderDescriptor);
    const table = buildRouteTable(json('screens/routes.json') as RoutesDescriptor, lenders);
    const match = routeMatcher(table);
    for (const entry of table) {
      const path = buildPath(entry.path, Object.fromEntries(paramsOf(entry.path).map((p) => [p.name, '7'])));
      expect(match(path)?.entry.name, `${entry.name} (${path})`).toBe(entry.name);
    }
  });
});
