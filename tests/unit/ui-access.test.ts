import { describe, expect, it } from 'vitest';
import { decideAccess, type Visitor } from '../../src/engine/access.ts';
import { rolePermissions } from '../../core/permissions.ts';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { buildPath, buildRouteTable, guardRoute, paramsOf, queryString, resolveTarget, TargetError } from '../../src/engine/routing.ts';
import { ROOT } from '../../core/contract/documents.ts';
import { screensFile } from '../../core/descriptors/read.ts';
import { expectation, routeTable, visitors, type E2eRoute, type Visitor as E2eVisitor } from '../../e2e/support/routes.ts';
import type { LenderDescriptor, RoutesDescriptor } from '../../codegen/generated/descriptors.ts';
import { lenderCatalogue } from '../../server/lenders/registry.ts';
import { lenderStepPath } from '../../server/domain/journey/routing.ts';

const anonymous: Visitor = { authenticated: false, role: null, permissions: [], userRole: null, borrowerAuthenticated: false, borrowerAppId: null };
const staff = (role: string | null, userRole: string | null = null, permissions: string[] = []): Visitor => ({ ...anonymous, authenticated: true, role, userRole, permissions });

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

  it('passes an office member by the permission a route names, whatever the role (decision 0279)', () => {
    const access = { roles: ['admin'], permission: 'seeReports', userRoles: ['u1'] };
    expect(decideAccess(access, staff('support', null, ['seeReports']), {}).kind).toBe('allow');
    expect(decideAccess(access, staff('admin', null, ['manageUsers']), {}).kind).toBe('forbidden');
    expect(decideAccess(access, staff(null, 'u1'), {}).kind).toBe('allow');
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

/** The deployed route table, lender flows joined in, as the app builds it. */
const deployedRoutes = screensFile<RoutesDescriptor>('routes.json');
const deployedLenders = readdirSync(join(ROOT, 'screens', 'lenders'))
  .filter((f) => f.endsWith('.json'))
  .map((f) => screensFile<LenderDescriptor>(`lenders/${f}`));
const deployedTable = buildRouteTable(deployedRoutes, deployedLenders);

/**
 * Every route of the table as every visitor: the engine's guard against spec §6 written out on its own for the e2e
 * run (e2e/support/routes.ts). The crawl opens one route of each way of being turned away in the browser; which route
 * turns whom away is proven here, for all of them (decision 0245).
 */
describe('the guard on the route table', () => {
  const [routes, table] = [deployedRoutes, deployedTable];
  const OWN_APP = 5;
  const sessionOf = (v: E2eVisitor): Record<string, unknown> =>
    v.kind === 'staff'
      ? { authenticated: true, role: v.role ?? null, permissions: v.role && !v.officeless ? rolePermissions(v.role) : [], userRole: v.userRole ?? null }
      : v.kind === 'borrower' ? { borrowerAuthenticated: true, borrowerAppId: OWN_APP } : {};

  it('is the e2e run’s table, route for route', () => {
    expect(table.map((r) => [r.name, r.path])).toEqual(routeTable().map((r) => [r.name, r.path]));
  });

  it('shows each visitor the page, the 403 page or the sign-in spec §6 prescribes', () => {
    const wrong: string[] = [];
    for (const visitor of visitors()) {
      const who = { ...visitor, borrowerAppId: OWN_APP };
      for (const entry of table) {
        // The visitor's own application, another one, and none where the parameter is optional.
        const idParam = paramsOf(entry.path).find((p) => p.name === 'id');
        const ids = idParam ? [String(OWN_APP), String(OWN_APP + 1), ...(idParam.optional ? [undefined] : [])] : [undefined];
        for (const id of ids) {
          const params = Object.fromEntries(paramsOf(entry.path).map((p) => [p.name, p.name === 'id' ? id : 'x']));
          const path = buildPath(entry.path, params);
          const outcome = guardRoute(entry, { session: sessionOf(visitor), request: { path, params } }, { routes, table });
          const expected = expectation({ ...entry, access: entry.access as E2eRoute['access'] }, who, path);
          const same =
            expected.kind === 'redirect' ? outcome.kind === 'signIn' && outcome.to === expected.to
            : expected.kind === 'page' || expected.kind === 'leaves' ? outcome.kind === 'allow'
            : outcome.kind === 'forbidden';
          if (!same) wrong.push(`${visitor.name} on ${path}: ${JSON.stringify(outcome)}, spec §6 says ${JSON.stringify(expected)}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });
});

/**
 * Every lender's journey, generated from its file (issue 37): each step the server sends the borrower to (its
 * `journey.steps`, found by `step` as server/domain/journey/routing.ts finds them) opens to the application's borrower,
 * on their phone or on the office's device, and sends anyone else to the borrower's passcode page, never to staff
 * sign-in. A lender added as a file is walked here with no code.
 */
describe("every lender's journey opens to its borrower", () => {
  const [routes, lenders, table] = [deployedRoutes, deployedLenders, deployedTable];
  const catalogue = lenderCatalogue({ lendersDir: join(ROOT, 'screens', 'lenders'), mode: 'demo', publicUrl: 'https://localhost:3000' });
  const APP = 7;
  const borrower = { borrowerAuthenticated: true, borrowerAppId: APP };
  const visitorsOf = {
    'the borrower on their phone': { session: borrower, allowed: true },
    "the patient on the office's device": { session: { ...borrower, authenticated: true, role: 'admin' }, allowed: true },
    'the borrower of another application': { session: { borrowerAuthenticated: true, borrowerAppId: APP + 1 }, allowed: false },
    'staff': { session: { authenticated: true, role: 'admin' }, allowed: false },
    'a platform admin': { session: { authenticated: true, role: 'admin', userRole: 'df.admin' }, allowed: false },
    'nobody signed in': { session: {}, allowed: false },
  };

  for (const lender of lenders) {
    for (const step of lender.journey.steps) {
      it(`${lender.code}, step ${step}`, () => {
        const path = lenderStepPath(catalogue, lender.code, step, APP);
        const entry = table.find((r) => r.flow?.code === lender.code && r.flow.step === step);
        expect(entry, `no route of ${lender.code} shows the step ${step}`).toBeDefined();
        const params = { id: String(APP) };
        expect(path).toBe(buildPath(entry!.path, params));
        for (const [who, { session, allowed }] of Object.entries(visitorsOf)) {
          const visit = { session, request: { path: path!, params } };
          const passcode = resolveTarget(routes.borrowerSignIn, visit, table);
          expect(guardRoute(entry!, visit, { routes, table }), who).toEqual(allowed ? { kind: 'allow' } : { kind: 'signIn', to: passcode.kind === 'route' ? passcode.path : '' });
        }
      });
    }
  }
});
