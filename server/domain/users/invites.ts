import { randomUUID } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/index.ts';
import { invites } from '../../db/schema.ts';
import { tokenHash } from '../../identity/secrets.ts';
import type { InviteRow } from '../../identity/invitations.ts';

/** An invitation link works once and for this long (docs/decisions/0065-users-and-invites.md). */
export const INVITE_DAYS = 7;


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

/** Marks an invitation used, once: false when another request used it first or it expired meanwhile. */
export async function useInvite(db: Db, id: string): Promise<boolean> {
  const rows = await db
    .update(invites)
    .set({ usedAt: new Date() })
    .where(and(eq(invites.id, id), isNull(invites.usedAt), sql`${invites.expiresAt} > now()`))
    .returning({ id: invites.id });
  return rows.length === 1;
}
