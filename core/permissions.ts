/**
 * What a member of an office may do (issue 40, decision 0279): the role is a template of permissions
 * (schemas/enums/office-permission.json, `x-roles`), and an office admin grants or withdraws single ones per person.
 * The server and the browser both read what a person holds from here.
 */
import permissions from '../schemas/enums/office-permission.json' with { type: 'json' };
import type { OfficePermission } from '../codegen/generated/schemas.ts';

export type Permission = OfficePermission;

export const PERMISSIONS: readonly Permission[] = permissions.enum as Permission[];

const TEMPLATES: Readonly<Record<string, readonly string[]>> = permissions['x-roles'];

/** The permissions a role gives by itself. */
export function rolePermissions(role: string): readonly Permission[] {
  return PERMISSIONS.filter((p) => TEMPLATES[role]?.includes(p));
}

/** What a person holds: the role's template, with the grants added and the withdrawals taken away, in catalogue order. */
export function heldPermissions(role: string, granted: readonly string[], withdrawn: readonly string[]): Permission[] {
  const template = rolePermissions(role);
  return PERMISSIONS.filter((p) => (template.includes(p) || granted.includes(p)) && !withdrawn.includes(p));
}

/** The grants and withdrawals that make a role's template into the wanted permissions (what is stored). */
export function permissionChanges(role: string, wanted: readonly string[]): { granted: Permission[]; withdrawn: Permission[] } {
  const template = rolePermissions(role);
  return {
    granted: PERMISSIONS.filter((p) => wanted.includes(p) && !template.includes(p)),
    withdrawn: template.filter((p) => !wanted.includes(p)),
  };
}
