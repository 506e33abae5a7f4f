/**
 * The route guard's decision (spec §6, docs/decisions/0040): pure, so the same rule is unit-tested and used by
 * the router and by the e2e test generator.
 */
import type { RouteAccess } from '../../codegen/generated/descriptors.ts';

export interface Visitor {
  authenticated: boolean;
  role: string | null;
  /** The office permissions held where the visitor is (decision 0279). */
  permissions: readonly string[];
  userRole: string | null;
  borrowerAuthenticated: boolean;
  borrowerAppId: number | null;
}

export type AccessDecision =
  | { kind: 'allow' }
  /** Not signed in: staff sign-in with the requested path. */
  | { kind: 'signIn' }
  /** Borrower-only route without borrower sign-in for its application. */
  | { kind: 'borrowerSignIn' }
  /** Signed in without a role the route allows: 403. */
  | { kind: 'forbidden' };

/** The guard's view of a session: who is signed in, with which roles, for which application. */
export function visitorOf(session: Record<string, unknown>): Visitor {
  const str = (v: unknown) => (typeof v === 'string' && v ? v : null);
  return {
    authenticated: session.authenticated === true,
    role: str(session.role),
    permissions: Array.isArray(session.permissions) ? session.permissions.filter((p): p is string => typeof p === 'string') : [],
    userRole: str(session.userRole),
    borrowerAuthenticated: session.borrowerAuthenticated === true,
    borrowerAppId: typeof session.borrowerAppId === 'number' ? session.borrowerAppId : null,
  };
}

export function decideAccess(access: RouteAccess, visitor: Visitor, params: Record<string, string | undefined>): AccessDecision {
  if (access.anonymous) return { kind: 'allow' };
  if (access.borrower) {
    const id = params.id;
    const forThisApp = id === undefined || id === '' || (visitor.borrowerAppId !== null && String(visitor.borrowerAppId) === id);
    return visitor.borrowerAuthenticated && forThisApp ? { kind: 'allow' } : { kind: 'borrowerSignIn' };
  }
  if (!visitor.authenticated) return { kind: 'signIn' };
  const roles: readonly string[] = access.roles ?? [];
  const userRoles: readonly string[] = access.userRoles ?? [];
  if (roles.length === 0 && userRoles.length === 0) return { kind: 'allow' };
  // A staff user passes when their office role OR their internal userRole is listed (decision 0040); where the route
  // names a permission, an office member passes by holding it instead of by role (decision 0279).
  const asMember = access.permission ? visitor.role !== null && visitor.permissions.includes(access.permission) : visitor.role !== null && roles.includes(visitor.role);
  const passes = asMember || (visitor.userRole !== null && userRoles.includes(visitor.userRole));
  return passes ? { kind: 'allow' } : { kind: 'forbidden' };
}
