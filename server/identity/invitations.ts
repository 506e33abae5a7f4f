import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/index.ts';
import { invites, offices, users } from '../db/schema.ts';
import { tokenHash } from './secrets.ts';
import { formatList } from '../../core/formats.ts';
import type { TimeZone } from '../../codegen/generated/schemas.ts';
import { DEFAULT_OFFICE_ZONE } from '../../core/time-zones.ts';

/**
 * An invitation read by its link's token: the sign-in pages read it to sign the invitee up under the invited e-mail,
 * and the users' domain to show and accept it (server/domain/users/invites.ts issues and uses them).
 */

export type InviteRow = typeof invites.$inferSelect;

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
