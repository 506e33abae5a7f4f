import { heldPermissions, type Permission } from '../../../core/permissions.ts';
import { patientOnlyApplication } from '../../../core/eligibility.ts';
import { stateRules } from '../../descriptors/states.ts';
import { and, asc, count, desc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { components } from '../../../codegen/generated/api.ts';
import type { Db } from '../../db/index.ts';
import { invites, offices, userOffices, users } from '../../db/schema.ts';
import { HttpProblem } from '../../http/problem.ts';
import { paged, totalRows, type Page } from '../paging.ts';
import { escapeLike } from '../search.ts';
import { toUtc } from '../values.ts';

type Schemas = components['schemas'];
type UserRow = typeof users.$inferSelect;
type LinkRow = typeof userOffices.$inferSelect;

/** A link that is not an invitation still waiting to be accepted. */
const acceptedLink = sql`(not ${userOffices.isInvited} or ${userOffices.isInviteProcessed})`;

/** A link that counts: accepted, and not disabled. */
export const activeLink = and(eq(userOffices.isDisabled, false), acceptedLink);

/**
 * When the pending invitation of a link stops working: the latest unused invitation of the person to the
 * office (a new one replaces the old, so there is at most one); null when none waits.
 */
const pendingInviteExpiry = sql<Date | string | null>`(
  select max(${invites.expiresAt}) from ${invites}
  where ${invites.officeId} = ${userOffices.officeId} and ${invites.email} = ${users.email} and ${invites.usedAt} is null)`;

/** The status people read (schemas/enums/office-user-status.json), from the link and its pending invitation. */
function officeUserStatus(link: LinkRow, inviteExpiresAt: Date | null, now: Date): Schemas['OfficeUserStatus'] {
  if (link.isDisabled) return 'Disabled';
  if (!link.isInvited || link.isInviteProcessed) return 'Active';
  return inviteExpiresAt && inviteExpiresAt > now ? 'Invited' : 'InviteExpired';
}

export function toOfficeUser(
  user: Pick<UserRow, 'id' | 'firstName' | 'lastName' | 'email' | 'userRole'>,
  link: LinkRow,
  officeName: string,
  inviteExpiry: Date | string | null,
): Schemas['OfficeUser'] {
  const pending = link.isInvited && !link.isInviteProcessed;
  // A raw subquery answers a string on some drivers and a Date on others.
  const inviteExpiresAt = pending && inviteExpiry !== null ? new Date(inviteExpiry) : null;
  return {
    userId: user.id,
    officeId: link.officeId,
    officeName,
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email,
    title: link.title,
    role: link.role,
    userRole: user.userRole,
    isPrimary: link.isPrimary,
    isInvited: link.isInvited,
    isInviteProcessed: link.isInviteProcessed,
    isDisabled: link.isDisabled,
    status: officeUserStatus(link, inviteExpiresAt, new Date()),
    inviteExpiresAtUtc: toUtc(inviteExpiresAt),
    lastLoginDateTimeUtc: toUtc(link.lastLoginAt),
    permissions: permissionsOf(link),
  };
}

/** What a link to an office lets its user do there (decision 0279). */
function permissionsOf(link: typeof userOffices.$inferSelect): Permission[] {
  return heldPermissions(link.role, link.permissionsGranted, link.permissionsWithdrawn);
}

/** Office links with their user, office name and pending invitation. */
function officeLinks(db: Db, where: SQL | undefined) {
  return db
    .select({ user: users, link: userOffices, officeName: offices.name, inviteExpiry: pendingInviteExpiry })
    .from(userOffices)
    .innerJoin(users, eq(users.id, userOffices.userId))
    .innerJoin(offices, eq(offices.id, userOffices.officeId))
    .where(where);
}

/** One user's link to one office, as the office-user entity; 404 when there is no such link. */
export async function officeUser(db: Db, userId: string, officeId: number): Promise<Schemas['OfficeUser']> {
  const [row] = await officeLinks(db, and(eq(userOffices.userId, userId), eq(userOffices.officeId, officeId)));
  if (!row) throw new HttpProblem(404, 'The user is not a user of this office.');
  return toOfficeUser(row.user, row.link, row.officeName, row.inviteExpiry);
}

/** Users_GetUsers / AdminOffices_GetUsers: everyone linked to an office, invited ones included. */
export async function officeUserList(db: Db, officeId: number): Promise<Schemas['OfficeUser'][]> {
  const [office] = await db.select({ id: offices.id }).from(offices).where(eq(offices.id, officeId));
  if (!office) throw new HttpProblem(404, 'The office could not be found.');
  const rows = await officeLinks(db, eq(userOffices.officeId, officeId)).orderBy(asc(users.lastName), asc(users.firstName), asc(users.email));
  return rows.map(({ user, link, officeName, inviteExpiry }) => toOfficeUser(user, link, officeName, inviteExpiry));
}

/** The office's primary user, if it has one (the office entity's primaryUser). */
export async function primaryOfficeUser(db: Db, officeId: number): Promise<Schemas['OfficeUser'] | null> {
  const [row] = await officeLinks(db, and(eq(userOffices.officeId, officeId), eq(userOffices.isPrimary, true))).orderBy(asc(users.lastName), asc(users.firstName)).limit(1);
  return row ? toOfficeUser(row.user, row.link, row.officeName, row.inviteExpiry) : null;
}

/**
 * Users_GetUserInfo: the session user of spec §3. The current office is the user's primary office,
 * else the one used last, else the first joined. Internal admins need no office: they count as
 * enrolled and approved, so the after-login routing sends them to the admin pages (spec §4).
 */
export async function sessionUser(db: Db, userId: string): Promise<Schemas['SessionUser']> {
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user) throw new HttpProblem(404, 'The user could not be found.');
  // A person whose only offices turned their access off still lands on that office (not on enrollment), where
  // every call answers that their access is disabled (server/http/access.ts).
  const links = await db
    .select({ link: userOffices, office: offices })
    .from(userOffices)
    .innerJoin(offices, eq(offices.id, userOffices.officeId))
    .where(and(eq(userOffices.userId, userId), acceptedLink))
    .orderBy(asc(userOffices.isDisabled), desc(userOffices.isPrimary), sql`${userOffices.lastLoginAt} desc nulls last`, asc(userOffices.createdAt), asc(offices.id));
  const current = links[0];
  const internal = user.userRole !== null;
  return {
    userId: user.id,
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email,
    role: current?.link.role ?? user.role,
    userRole: user.userRole,
    title: current?.link.title ?? user.title,
    timeZone: current?.link.timeZone ?? current?.office.timeZone ?? user.timeZone,
    isMultipleOffices: links.filter(({ link }) => !link.isDisabled).length > 1,
    hasBizApps: false,
    isEnrollmentCompleted: internal || (current?.office.isEnrollmentCompleted ?? false),
    isApproved: internal || (current?.office.isApproved ?? false),
    officeId: current?.office.id ?? null,
    officeName: current?.office.name ?? null,
    enrollmentStatus: current?.office.enrollmentStatus ?? null,
    statusReason: current?.office.statusReason ?? null,
    patientOnlyApplication: patientOnlyApplication(stateRules(), current?.office.state),
    officeLandingCode: current && current.office.isApproved && current.office.isActive ? current.office.code : null,
    accessDisabled: current?.link.isDisabled ?? false,
    permissions: current ? permissionsOf(current.link) : [],
  };
}

