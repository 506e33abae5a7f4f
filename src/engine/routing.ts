/**
 * The route table (screens/routes.json plus the lender flows of screens/lenders/) and navigation targets.
 * Pure: the router, the guard, the tests and the e2e generator share it.
 */
import type { LenderDescriptor, Route, RoutesDescriptor, Target } from '../../codegen/generated/descriptors.ts';
import { bind, evaluate, type Context } from '../../core/expressions.ts';
import { LENDER_FLOW_ACCESS, withCode } from '../../core/descriptors/check.ts';
import { safeLink } from '../../core/urls.ts';
import { decideAccess, visitorOf } from './access.ts';

export interface RouteEntry extends Route {
  /** Set for routes of a lender flow. */
  flow?: { code: string; step: string };
}

export function buildRouteTable(routes: RoutesDescriptor, lenders: readonly LenderDescriptor[]): RouteEntry[] {
  const table: RouteEntry[] = routes.routes.map((r) => ({ ...r }));
  const { namePrefix, pathPrefix } = routes.lenderFlows;
  for (const lender of lenders) {
    for (const route of lender.routes) {
      const path = (withCode(pathPrefix, lender.code) + route.path).replace(/\/$/, '') || '/';
      const { step, ...rest } = route;
      table.push({ ...rest, access: LENDER_FLOW_ACCESS, name: withCode(namePrefix, lender.code) + route.name, path, flow: { code: lender.code, step } });
    }
  }
  return table;
}

/** Parameter names of a path template, with whether each is optional. */
export function paramsOf(path: string): Array<{ name: string; optional: boolean }> {
  return [...path.matchAll(/:([A-Za-z][A-Za-z0-9_]*)(\?)?/g)].map((m) => ({ name: m[1]!, optional: m[2] === '?' }));
}

export class TargetError extends Error {}

/** '/app/auth/:id?' + {id: 5} → '/app/auth/5'; a missing optional parameter drops its segment. */
export function buildPath(template: string, params: Record<string, unknown>): string {
  const segments = template.split('/').flatMap((segment) => {
    const m = /^:([A-Za-z][A-Za-z0-9_]*)(\?)?$/.exec(segment);
    if (!m) return [segment];
    const value = params[m[1]!];
    if (value === undefined || value === null || value === '') {
      if (m[2]) return [];
      throw new TargetError(`the parameter ${m[1]} must be defined`);
    }
    return [encodeURIComponent(String(value))];
  });
  return segments.join('/') || '/';
}

export function queryString(query: Record<string, unknown>): string {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== '') search.set(k, String(v));
  const s = search.toString();
  return s ? `?${s}` : '';
}

export type Resolved = { kind: 'route'; route: RouteEntry; path: string } | { kind: 'href'; href: string };

/**
 * Where a target goes in this context: an in-app path (with its query) or an external address. An address that is
 * neither https:// nor the portal's own (javascript:, data:, http:, none) goes nowhere (decision 0250).
 */
export function resolveTarget(target: Target, context: Context, table: readonly RouteEntry[]): Resolved {
  if (target.href !== undefined) {
    const href = safeLink(evaluate(target.href, context));
    if (href === undefined) throw new TargetError('the address is neither https:// nor one of the portal');
    return { kind: 'href', href };
  }
  const name = String(evaluate(target.route, context) ?? '');
  const route = table.find((r) => r.name === name);
  if (!route) throw new TargetError(`no route named '${name}'`);
  const path = buildPath(route.path, bind(target.params as Record<string, unknown> | undefined, context));
  return { kind: 'route', route, path: path + queryString(bind(target.query as Record<string, unknown> | undefined, context)) };
}

/** What the guard shows a visitor on a route (spec §6): its page, the 403 page, or the sign-in it sends them to. */
export type GuardOutcome = { kind: 'allow' } | { kind: 'forbidden' } | { kind: 'signIn'; to: string };

/** The visit's session, and the address asked for with the route's parameters (the sign-in's return query reads it). */
export type GuardRequest = {
  session: Record<string, unknown>;
  request: { path: string; params: Record<string, string | undefined> };
};

export function guardRoute(entry: RouteEntry, visit: GuardRequest, descriptors: { routes: RoutesDescriptor; table: readonly RouteEntry[] }): GuardOutcome {
  const decision = decideAccess(entry.access, visitorOf(visit.session), visit.request.params);
  if (decision.kind !== 'signIn' && decision.kind !== 'borrowerSignIn') return decision;
  const target = resolveTarget(decision.kind === 'signIn' ? descriptors.routes.signIn : descriptors.routes.borrowerSignIn, visit, descriptors.table);
  return { kind: 'signIn', to: target.kind === 'route' ? target.path : '/' };
}
