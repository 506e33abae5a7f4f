import { and, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { components } from '../../../codegen/generated/api.ts';
import type { Settings } from '../../config.ts';
import type { Db } from '../../db/index.ts';
import { invites, offices, userOffices, users } from '../../db/schema.ts';
import { HttpProblem } from '../../http/problem.ts';
import { revokeAccount } from '../../identity/adapter.ts';
import { createLinkToken, FIRST_PASSWORD_DAYS, normalizeEmail } from '../../identity/accounts.ts';
import { inviteLink, passwordLink } from '../../identity/paths.ts';
import { accountCreatedEmail, officeInviteEmail } from '../../notify/messages.ts';
import { serverBrand } from '../../descriptors/brands.ts';
import { sendEmail } from '../../notify/outbox.ts';
import { issueInvite, useInvite } from './invites.ts';
import { inviteByToken } from '../../identity/invitations.ts';
import { officeUser } from './reads.ts';
import { recordEvent } from '../../events/record.ts';
import { formatList } from '../../../core/formats.ts';

type Schemas = components['schemas'];
type OfficeRole = Schemas['OfficeRole'];

export interface WriteContext {
  /** The staff member making the change. */
  actorId: string;
  settings: Pick<Settings, 'publicUrl' | 'identity'>;
}

/** The 409 an office answers when a change would leave it without an active admin (decision 0065). */
const NEEDS_ADMIN = 'An office needs at least one active admin.';

/** First key of the advisory lock that serialises writes about one e-mail (the second is the e-mail's hash). */
const EMAIL_LOCK = 7_326_411;

const ROLE_WORDS: Record<OfficeRole, string> = { admin: 'an office admin', support: 'support staff', tpa: 'a third-party administrator', sales: 'sales staff' };

/** E-mails sent by API calls carry links to PUBLIC_URL: they wear the brand of that host. */
const linkBrand = (context: WriteContext) => serverBrand(new URL(context.settings.publicUrl).host);

/** Accounts made for someone who has not signed in yet belong to the issuer that will sign them in. */
const providerOf = (settings: WriteContext['settings']) => (settings.identity.kind === 'external' ? settings.identity.providerName : 'local');

/** The office's name and time zone (its invitations expire by its clock). */
async function officeOf(db: Db, officeId: number): Promise<{ name: string; timeZone: string | null }> {
  const [office] = await db.select({ name: offices.name, timeZone: offices.timeZone }).from(offices).where(eq(offices.id, officeId));
  if (!office) throw new HttpProblem(404, 'The office could not be found.');
  return office;
}

/** Active admins of an office (enabled links, invitations accepted, accounts enabled). */
async function activeAdmins(db: Db, officeId: number): Promise<number> {
  const rows = await db.execute<{ n: number }>(sql`
    select count(*)::int as n from user_offices uo join users u on u.id = uo.user_id
    where uo.office_id = ${officeId} and uo.role = 'admin' and not uo.is_disabled and not u.is_disabled
      and (not uo.is_invited or uo.is_invite_processed)`);
  return Number(rows.rows[0]?.n ?? 0);
}

async function sendOfficeInvite(
  db: Db,
  context: WriteContext,
  input: { officeId: number; office: { name: string; timeZone: string | null }; email: string; firstName: string; role: OfficeRole; also?: readonly { id: number; name: string }[] },
): Promise<void> {
  const also = input.also ?? [];
  const { token, expiresAt } = await issueInvite(db, { officeId: input.officeId, alsoOfficeIds: also.map((o) => o.id), email: input.email, role: input.role, createdBy: context.actorId });
  for (const officeId of [input.officeId, ...also.map((o) => o.id)]) {
    await recordEvent(db, { type: 'user.invited', officeId, subject: { kind: 'user', id: input.email }, data: { role: input.role } });
  }
  const url = inviteLink(context.settings.publicUrl, token);
  const brandName = linkBrand(context).name;
  const officeName = formatList([input.office.name, ...also.map((o) => o.name)]);
  await sendEmail(db, officeInviteEmail({ to: input.email, firstName: input.firstName, officeName, role: ROLE_WORDS[input.role], url, expiresAt, timeZone: input.office.timeZone, brandName }));
}

/**
 * The pending links of an invitation to several locations (decision 0281): the inviter's other locations, the same role
 * and title. One the person already belongs to is refused by name, so that the inviter knows what the e-mail will say.
 */
async function linkOtherLocations(db: Db, input: { userId: string; email: string; officeIds: readonly number[]; role: OfficeRole; title: string | null }) {
  const also: { id: number; name: string }[] = [];
  for (const officeId of input.officeIds) {
    const office = await officeOf(db, officeId);
    const [link] = await db.select().from(userOffices).where(and(eq(userOffices.userId, input.userId), eq(userOffices.officeId, officeId)));
    if (link) throw HttpProblem.conflict(`${input.email} is already ${isPending(link) ? 'invited to' : 'a user of'} ${office.name}: leave it out of this invitation.`);
    await db.insert(userOffices).values({ userId: input.userId, officeId, role: input.role, title: input.title, isInvited: true, isInviteProcessed: false });
    also.push({ id: officeId, name: office.name });
  }
  return also;
}

/** Two writes about one e-mail (a double-clicked Invite) run one after the other, so the second sees the first. */
async function lockEmail(db: Db, email: string): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(${EMAIL_LOCK}, hashtext(${email}))`);
}

/** The person's link to the office with their account; 404 when there is none. */
async function linkOf(db: Db, userId: string, officeId: number) {
  const [row] = await db
    .select({ user: users, link: userOffices })
    .from(userOffices)
    .innerJoin(users, eq(users.id, userOffices.userId))
    .where(and(eq(userOffices.userId, userId), eq(userOffices.officeId, officeId)));
  if (!row) throw new HttpProblem(404, 'The user is not a user of this office.');
  return row;
}

const isPending = (link: { isInvited: boolean; isInviteProcessed: boolean }) => link.isInvited && !link.isInviteProcessed;

/** An office keeps an active admin; the primary user is an active one. Checked after a change, inside its transaction. */
async function checkOffice(db: Db, officeId: number, adminsBefore: number): Promise<void> {
  if (adminsBefore > 0 && (await activeAdmins(db, officeId)) === 0) throw HttpProblem.conflict(NEEDS_ADMIN);
  const [primary] = await db
    .select({ isDisabled: userOffices.isDisabled, isInvited: userOffices.isInvited, isInviteProcessed: userOffices.isInviteProcessed })
    .from(userOffices)
    .where(and(eq(userOffices.officeId, officeId), eq(userOffices.isPrimary, true)));
  if (primary?.isDisabled) throw HttpProblem.conflict('The primary user cannot be disabled: make another user primary first.');
  if (primary && isPending(primary)) throw HttpProblem.conflict('Only someone who accepted the invitation can be the primary user.');
}

/**
 * Users_UpsertUser, AdminOffices_UpsertUser and each entry of AdminOffices_UpsertUsers; the caller
 * runs it in a transaction. Without userId the person is invited: an account is made for a new
 * e-mail (no password yet), the office link waits for the invitation to be accepted, and the
 * invitation is e-mailed through the outbox. Inviting someone already invited with the same details
 * answers the pending invitation and sends nothing (a double-clicked Invite acts once). With userId the
 * link's role, title, primary and disabled flags and the person's names are updated. An office always
 * keeps one active admin and at most one primary user, who is active; the primary moves, it is not dropped.
 */
export async function upsertOfficeUser(db: Db, context: WriteContext, input: Schemas['OfficeUserUpsert']): Promise<Schemas['OfficeUser']> {
  const office = await officeOf(db, input.officeId);
  const email = normalizeEmail(input.email);
  const title = input.title || null;
  await lockEmail(db, email);
  const adminsBefore = await activeAdmins(db, input.officeId);
  let userId: string;
  let invite = false;
  let also: { id: number; name: string }[] = [];
  if (input.userId) {
    const row = await linkOf(db, input.userId, input.officeId);
    if (input.isDisabled === true && !row.link.isDisabled) {
      await recordEvent(db, { type: 'user.disabled', officeId: input.officeId, subject: { kind: 'user', id: row.user.id }, data: { role: row.link.role } });
    }
    if (row.user.email !== email) throw HttpProblem.conflict('The e-mail of an existing user cannot be changed; invite the new address instead.');
    if (input.isDisabled && input.userId === context.actorId) throw HttpProblem.conflict('You cannot disable your own access.');
    if (input.isPrimary === false && row.link.isPrimary) throw HttpProblem.conflict('An office keeps its primary user: make another user primary instead.');
    userId = row.user.id;
    await db.update(users).set({ firstName: input.firstName, lastName: input.lastName, updatedAt: new Date() }).where(eq(users.id, userId));
    await db
      .update(userOffices)
      .set({
        role: input.role,
        title,
        ...(input.isPrimary === undefined ? {} : { isPrimary: input.isPrimary }),
        ...(input.isDisabled === undefined ? {} : { isDisabled: input.isDisabled }),
      })
      .where(and(eq(userOffices.userId, userId), eq(userOffices.officeId, input.officeId)));
    invite = input.sendInvite === true && isPending(row.link);
  } else {
    const [existing] = await db.select().from(users).where(eq(users.email, email));
    const [link] = existing
      ? await db.select().from(userOffices).where(and(eq(userOffices.userId, existing.id), eq(userOffices.officeId, input.officeId)))
      : [];
    if (existing && link) {
      if (!isPending(link)) throw HttpProblem.conflict(`${email} is already a user of this office.`);
      const same = link.role === input.role && link.title === title && existing.firstName === input.firstName && existing.lastName === input.lastName;
      if (!same) throw HttpProblem.conflict(`${email} is already invited to this office: edit the invitation, or send it again.`);
      return officeUser(db, existing.id, input.officeId);
    }
    if (existing) {
      userId = existing.id;
    } else {
      const [created] = await db
        .insert(users)
        .values({ email, firstName: input.firstName, lastName: input.lastName, role: input.role, title, provider: providerOf(context.settings) })
        .returning({ id: users.id });
      userId = created!.id;
    }
    await db.insert(userOffices).values({
      userId,
      officeId: input.officeId,
      role: input.role,
      title,
      isPrimary: input.isPrimary ?? false,
      isDisabled: input.isDisabled ?? false,
      isInvited: true,
      isInviteProcessed: false,
    });
    invite = input.sendInvite !== false;
    also = await linkOtherLocations(db, { userId, email, officeIds: input.alsoOfficeIds ?? [], role: input.role, title });
  }
  if (input.isPrimary) {
    await db.update(userOffices).set({ isPrimary: false }).where(and(eq(userOffices.officeId, input.officeId), ne(userOffices.userId, userId)));
  }
  await checkOffice(db, input.officeId, adminsBefore);
  if (invite) await sendOfficeInvite(db, context, { officeId: input.officeId, office, email, firstName: input.firstName, role: input.role, also });
  return officeUser(db, userId, input.officeId);
}

/** Users_ResendInvite: a new link (valid 7 days again) replaces the pending one, whose link stops working. */
export async function resendInvite(db: Db, context: WriteContext, userId: string, officeId: number): Promise<Schemas['OfficeUser']> {
  const office = await officeOf(db, officeId);
  const { user, link } = await linkOf(db, userId, officeId);
  if (!isPending(link)) throw HttpProblem.conflict(`${user.email} already accepted the invitation.`);
  await sendOfficeInvite(db, context, { officeId, office, email: user.email, firstName: user.firstName, role: link.role });
  return officeUser(db, userId, officeId);
}

/** Users_RevokeInvite: the pending invitation's link stops working and the person leaves the office; the account stays. */
export async function revokeInvite(db: Db, userId: string, officeId: number): Promise<void> {
  const { user, link } = await linkOf(db, userId, officeId);
  if (!isPending(link)) throw HttpProblem.conflict(`${user.email} already accepted the invitation: remove them from the office instead.`);
  await db.delete(invites).where(and(eq(invites.officeId, officeId), eq(invites.email, user.email), isNull(invites.usedAt)));
  await db.delete(userOffices).where(and(eq(userOffices.userId, userId), eq(userOffices.officeId, officeId)));
}

/** Users_DeleteUser: removes the person from the office (their account stays); pending invitations go too. */
export async function removeOfficeUser(db: Db, userId: string, officeId: number): Promise<void> {
  const adminsBefore = await activeAdmins(db, officeId);
  const removed = await db
    .delete(userOffices)
    .where(and(eq(userOffices.userId, userId), eq(userOffices.officeId, officeId)))
    .returning({ isPrimary: userOffices.isPrimary });
  if (removed.length === 0) throw new HttpProblem(404, 'The user is not a user of this office.');
  await checkOffice(db, officeId, adminsBefore);
  if (removed[0]!.isPrimary) throw HttpProblem.conflict('The primary user cannot be removed: make another user primary first.');
  const [user] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  if (user) await db.delete(invites).where(and(eq(invites.officeId, officeId), eq(invites.email, user.email), isNull(invites.usedAt)));
}

/** Users_ProcessInvite: the signed-in person accepts an invitation sent to their own e-mail, once. */
export async function processInvite(db: Db, caller: { userId: string; email: string }, token: string): Promise<Schemas['OfficeUser']> {
  const details = await inviteByToken(db, token);
  if (!details) throw new HttpProblem(404, 'The invitation could not be found.');
  if (details.isProcessed) throw HttpProblem.conflict('This invitation was already used.');
  if (details.isExpired) throw HttpProblem.conflict('This invitation has expired. Ask the office for a new one.');
  if (details.invite.email !== normalizeEmail(caller.email)) throw new HttpProblem(403, 'This invitation was sent to another e-mail address.');
  if (!(await useInvite(db, details.invite.id))) throw HttpProblem.conflict('This invitation was already used.');
  const { officeId, role } = details.invite;
  // Accepting is the person's first visit of the office: its 'Last login' starts here, not at their next sign-in.
  const lastLoginAt = new Date();
  await db
    .insert(userOffices)
    .values({ userId: caller.userId, officeId, role, isInvited: true, isInviteProcessed: true, lastLoginAt })
    .onConflictDoUpdate({ target: [userOffices.userId, userOffices.officeId], set: { isInviteProcessed: true, role, lastLoginAt } });
  await recordEvent(db, { type: 'user.joined', officeId, subject: { kind: 'user', id: caller.userId }, data: { role } });
  // The other locations the invitation named, where it is still pending: one revoked meanwhile stays out.
  const joined = details.invite.alsoOfficeIds.length === 0 ? [] : await db
    .update(userOffices)
    .set({ isInviteProcessed: true, lastLoginAt })
    .where(and(eq(userOffices.userId, caller.userId), inArray(userOffices.officeId, details.invite.alsoOfficeIds), eq(userOffices.isInvited, true), eq(userOffices.isInviteProcessed, false)))
    .returning({ officeId: userOffices.officeId, role: userOffices.role });
  for (const link of joined) await recordEvent(db, { type: 'user.joined', officeId: link.officeId, subject: { kind: 'user', id: caller.userId }, data: { role: link.role } });
  return officeUser(db, caller.userId, officeId);
}

/**
 * AdminUsers_UpsertUsers: platform admins (df.admin, dfi.admin) by e-mail or id. A new local account
 * gets an e-mailed link to choose its password. A df.admin cannot demote or disable themselves, so
 * the platform is never left without one by mistake. Disabling an account ends its sign-ins at once.
 */
export async function upsertAdminUser(db: Db, context: WriteContext, input: Schemas['AdminUserUpsert']): Promise<string> {
  const email = normalizeEmail(input.email);
  await lockEmail(db, email);
  const values = {
    firstName: input.firstName,
    lastName: input.lastName,
    userRole: input.userRole,
    role: input.role ?? ('support' as const),
    isDisabled: input.isDisabled ?? false,
    updatedAt: new Date(),
  };
  let existingId = input.userId;
  if (existingId) {
    const [row] = await db.select({ email: users.email }).from(users).where(eq(users.id, existingId));
    if (!row) throw new HttpProblem(404, 'The user could not be found.');
    if (row.email !== email) throw HttpProblem.conflict('The e-mail of an existing user cannot be changed.');
  } else {
    const [row] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
    existingId = row?.id;
  }
  if (existingId === context.actorId && (values.isDisabled || values.userRole !== 'df.admin')) {
    throw HttpProblem.conflict('You cannot remove your own platform admin access.');
  }
  if (existingId) {
    await db.update(users).set(values).where(eq(users.id, existingId));
    if (values.isDisabled) await revokeAccount(db, existingId);
    return existingId;
  }
  const [created] = await db
    .insert(users)
    .values({ ...values, email, provider: providerOf(context.settings) })
    .returning({ id: users.id });
  if (context.settings.identity.kind === 'builtin' && !values.isDisabled) {
    const token = await createLinkToken(db, 'password', { userId: created!.id }, FIRST_PASSWORD_DAYS * 86_400);
    const brand = linkBrand(context);
    const url = passwordLink(context.settings.publicUrl, token, brand.id);
    await sendEmail(db, accountCreatedEmail({ to: email, firstName: input.firstName, url, days: FIRST_PASSWORD_DAYS, brandName: brand.name }));
  }
  return created!.id;
}

/** Users_GetUserInfo: the utm fields are kept from the first visit that had them; the sign-in time is recorded. */
export async function recordUserVisit(db: Db, userId: string, utm: { utmSource?: string | null; utmMedium?: string | null; utmCampaign?: string | null }, officeId: number | null): Promise<void> {
  const now = new Date();
  await db
    .update(users)
    .set({
      lastLoginAt: now,
      utmSource: sql`coalesce(${users.utmSource}, ${utm.utmSource ?? null})`,
      utmMedium: sql`coalesce(${users.utmMedium}, ${utm.utmMedium ?? null})`,
      utmCampaign: sql`coalesce(${users.utmCampaign}, ${utm.utmCampaign ?? null})`,
    })
    .where(eq(users.id, userId));
  if (officeId !== null) {
    await db.update(userOffices).set({ lastLoginAt: now }).where(and(eq(userOffices.userId, userId), eq(userOffices.officeId, officeId)));
  }
}
