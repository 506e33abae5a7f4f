import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/index.ts';
import { knownDevices, oidcStore, users } from '../db/schema.ts';
import { hashPassword, verifyPassword } from './password.ts';
import { newToken, tokenHash } from './secrets.ts';
import { revokeAccount } from './adapter.ts';
import type { ClientNetwork } from '../http/addresses.ts';
import { recordSecurityEvent } from '../http/security-events.ts';

export type UserRow = typeof users.$inferSelect;

/**
 * Failed sign-ins slow whoever fails and never lock the rightful user out (NIST 800-63B §5.2.2, ASVS 2.2.1; decision
 * 0252). Each source may fail so many times, then waits 1, 2, 4 … seconds (at most `maxDelaySeconds`) after its last
 * failure: the account from one address (`pair`), or from one browser it signed in from before (a known device, which
 * failures anywhere else never slow); one address across accounts (`address`); the account from every browser it has
 * not signed in from (`account`, NIST's 100). Counted in the database, across processes and restarts.
 */
export const SIGN_IN_LIMITS = { pair: 5, address: 20, account: 100, windowMinutes: 60, maxDelaySeconds: 900, notifyAfter: 5 } as const;
/** A browser is known for this long after the account last signed in from it. */
const KNOWN_DEVICE_DAYS = 90;

/** How long a source that failed `failures` times waits after its last failure. */
export const throttleSeconds = (failures: number, free: number): number => (failures < free ? 0 : Math.min(2 ** (failures - free), SIGN_IN_LIMITS.maxDelaySeconds));

/** Sign-ups and reset requests allowed per client address per hour; their e-mails per account per hour. */
export const REQUEST_LIMITS = { signUpsPerAddress: 10, signUpMailsPerAccount: 3, resetsPerAddress: 10, resetsPerAccount: 3 } as const;

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

const event = (db: Db, kind: string, actor: string, ip: ClientNetwork, detail: Record<string, unknown> = {}) => recordSecurityEvent(db, { kind, actor, ip, detail });

/** Whether the account signed in from this browser (its device cookie's hash) lately. */
async function isKnownDevice(db: Db, userId: string | undefined, device: string | undefined): Promise<boolean> {
  if (!userId || !device) return false;
  const [row] = await db
    .select({ userId: knownDevices.userId })
    .from(knownDevices)
    .where(and(eq(knownDevices.userId, userId), eq(knownDevices.deviceHash, device), sql`${knownDevices.lastSeenAt} > now() - make_interval(days => ${KNOWN_DEVICE_DAYS})`));
  return row !== undefined;
}

interface Throttle {
  /** Seconds until this source may try again (0: now). */
  wait: number;
  /** The account's failures since its last sign-in, from anywhere. */
  accountFailures: number;
}

/**
 * The wait of a sign-in attempt: the longest of its sources'. Failures count from the account's last successful
 * sign-in (an address's across accounts from the window's start); a failure from a known device carries its hash, one
 * from elsewhere does not, so that the two never mix.
 */
