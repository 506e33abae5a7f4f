/**
 * The route table and the visitors of the e2e run, both from data: routes from screens/ (the same files the app
 * uses), staff roles from the contract's role enumerations (schemas/enums/), demo accounts from the seed.
 * `expectation` is spec §6 written out on its own (not the engine's guard), so the test checks the engine.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { screensFile } from '../../core/descriptors/read.ts';

import { rolePermissions } from '../../core/permissions.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const read = <T>(path: string) => JSON.parse(readFileSync(join(ROOT, path), 'utf8')) as T;

export interface Access {
  anonymous?: true;
  borrower?: true;
  roles?: string[];
  /** The office permission a member must hold (decision 0279): by their role's template in an office they belong to. */
  permission?: string;
  userRoles?: string[];
}

export interface E2eRoute {
  name: string;
  path: string;
  screen?: string;
  layout?: string;
  access: Access;
  redirect?: unknown;
}

interface RoutesFile {
  lenderFlows: { namePrefix: string; pathPrefix: string };
  signIn: { route: string };
  routes: E2eRoute[];
  notFound: { message: string; link: string };
  forbidden: { message: string };
}

export const routesFile = screensFile<RoutesFile>('routes.json');

export function routeTable(): E2eRoute[] {
  const table = [...routesFile.routes];
  for (const file of readdirSync(join(ROOT, 'screens', 'lenders')).filter((f) => f.endsWith('.json')).sort()) {
    const lender = screensFile<{ code: string; routes: E2eRoute[] }>(`lenders/${file}`);
    for (const r of lender.routes) {
      table.push({
        ...r,
        // Spec §6: a lender's flow is its borrower's.
        access: { borrower: true },
        name: routesFile.lenderFlows.namePrefix.replaceAll('{code}', lender.code) + r.name,
        path: (routesFile.lenderFlows.pathPrefix.replaceAll('{code}', lender.code) + r.path).replace(/\/$/, ''),
      });
    }
  }
  return table;
}

export interface Visitor {
  name: string;
  kind: 'anonymous' | 'borrower' | 'staff';
  role?: string;
  userRole?: string | null;
  /** A demo account with this role, for real sign-in. */
  email?: string;
  borrowerAppId?: number;
  /** Belongs to no office (the demo's internal users, or one who signed up and enrolled none): holds no office permission. */
  officeless?: true;
}

const officeRoles = read<{ enum: string[] }>('schemas/enums/office-role.json').enum;
const userRoles = read<{ enum: string[] }>('schemas/enums/user-role.json').enum;

/** Demo accounts by role (server/seed/demo.ts): the office role's first user, the internal role's user. */
const DEMO_EMAIL: Record<string, string> = {
  admin: 'office.admin@demo.test',
  support: 'office.support@demo.test',
  tpa: 'tpa@demo.test',
  sales: 'sales@demo.test',
  'df.admin': 'admin@demo.test',
  'dfi.admin': 'dfi@demo.test',
  'product.owner': 'owner@demo.test',
};
/** The office role the demo internal users hold (df.admin and the product owner are office admins, dfi.admin a support user). */
const INTERNAL_ROLE: Record<string, string> = { 'df.admin': 'admin', 'dfi.admin': 'support', 'product.owner': 'admin' };

export function visitors(): Visitor[] {
  return [
    { name: 'anonymous', kind: 'anonymous' },
    { name: 'a borrower', kind: 'borrower' },
    ...officeRoles.map((role): Visitor => ({ name: `staff role ${role}`, kind: 'staff', role, userRole: null, email: DEMO_EMAIL[role] })),
    ...userRoles.map(
      (userRole): Visitor => ({ name: `staff userRole ${userRole}`, kind: 'staff', role: INTERNAL_ROLE[userRole] ?? 'support', userRole, email: DEMO_EMAIL[userRole], officeless: true }),
    ),
  ];
}

export type Expectation =
  | { kind: 'page' }
  | { kind: 'redirect'; to: string }
  | { kind: 'forbidden' }
  /** The page sends this visitor on elsewhere (the sign-in page, for someone already signed in). */
  | { kind: 'leaves' };

/** What spec §6 prescribes for this visitor on this route (the path with sample values). */
export function expectation(route: E2eRoute, visitor: Visitor, path: string): Expectation {
  const a = route.access;
  if (visitor.kind === 'staff' && route.name === routesFile.signIn.route) return { kind: 'leaves' };
  if (a.anonymous) return { kind: 'page' };
  const id = /\/(\d+)$/.exec(path)?.[1] ?? (route.path.includes(':id') ? undefined : undefined);
  if (a.borrower) {
    const ok = visitor.kind === 'borrower' && (id === undefined || String(visitor.borrowerAppId) === id);
    if (ok) return { kind: 'page' };
    const appId = id ?? (visitor.kind === 'borrower' ? String(visitor.borrowerAppId) : undefined);
    return { kind: 'redirect', to: appId ? `/app/auth/${appId}` : '/app/auth' };
  }
  if (visitor.kind !== 'staff') return { kind: 'redirect', to: `/auth?p=${encodeURIComponent(path)}` };
  const roles = a.roles ?? [];
  const internal = a.userRoles ?? [];
  if (roles.length === 0 && internal.length === 0) return { kind: 'page' };
  const member =
    visitor.role === undefined ? false
    : a.permission ? !visitor.officeless && rolePermissions(visitor.role).includes(a.permission as never)
    : roles.includes(visitor.role);
  const allowed = member || (!!visitor.userRole && internal.includes(visitor.userRole));
  return allowed ? { kind: 'page' } : { kind: 'forbidden' };
}
