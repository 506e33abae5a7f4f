/**
 * What a staff caller may do, as the server found it for this request, carried on every staff answer (`x-access`,
 * decision 0257): the browser's session follows a role changed or access turned off by someone else on the next answer,
 * so menus and the route guard agree with the server from the next page on, without signing in again. The caller's own
 * facts only: office ids with the role and the permissions held there, and the internal role.
 */
export const ACCESS_HEADER = 'x-access';

export interface CallerAccess {
  userRole: string | null;
  /** Office id → the role held there, for offices whose access is on. */
  roles: Record<string, string>;
  /** Office id → the permissions held there (decision 0279). */
  permissions: Record<string, readonly string[]>;
  /** Offices whose access is turned off for this person. */
  disabled: number[];
}

export function encodeAccess(access: CallerAccess): string {
  return JSON.stringify(access);
}

/** The header's facts; undefined for an answer without it or a value that is not ours. */
export function decodeAccess(value: string | null): CallerAccess | undefined {
  if (!value) return undefined;
  try {
    const parsed = JSON.parse(value) as Partial<CallerAccess>;
    const roles = parsed.roles && typeof parsed.roles === 'object' ? parsed.roles : undefined;
    const permissions = parsed.permissions && typeof parsed.permissions === 'object' ? parsed.permissions : undefined;
    if (!roles || !permissions || !Array.isArray(parsed.disabled) || (parsed.userRole !== null && typeof parsed.userRole !== 'string')) return undefined;
    return { userRole: parsed.userRole, roles, permissions, disabled: parsed.disabled.filter((id): id is number => typeof id === 'number') };
  } catch {
    return undefined;
  }
}

export interface SessionAccess {
  userRole: string | null;
  role: string | null;
  permissions: readonly string[];
  accessDisabled: boolean;
  /** Whether the header offers Switch Offices: the person works in more than one office whose access is on. */
  isMultipleOffices: boolean;
}

/**
 * The session's facts that differ from the server's, for the office the session is in; undefined when they agree. A
 * session without an office (a platform admin's) follows only the internal role. An office the person has left or
 * whose access was turned off keeps the role they held, and is shut to them (the Home notice says so).
 */
export function accessChanges(held: SessionAccess & { officeId: number | null }, access: CallerAccess): Partial<SessionAccess> | undefined {
  const changes: Partial<SessionAccess> = {};
  if (held.userRole !== access.userRole) changes.userRole = access.userRole;
  // Joining another location (an invitation to several, decision 0281) or leaving one shows on the next answer.
  const several = Object.keys(access.roles).length > 1;
  if (several !== held.isMultipleOffices) changes.isMultipleOffices = several;
  if (held.officeId !== null) {
    const role = access.roles[String(held.officeId)];
    if (role !== undefined && role !== held.role) changes.role = role;
    const permissions = access.permissions[String(held.officeId)];
    if (permissions !== undefined && permissions.join() !== held.permissions.join()) changes.permissions = [...permissions];
    const disabled = role === undefined && access.userRole === null;
    if (disabled !== held.accessDisabled) changes.accessDisabled = disabled;
  }
  return Object.keys(changes).length ? changes : undefined;
}