/** Every office link of the given users, for the admin user entity. */
async function linksOf(db: Db, userIds: string[]): Promise<Map<string, Schemas['OfficeUser'][]>> {
  const byUser = new Map<string, Schemas['OfficeUser'][]>();
  if (userIds.length === 0) return byUser;
  const rows = await officeLinks(db, inArray(userOffices.userId, userIds)).orderBy(asc(offices.name), asc(offices.id));
  for (const { user, link, officeName, inviteExpiry } of rows) {
    const list = byUser.get(user.id) ?? [];
    list.push(toOfficeUser(user, link, officeName, inviteExpiry));
    byUser.set(user.id, list);
  }
  return byUser;
}

function toUser(user: UserRow, officesOfUser: Schemas['OfficeUser'][]): Schemas['User'] {
  return {
    userId: user.id,
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email,
    role: user.role,
    userRole: user.userRole,
    provider: user.provider,
    providerId: user.providerId,
    isDisabled: user.isDisabled,
    lastLoginDateTimeUtc: toUtc(user.lastLoginAt),
    offices: officesOfUser,
  };
}

export async function adminUser(db: Db, userId: string): Promise<Schemas['User']> {
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user) throw new HttpProblem(404, 'The user could not be found.');
  return toUser(user, (await linksOf(db, [user.id])).get(user.id) ?? []);
}

