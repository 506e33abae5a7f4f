import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/index.ts';
import { invites, offices, users } from '../../db/schema.ts';
import { tokenHash } from '../../identity/secrets.ts';
import { formatList } from '../../../core/formats.ts';
import type { TimeZone } from '../../../codegen/generated/schemas.ts';
import { DEFAULT_OFFICE_ZONE } from '../../../core/time-zones.ts';

/** An invitation link works once and for this long (docs/decisions/0065-users-and-invites.md). */
export const INVITE_DAYS = 7;

export type InviteRow = typeof invites.$inferSelect;

/**
 * The "invite id" of the contract (Users_GetInviteInfo/{id}, ProcessInvite.inviteId, the route
 * /users/invite/{id}) is the invitation's secret token: a random UUID (122 bits) e-mailed to the
 * invitee. Only its SHA-256 is stored, so the database cannot be read back into working links.
 */
export async function issueInvite(
  db: Db,
  input: { officeId: number; alsoOfficeIds?: readonly number[]; email: string; role: InviteRow['role']; createdBy: string | null },
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomUUID();
  const expiresAt = new Date(Date.now() + INVITE_DAYS * 86_400_000);
  // A new invitation replaces the pending ones of the same person and office.
  await db.delete(invites).where(and(eq(invites.officeId, input.officeId), eq(invites.email, input.email), isNull(invites.usedAt)));
  await db.insert(invites).values({ officeId: input.officeId, alsoOfficeIds: [...(input.alsoOfficeIds ?? [])], email: input.email, role: input.role, tokenHash: tokenHash(token), expiresAt, createdBy: input.createdBy });
  return { token, expiresAt };
}

export interface InviteDetails {
  invite: InviteRow;
  officeName: string;
  /** The office's time zone, by whose clock the invitation expires. */
  timeZone: TimeZone;
  user: { id: string; firstName: string; lastName: string; hasPassword: boolean } | undefined;
  isExpired: boolean;
  isProcessed: boolean;
}

export async function inviteByToken(db: Db, token: string): Promise<InviteDetails | undefined> {
  const [row] = await db
    .select({ invite: invites, officeName: offices.name, timeZone: offices.timeZone, expired: sql<boolean>`${invites.expiresAt} <= now()` })
    .from(invites)
    .innerJoin(offices, eq(offices.id, invites.officeId))
    .where(eq(invites.tokenHash, tokenHash(token)));
  if (!row) return undefined;
  // An invitation to several locations names them all (decision 0281).
  const also = row.invite.alsoOfficeIds.length === 0 ? [] : await db.select({ name: offices.name }).from(offices).where(inArray(offices.id, row.invite.alsoOfficeIds)).orderBy(asc(offices.name));
  const [user] = await db
    .select({ id: users.id, firstName: users.firstName, lastName: users.lastName, passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.email, row.invite.email));
  return {
    invite: row.invite,
    officeName: formatList([row.officeName, ...also.map((o) => o.name)]),
    timeZone: row.timeZone ?? DEFAULT_OFFICE_ZONE,
    user: user ? { id: user.id, firstName: user.firstName, lastName: user.lastName, hasPassword: user.passwordHash !== null } : undefined,
    isExpired: row.expired,
    isProcessed: row.invite.usedAt !== null,
  };
}

/** Marks an invitation used, once: false when another request used it first or it expired meanwhile. */
export async function useInvite(db: Db, id: string): Promise<boolean> {
  const rows = await db
    .update(invites)
    .set({ usedAt: new Date() })
    .where(and(eq(invites.id, id), isNull(invites.usedAt), sql`${invites.expiresAt} > now()`))
    .returning({ id: invites.id });
  return rows.length === 1;
}
