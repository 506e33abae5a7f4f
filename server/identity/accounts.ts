import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/index.ts';
import { oidcStore, users } from '../db/schema.ts';
import { hashPassword, verifyPassword } from './password.ts';
import { newToken, tokenHash } from './secrets.ts';
import { revokeAccount } from './adapter.ts';
import { recordSecurityEvent } from '../http/security-events.ts';

export type UserRow = typeof users.$inferSelect;

/** Failed sign-ins allowed per account, and per client address, in the window (docs/decisions/0063). */
export const SIGN_IN_LIMITS = { perAccount: 5, perAddress: 20, windowMinutes: 15 } as const;
/** Sign-ups and reset requests allowed per client address per hour; reset e-mails per account per hour. */
export const REQUEST_LIMITS = { signUpsPerAddress: 10, resetsPerAddress: 10, resetsPerAccount: 3 } as const;

export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

/** Verifying against this when there is no such user keeps a wrong e-mail as slow as a wrong password. */
let dummyHash: Promise<string> | undefined;

export async function userByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  const [user] = await db.select().from(users).where(eq(users.email, normalizeEmail(email)));
  return user;
}

export async function userById(db: Db, id: string): Promise<UserRow | undefined> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return undefined;
  const [user] = await db.select().from(users).where(eq(users.id, id));
  return user;
}

const event = (db: Db, kind: string, actor: string, ip: string, detail: Record<string, unknown> = {}) => recordSecurityEvent(db, { kind, actor, ip, detail });

/**
 * Failed sign-ins are security events, so the count lives in the database and holds across processes
 * and restarts. An account's count restarts after a successful sign-in; an address's does not.
 */
export async function signInLocked(db: Db, email: string, ip: string): Promise<boolean> {
  const window = sql`now() - make_interval(mins => ${SIGN_IN_LIMITS.windowMinutes})`;
  const rows = await db.execute<{ account: number; address: number }>(sql`
    select
      count(*) filter (where actor = ${email} and created_at > coalesce(
        (select max(created_at) from security_events where kind = 'sign-in' and actor = ${email} and created_at > ${window}),
        '-infinity'))::int as account,
      count(*) filter (where ip = ${ip})::int as address
    from security_events
    where kind = 'sign-in-failed' and created_at > ${window} and (actor = ${email} or ip = ${ip})`);
  const counts = rows.rows[0] ?? { account: 0, address: 0 };
  return Number(counts.account) >= SIGN_IN_LIMITS.perAccount || Number(counts.address) >= SIGN_IN_LIMITS.perAddress;
}

async function countSince(db: Db, kind: string, field: 'actor' | 'ip', value: string, minutes: number): Promise<number> {
  const column = field === 'actor' ? sql`actor` : sql`ip`;
  const rows = await db.execute<{ n: number }>(sql`
    select count(*)::int as n from security_events
    where kind = ${kind} and ${column} = ${value} and created_at > now() - make_interval(mins => ${minutes})`);
  return Number(rows.rows[0]?.n ?? 0);
}

export type SignInResult = { ok: true; user: UserRow } | { ok: false; reason: 'invalid' | 'locked' };

/** Checks an e-mail and password; every failure is recorded for the rate limit. */
export async function signIn(db: Db, input: { email: string; password: string; ip: string }): Promise<SignInResult> {
  const email = normalizeEmail(input.email);
  if (await signInLocked(db, email, input.ip)) return { ok: false, reason: 'locked' };
  const user = email ? await userByEmail(db, email) : undefined;
  const hash = user?.provider === 'local' ? user.passwordHash : null;
  const good = await verifyPassword(input.password, hash ?? (await (dummyHash ??= hashPassword('not-a-password-of-anyone'))));
  if (!good || !hash || !user || user.isDisabled) {
    await event(db, 'sign-in-failed', email, input.ip, user ? { userId: user.id } : {});
    return { ok: false, reason: 'invalid' };
  }
  await event(db, 'sign-in', email, input.ip, { userId: user.id });
  return { ok: true, user };
}

export async function signUpAllowed(db: Db, ip: string): Promise<boolean> {
  return (await countSince(db, 'sign-up', 'ip', ip, 60)) < REQUEST_LIMITS.signUpsPerAddress;
}

export async function recordSignUp(db: Db, user: UserRow, ip: string): Promise<void> {
  await event(db, 'sign-up', user.email, ip, { userId: user.id });
}

/** A new local account; the caller checked that the e-mail is free. Role admin: a new user enrolls their own office. */
export async function createLocalUser(db: Db, input: { email: string; firstName: string; lastName: string; password: string }): Promise<UserRow> {
  const passwordHash = await hashPassword(input.password);
  const [user] = await db
    .insert(users)
    .values({ email: normalizeEmail(input.email), firstName: input.firstName, lastName: input.lastName, role: 'admin', provider: 'local', passwordHash })
    .returning();
  return user!;
}

/** Sets a password and ends every existing sign-in of the account. */
export async function setPassword(db: Db, userId: string, password: string): Promise<void> {
  const passwordHash = await hashPassword(password);
  await db.update(users).set({ passwordHash, provider: 'local', updatedAt: new Date() }).where(eq(users.id, userId));
  await revokeAccount(db, userId);
}

// ---- password links (reset, first password of an account made by an admin) --------------------

const PASSWORD_TOKEN = 'PasswordToken';
export const RESET_MINUTES = 60;
export const FIRST_PASSWORD_DAYS = 7;

export async function resetRequestAllowed(db: Db, email: string, ip: string): Promise<boolean> {
  const [byAddress, byAccount] = await Promise.all([
    countSince(db, 'password-reset-requested', 'ip', ip, 60),
    countSince(db, 'password-reset-requested', 'actor', email, 60),
  ]);
  return byAddress < REQUEST_LIMITS.resetsPerAddress && byAccount < REQUEST_LIMITS.resetsPerAccount;
}

export async function recordResetRequest(db: Db, email: string, ip: string): Promise<void> {
  await event(db, 'password-reset-requested', normalizeEmail(email), ip);
}

/** A single-use link token for choosing a password; only its hash is stored. */
export async function createPasswordToken(db: Db, userId: string, ttlSeconds: number): Promise<string> {
  const token = newToken();
  await db.insert(oidcStore).values({
    model: PASSWORD_TOKEN,
    id: tokenHash(token),
    payload: { userId },
    expiresAt: new Date(Date.now() + ttlSeconds * 1000),
  });
  return token;
}

/** The account a password token opens, if it is valid; does not use it up. */
export async function peekPasswordToken(db: Db, token: string): Promise<string | undefined> {
  const [row] = await db
    .select({ payload: oidcStore.payload })
    .from(oidcStore)
    .where(and(eq(oidcStore.model, PASSWORD_TOKEN), eq(oidcStore.id, tokenHash(token)), sql`${oidcStore.expiresAt} > now()`));
  return row ? String(row.payload.userId) : undefined;
}

/** Uses a password token up (exactly once, even when two requests race) and answers its account. */
export async function consumePasswordToken(db: Db, token: string): Promise<string | undefined> {
  const rows = await db
    .delete(oidcStore)
    .where(and(eq(oidcStore.model, PASSWORD_TOKEN), eq(oidcStore.id, tokenHash(token)), sql`${oidcStore.expiresAt} > now()`))
    .returning({ payload: oidcStore.payload });
  const row = rows[0];
  return row ? String(row.payload.userId) : undefined;
}