async function throttle(db: Db, attempt: { email: string; ip: ClientNetwork; device: string | undefined; known: boolean }): Promise<Throttle> {
  const window = sql`now() - make_interval(mins => ${SIGN_IN_LIMITS.windowMinutes})`;
  const mine = attempt.known ? sql`detail->>'device' = ${attempt.device!}` : sql`ip = ${attempt.ip} and detail->>'device' is null`;
  const rows = await db.execute<Record<'pair' | 'address' | 'account' | 'total', number> & Record<'pair_last' | 'address_last' | 'account_last', string | Date | null>>(sql`
    with since as (
      select greatest(coalesce(max(created_at), '-infinity'), ${window}) as t from security_events
      where kind = 'sign-in' and actor = ${attempt.email} and created_at > ${window})
    select
      count(*) filter (where mine)::int as pair, max(created_at) filter (where mine) as pair_last,
      count(*) filter (where ip = ${attempt.ip} and stranger)::int as address, max(created_at) filter (where ip = ${attempt.ip} and stranger) as address_last,
      count(*) filter (where own and stranger)::int as account, max(created_at) filter (where own and stranger) as account_last,
      count(*) filter (where own)::int as total
    from (
      select created_at, ip, actor = ${attempt.email} and created_at > (select t from since) as own,
        actor = ${attempt.email} and created_at > (select t from since) and ${mine} as mine,
        detail->>'device' is null as stranger
      from security_events
      where kind = 'sign-in-failed' and created_at > ${window} and (actor = ${attempt.email} or ip = ${attempt.ip})
    ) failures`);
  const row = rows.rows[0]!;
  const waitAfter = (failures: number, free: number, last: string | Date | null) =>
    last ? Math.ceil((new Date(last).getTime() + throttleSeconds(Number(failures), free) * 1000 - Date.now()) / 1000) : 0;
  const waits = [waitAfter(row.pair, SIGN_IN_LIMITS.pair, row.pair_last)];
  // A known device is slowed only by its own failures.
  if (!attempt.known) waits.push(waitAfter(row.address, SIGN_IN_LIMITS.address, row.address_last), waitAfter(row.account, SIGN_IN_LIMITS.account, row.account_last));
  return { wait: Math.max(0, ...waits), accountFailures: Number(row.total) };
}

async function countSince(db: Db, kind: string, field: 'actor' | 'ip', value: string, minutes: number): Promise<number> {
  const column = field === 'actor' ? sql`actor` : sql`ip`;
  const rows = await db.execute<{ n: number }>(sql`
    select count(*)::int as n from security_events
    where kind = ${kind} and ${column} = ${value} and created_at > now() - make_interval(mins => ${minutes})`);
  return Number(rows.rows[0]?.n ?? 0);
}

export type SignInResult = { ok: true; user: UserRow } | { ok: false; reason: 'invalid' } | { ok: false; reason: 'throttled'; retryAfterSeconds: number };

/**
 * Checks an e-mail and password from a browser (`device`: its device cookie, if it has one); every failure is recorded
 * for the limits, and the account's owner is told by e-mail when failures pile up (`onRepeatedFailures`).
 */
export async function signIn(
  db: Db,
  input: { email: string; password: string; ip: ClientNetwork; device: string | undefined },
  onRepeatedFailures: (user: UserRow, failures: number) => Promise<void>,
): Promise<SignInResult> {
  const email = normalizeEmail(input.email);
  const user = email ? await userByEmail(db, email) : undefined;
  const device = input.device ? tokenHash(input.device) : undefined;
  const known = await isKnownDevice(db, user?.id, device);
  const { wait, accountFailures } = await throttle(db, { email, ip: input.ip, device, known });
  // While a source waits its password is not even checked, so that waiting is not guessing.
  if (wait > 0) return { ok: false, reason: 'throttled', retryAfterSeconds: wait };
  const hash = user?.provider === 'local' ? user.passwordHash : null;
  const good = await verifyPassword(input.password, hash ?? (await (dummyHash ??= hashPassword('not-a-password-of-anyone'))));
  if (!good || !hash || !user || user.isDisabled) {
    await event(db, 'sign-in-failed', email, input.ip, { ...(user ? { userId: user.id } : {}), ...(known ? { device } : {}) });
    if (user && !user.isDisabled && accountFailures + 1 === SIGN_IN_LIMITS.notifyAfter) await onRepeatedFailures(user, accountFailures + 1);
    return { ok: false, reason: 'invalid' };
  }
  await event(db, 'sign-in', email, input.ip, { userId: user.id });
  if (device) {
    await db.insert(knownDevices).values({ userId: user.id, deviceHash: device }).onConflictDoUpdate({ target: [knownDevices.userId, knownDevices.deviceHash], set: { lastSeenAt: sql`now()` } });
  }
  return { ok: true, user };
}

/**
 * Whether an address may ask for another sign-up, and whether its e-mail may be written to again: every request counts,
 * whether or not the e-mail has an account, and the answer is the same either way (decision 0251).
 */
