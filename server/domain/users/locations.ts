import { asc, eq } from 'drizzle-orm';
import type { components } from '../../../codegen/generated/api.ts';
import type { Db } from '../../db/index.ts';
import { offices } from '../../db/schema.ts';
import type { Caller } from '../../http/caller.ts';

/**
 * Where a person's work at one office reaches (decision 0281): the other locations of its organization, as far as they
 * hold what the work needs there. Asked by the roll-ups (reports, lists), the invitation to several locations and the
 * organization's page.
 */

type Schemas = components['schemas'];
type Staff = Extract<Caller, { kind: 'staff' }>;

/** The offices of `officeId`'s organization, `officeId` itself first; only it when it belongs to none. */
async function organizationOffices(db: Db, officeId: number): Promise<number[]> {
  const [office] = await db.select({ organizationId: offices.organizationId }).from(offices).where(eq(offices.id, officeId));
  if (!office?.organizationId) return [officeId];
  const rows = await db.select({ id: offices.id }).from(offices).where(eq(offices.organizationId, office.organizationId)).orderBy(asc(offices.id));
  return [officeId, ...rows.map((row) => row.id).filter((id) => id !== officeId)];
}

/**
 * The locations a roll-up from `officeId` covers for this caller (decision 0281): those of its organization where the
 * caller `may` act — holds a permission, or belongs at all — `officeId` first. The caller was admitted at `officeId` by
 * the operation's access rule before this is asked.
 */
export async function locationsInView(db: Db, caller: Caller, officeId: number, may: (caller: Staff, officeId: number) => boolean): Promise<number[]> {
  if (caller.kind !== 'staff') return [officeId];
  return (await organizationOffices(db, officeId)).filter((id) => id === officeId || may(caller, id));
}

/** What holds a permission at an office: the caller's permissions there (decision 0279). */
export const holding = (permission: Schemas['OfficePermission']) => (caller: Staff, officeId: number) => caller.permissions.get(officeId)?.includes(permission) ?? false;

/** Belongs to the office and was not turned off there. */
export const belonging = (caller: Staff, officeId: number) => caller.offices.has(officeId);
