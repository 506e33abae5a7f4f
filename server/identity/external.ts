import { and, eq, isNull } from 'drizzle-orm';
import type { JWTPayload } from 'jose';
import type { Db } from '../db/index.ts';
import { users } from '../db/schema.ts';

const clip = (value: unknown, fallback: string): string => {
  const text = typeof value === 'string' ? value.trim() : '';
  return (text || fallback).slice(0, 25);
};

function emailOf(payload: JWTPayload): string | undefined {
  // B2C puts addresses in `emails`; Entra External ID and generic issuers in `email` or preferred_username.
  const candidates = [Array.isArray(payload.emails) ? payload.emails[0] : undefined, payload.email, payload.preferred_username];
  const found = candidates.find((value): value is string => typeof value === 'string' && /^[^\s@]+@[^\s@]+$/.test(value));
  return found?.toLowerCase();
}

/**
 * Maps a verified access token of an external issuer to our user (docs/decisions/0064): by issuer
 * subject (`oid`, else `sub`); else an account with the token's e-mail that no issuer claimed yet is
 * linked (an invited user, or a local user after switching issuers); else the person signed up at the
 * issuer and a user is created, who then enrolls an office. A disabled user is refused by the access
 * layer, which reads the row on every call.
 */
export function externalUserResolver(db: Db, providerName: string) {
  return async (payload: JWTPayload): Promise<string | undefined> => {
    const subject = typeof payload.oid === 'string' ? payload.oid : payload.sub;
    if (!subject) return undefined;
    const [known] = await db.select({ id: users.id }).from(users).where(and(eq(users.provider, providerName), eq(users.providerId, subject)));
    if (known) return known.id;
    const email = emailOf(payload);
    if (!email) return undefined;
    const [linked] = await db
      .update(users)
      .set({ provider: providerName, providerId: subject, updatedAt: new Date() })
      .where(and(eq(users.email, email), isNull(users.providerId)))
      .returning({ id: users.id });
    if (linked) return linked.id;
    const [created] = await db
      .insert(users)
      .values({
        email,
        firstName: clip(payload.given_name, email.split('@')[0]!),
        lastName: clip(payload.family_name, '-'),
        role: 'admin',
        provider: providerName,
        providerId: subject,
      })
      .onConflictDoNothing()
      .returning({ id: users.id });
    // Conflict: the e-mail belongs to an account another subject already claimed; refuse.
    return created?.id;
  };
}