export async function adminUsers(db: Db, ids: string[]): Promise<Schemas['User'][]> {
  if (ids.length === 0) return [];
  const rows = await db.select().from(users).where(inArray(users.id, ids));
  const links = await linksOf(db, ids);
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.map((id) => toUser(byId.get(id)!, links.get(id) ?? []));
}

const SORTABLE: Record<string, SQL> = {
  firstName: sql`lower(${users.firstName})`,
  lastName: sql`lower(${users.lastName})`,
  name: sql`lower(${users.lastName} || ' ' || ${users.firstName})`,
  email: sql`${users.email}`,
  lastLoginDateTimeUtc: sql`${users.lastLoginAt}`,
  createdAtUtc: sql`${users.createdAt}`,
  updatedAtUtc: sql`${users.updatedAt}`,
};

/** AdminUsers_GetAllUsers: every staff user, paged; search in names and e-mail; officeId and userRoles filter. */
export async function adminUserPage(db: Db, query: Schemas['ListQuery']): Promise<Page<Schemas['User']>> {
  const text = query.search?.trim();
  const pattern = text ? `%${escapeLike(text.toLowerCase())}%` : undefined;
  const where = and(
    pattern ? or(ilike(users.email, pattern), ilike(sql`${users.firstName} || ' ' || ${users.lastName}`, pattern)) : undefined,
    query.officeId === undefined
      ? undefined
      : inArray(users.id, db.select({ id: userOffices.userId }).from(userOffices).where(eq(userOffices.officeId, query.officeId))),
    query.userRoles === undefined ? undefined : inArray(users.userRole, query.userRoles),
  );
  const column = query.sortBy ? SORTABLE[query.sortBy] : undefined;
  const order = column ? [query.sortDesc ? sql`${column} desc nulls last` : sql`${column} asc nulls last`, asc(users.id)] : [sql`lower(${users.lastName})`, sql`lower(${users.firstName})`, asc(users.id)];
  const page = await paged(
    query,
    (limit, offset) => {
      const base = db.select({ user: users, total: totalRows() }).from(users).where(where).orderBy(...order);
      return limit === undefined ? base : base.limit(limit).offset(offset);
    },
    async () => (await db.select({ value: count() }).from(users).where(where))[0]?.value ?? 0,
    ({ user }) => user,
  );
  const links = await linksOf(db, page.results.map((user) => user.id));
  return { ...page, results: page.results.map((user) => toUser(user, links.get(user.id) ?? [])) };
}

/** The signed-in user's offices; pageSize -1 means all of them (the header's Switch Offices list). */
export async function userOfficePage(db: Db, userId: string, pageSize: number, page: number) {
  // An invitation that is not accepted yet grants nothing, so its office is not offered either.
  const where = and(eq(userOffices.userId, userId), activeLink);
  const query = db
    .select({ link: userOffices, office: offices, total: totalRows() })
    .from(userOffices)
    .innerJoin(offices, eq(offices.id, userOffices.officeId))
    .where(where)
    .orderBy(asc(offices.name), asc(offices.id));
  return paged(
    { page, pageSize },
    (limit, offset) => (limit === undefined ? query : query.limit(limit).offset(offset)),
    () => db.$count(userOffices, where),
    ({ link, office }): Schemas['UserOffice'] => ({
      officeId: office.id,
      officeName: office.name,
      city: office.city,
      state: office.state,
      role: link.role,
      title: link.title,
      timeZone: link.timeZone ?? office.timeZone,
      isPrimary: link.isPrimary,
      isEnrollmentCompleted: office.isEnrollmentCompleted,
      isApproved: office.isApproved,
      permissions: heldPermissions(link.role, link.permissionsGranted, link.permissionsWithdrawn),
    }),
  );
}