export async function signUpAllowed(db: Db, ip: ClientNetwork): Promise<boolean> {
  return (await countSince(db, 'sign-up-requested', 'ip', ip, 60)) < REQUEST_LIMITS.signUpsPerAddress;
}

export async function signUpMailAllowed(db: Db, email: string): Promise<boolean> {
  return (await countSince(db, 'sign-up-requested', 'actor', email, 60)) < REQUEST_LIMITS.signUpMailsPerAccount;
}

export async function recordSignUpRequest(db: Db, email: string, ip: ClientNetwork): Promise<void> {
  await event(db, 'sign-up-requested', email, ip);
}

export async function recordSignUp(db: Db, user: UserRow, ip: ClientNetwork): Promise<void> {
  await event(db, 'sign-up', user.email, ip, { userId: user.id });
}

/** A new local account, its password hashed already; the caller checked that the e-mail is free. Role admin: a new user enrolls their own office. */
export async function createLocalUser(db: Db, input: PendingSignUp): Promise<UserRow> {
  const { passwordHash } = input;
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

// ---- e-mailed links (reset, first password of an account made by an admin, a sign-up to confirm) ----

/** What an e-mailed link's token opens: an account's password, or a sign-up waiting for its e-mail to be confirmed. */
const LINK_MODELS = { password: 'PasswordToken', signUp: 'SignUpToken' } as const;
type LinkKind = keyof typeof LINK_MODELS;
/** A sign-up's details until its e-mail is confirmed: no account exists before, so none can be claimed by a stranger. */
export interface PendingSignUp {
  email: string;
  firstName: string;
  lastName: string;
  passwordHash: string;
}
type LinkPayload = { password: { userId: string }; signUp: PendingSignUp };

export const RESET_MINUTES = 60;
export const FIRST_PASSWORD_DAYS = 7;
export const SIGN_UP_HOURS = 24;

/** A single-use link token; only its hash is stored. */
export async function createLinkToken<K extends LinkKind>(db: Db, kind: K, payload: LinkPayload[K], ttlSeconds: number): Promise<string> {
  const token = newToken();
  await db.insert(oidcStore).values({ model: LINK_MODELS[kind], id: tokenHash(token), payload: { ...payload }, expiresAt: new Date(Date.now() + ttlSeconds * 1000) });
  return token;
}

const linkWhere = (kind: LinkKind, token: string) => and(eq(oidcStore.model, LINK_MODELS[kind]), eq(oidcStore.id, tokenHash(token)), sql`${oidcStore.expiresAt} > now()`);

/** What a link token opens, if it is valid; does not use it up. */
export async function peekLinkToken<K extends LinkKind>(db: Db, kind: K, token: string): Promise<LinkPayload[K] | undefined> {
  const [row] = await db.select({ payload: oidcStore.payload }).from(oidcStore).where(linkWhere(kind, token));
  return row?.payload as LinkPayload[K] | undefined;
}

/** Uses a link token up (exactly once, even when two requests race) and answers what it opened. */
export async function consumeLinkToken<K extends LinkKind>(db: Db, kind: K, token: string): Promise<LinkPayload[K] | undefined> {
  const [row] = await db.delete(oidcStore).where(linkWhere(kind, token)).returning({ payload: oidcStore.payload });
  return row?.payload as LinkPayload[K] | undefined;
}

export async function resetRequestAllowed(db: Db, email: string, ip: ClientNetwork): Promise<boolean> {
  const [byAddress, byAccount] = await Promise.all([
    countSince(db, 'password-reset-requested', 'ip', ip, 60),
    countSince(db, 'password-reset-requested', 'actor', email, 60),
  ]);
  return byAddress < REQUEST_LIMITS.resetsPerAddress && byAccount < REQUEST_LIMITS.resetsPerAccount;
}

export async function recordResetRequest(db: Db, email: string, ip: ClientNetwork): Promise<void> {
  await event(db, 'password-reset-requested', normalizeEmail(email), ip);
}
