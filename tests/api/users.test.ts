import { randomBytes } from 'node:crypto';
import { ACCESS_HEADER, decodeAccess } from '../../core/access-header.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { offices, userOffices, users } from '../../server/db/schema.ts';
import { harness, type Harness } from '../support/harness.ts';
import { DEMO } from './examples.ts';

/** Users, invites and platform admins (spec §7 Users and Admin users), on offices made for this file. */
describe('users and invites', () => {
  let h: Harness;
  const tag = randomBytes(3).toString('hex');
  let officeId: number;
  let otherOfficeId: number;
  const ownerEmail = `owner-${tag}@example.test`;
  const helperEmail = `helper-${tag}@example.test`;
  const outsiderEmail = `outsider-${tag}@example.test`;

  const as = (email: string | undefined, method: 'GET' | 'PUT' | 'POST', url: string, payload?: object) => h.call({ method, url, payload, as: email });
  const body = (response: { body: string }) => JSON.parse(response.body);
  const lastMessageTo = async (to: string) =>
    (await h.database.db.execute<{ subject: string; body: string; links: { url: string }[] }>(sql`select subject, body, links from outbox where recipient = ${to} order by id desc limit 1`)).rows[0];
  const securityEvents = async () => Number((await h.database.db.execute<{ n: number }>(sql`select count(*)::int as n from security_events where kind = 'cross-office'`)).rows[0]!.n);
  const invite = (email: string, role = 'support', office = officeId) =>
    as(ownerEmail, 'PUT', '/api/Users/UpsertUser', { officeId: office, firstName: 'Nia', lastName: 'Newcomer', email, role, title: 'Coordinator' });
  const tokenFrom = async (email: string) => (await lastMessageTo(email))!.links[0]!.url.split('/').pop()!;
  const messagesTo = async (to: string) => Number((await h.database.db.execute<{ n: number }>(sql`select count(*)::int as n from outbox where recipient = ${to}`)).rows[0]!.n);
  const listOf = async (office: number, email = ownerEmail) => body(await as(email, 'GET', `/api/Users/GetUsers/${office}`)) as { email: string; userId: string; isPrimary: boolean; status: string; role: string; title: string | null; inviteExpiresAtUtc: string | null }[];
  const rowOf = async (office: number, email: string, as = ownerEmail) => (await listOf(office, as)).find((u) => u.email === email);
  /** An office of its own for a test that changes who is in it: its admin (the primary user) and the admin's e-mail. */
  const newOffice = async (label: string) => {
    const db = h.database.db;
    const [office] = await db.insert(offices).values({ name: `${label} Dental ${tag}`, enrollmentStatus: 'Approved', isApproved: true, isEnrollmentCompleted: true, timeZone: 'CT' }).returning({ id: offices.id });
    const admin = `${label.toLowerCase()}-admin-${tag}@example.test`;
    const [user] = await db.insert(users).values({ email: admin, firstName: 'Ada', lastName: label, role: 'admin' }).returning({ id: users.id });
    await db.insert(userOffices).values({ userId: user!.id, officeId: office!.id, role: 'admin', isPrimary: true });
    return { officeId: office!.id, admin, adminId: user!.id };
  };
  /** Its admin invites `email` to `office` as `role`. */
  const inviteTo = (office: { officeId: number; admin: string }, email: string, role = 'support') =>
    as(office.admin, 'PUT', '/api/Users/UpsertUser', { officeId: office.officeId, firstName: 'Jo', lastName: 'Joiner', email, role });
  /** Invites `email` to `office` as `role` and accepts the invitation as that person. */
  const join = async (office: { officeId: number; admin: string }, email: string, role = 'support') => {
    const invited = await inviteTo(office, email, role);
    expect(invited.statusCode, invited.body).toBe(200);
    const accepted = await as(email, 'POST', '/api/Users/ProcessInvite', { inviteId: await tokenFrom(email) });
    expect(accepted.statusCode, accepted.body).toBe(200);
    return body(accepted) as { userId: string };
  };
  const update = (actor: string, office: number, user: { userId: string; email: string; role?: string; firstName?: string; lastName?: string }, changes: object) =>
    as(actor, 'PUT', '/api/Users/UpsertUser', { userId: user.userId, officeId: office, firstName: user.firstName ?? 'Jo', lastName: user.lastName ?? 'Joiner', email: user.email, role: user.role ?? 'support', ...changes });

  beforeAll(async () => {
    h = await harness();
    const db = h.database.db;
    const made = await db
      .insert(offices)
      .values([
        { name: `Users Test Dental ${tag}`, city: 'Austin', state: 'TX', enrollmentStatus: 'Approved', isApproved: true, isEnrollmentCompleted: true, timeZone: 'CT' },
        { name: `Other Test Dental ${tag}`, city: 'Dallas', state: 'TX', enrollmentStatus: 'Approved', isApproved: true, isEnrollmentCompleted: true, timeZone: 'CT' },
      ])
      .returning({ id: offices.id });
    officeId = made[0]!.id;
    otherOfficeId = made[1]!.id;
    const people = await db
      .insert(users)
      .values([
        { email: ownerEmail, firstName: 'Owen', lastName: 'Owner', role: 'admin' },
        { email: helperEmail, firstName: 'Hal', lastName: 'Helper', role: 'support' },
        { email: outsiderEmail, firstName: 'Ola', lastName: 'Outsider', role: 'admin' },
      ])
      .returning({ id: users.id });
    await db.insert(userOffices).values([
      { userId: people[0]!.id, officeId, role: 'admin', isPrimary: true },
      { userId: people[1]!.id, officeId, role: 'support' },
      { userId: people[2]!.id, officeId: otherOfficeId, role: 'admin', isPrimary: true },
    ]);
  });

  describe('Users_GetUserInfo', () => {
    it('answers each demo account as the session user of spec §3', async () => {
      const expectations: Record<string, object> = {
        'office.admin@demo.test': { role: 'admin', userRole: null, isMultipleOffices: true, isEnrollmentCompleted: true, isApproved: true },
        'office.support@demo.test': { role: 'support', officeId: DEMO.brightSmiles, isMultipleOffices: false, isApproved: true },
        'tpa@demo.test': { role: 'tpa', officeId: DEMO.lakeside, isApproved: true },
        'pending@demo.test': { role: 'admin', officeId: DEMO.pendingOffice, isApproved: false },
        'newoffice@demo.test': { officeId: null, officeName: null, isEnrollmentCompleted: false, isApproved: false, isMultipleOffices: false },
        'admin@demo.test': { userRole: 'df.admin', role: 'admin', isEnrollmentCompleted: true, isApproved: true },
        'dfi@demo.test': { userRole: 'dfi.admin', isEnrollmentCompleted: true },
      };
      for (const [email, expected] of Object.entries(expectations)) {
        const response = await as(email, 'POST', '/api/Users/GetUserInfo', {});
        expect(response.statusCode, `${email}: ${response.body}`).toBe(200);
        expect(body(response), email).toMatchObject({ email, ...expected });
      }
    });

    it('keeps the first utm values it is given and records the sign-in time', async () => {
      await as(helperEmail, 'POST', '/api/Users/GetUserInfo', { utmSource: 'google', utmMedium: 'cpc', utmCampaign: 'spring' });
      await as(helperEmail, 'POST', '/api/Users/GetUserInfo', { utmSource: 'bing', utmMedium: null, utmCampaign: null });
      const row = (await h.database.db.execute<{ utm_source: string; utm_campaign: string; last_login_at: Date | null }>(sql`select utm_source, utm_campaign, last_login_at from users where email = ${helperEmail}`)).rows[0]!;
      expect(row).toMatchObject({ utm_source: 'google', utm_campaign: 'spring' });
      expect(row.last_login_at).not.toBeNull();
    });

    it("answers only the caller's own record", async () => {
      const own = await as(helperEmail, 'POST', '/api/Users/GetUserInfo', { userId: await h.userId(helperEmail) });
      expect(own.statusCode).toBe(200);
      const other = await as(helperEmail, 'POST', '/api/Users/GetUserInfo', { userId: await h.userId(ownerEmail) });
      expect(other.statusCode).toBe(403);
      expect((await as(undefined, 'POST', '/api/Users/GetUserInfo', {})).statusCode).toBe(401);
    });
  });

  describe('office users', () => {
    it('lists the users of an office to its admin and to df.admin, not to its support user or other offices', async () => {
      const list = await as(ownerEmail, 'GET', `/api/Users/GetUsers/${officeId}`);
      expect(list.statusCode).toBe(200);
      expect(body(list).map((u: { email: string }) => u.email).sort()).toEqual([helperEmail, ownerEmail].sort());
      expect((await as('admin@demo.test', 'GET', `/api/Users/GetUsers/${officeId}`)).statusCode).toBe(200);
      // The limited admin is not an internal role of this call: like any non-member, 404.
      expect((await as('dfi@demo.test', 'GET', `/api/Users/GetUsers/${officeId}`)).statusCode).toBe(404);
      expect((await as(helperEmail, 'GET', `/api/Users/GetUsers/${officeId}`)).statusCode).toBe(403);
      const before = await securityEvents();
      expect((await as(outsiderEmail, 'GET', `/api/Users/GetUsers/${officeId}`)).statusCode).toBe(404);
      expect(await securityEvents()).toBe(before + 1);
    });

    it('invites a new person by an e-mailed, single-use link; the link opens nothing until it is accepted', async () => {
      const email = `newcomer-${tag}@example.test`;
      const invited = await invite(email);
      expect(invited.statusCode, invited.body).toBe(200);
      expect(body(invited)).toMatchObject({ email, officeId, role: 'support', isInvited: true, isInviteProcessed: false, isDisabled: false, status: 'Invited' });
      const expires = Date.parse(body(invited).inviteExpiresAtUtc) - Date.now();
      expect(expires, 'valid 7 days').toBeGreaterThan(7 * 86_400_000 - 60_000);
      expect(expires).toBeLessThanOrEqual(7 * 86_400_000);
      const message = await lastMessageTo(email);
      // PUBLIC_URL is on localhost, a host of the default brand (screens/brands/smile.json).
      expect(message!.subject).toBe(`You're invited to Users Test Dental ${tag} on SmilePay Financing`);
      // The expiry by the office's clock (Central), named, not the server's UTC (issue 37).
      const hour = Number(new Intl.DateTimeFormat('en-US', { timeZone: 'America/Chicago', hour: 'numeric', hourCycle: 'h23' }).format(new Date(body(invited).inviteExpiresAtUtc)));
      expect(message!.body).toMatch(new RegExp(`expires on \\d\\d/\\d\\d/\\d{4} ${String(((hour + 11) % 12) + 1).padStart(2, '0')}:\\d\\d [AP]M C[SD]T\\.`));
      expect(message!.body).not.toContain('GMT');
      const token = await tokenFrom(email);
      expect(message!.links[0]!.url).toBe(`${h.settings.publicUrl}/#/users/invite/${token}`);
      const stored = await h.database.db.execute<{ n: number }>(sql`select count(*)::int as n from invites where token_hash = ${token}`);
      expect(Number(stored.rows[0]!.n), 'the token itself is not stored').toBe(0);

      const info = await as(undefined, 'GET', `/api/Users/GetInviteInfo/${token}`);
      expect(info.statusCode).toBe(200);
      expect(body(info)).toMatchObject({ inviteId: token, officeId, email, role: 'support', isExpired: false, isProcessed: false, firstName: 'Nia', timeZone: 'CT' });

      // Invited, not yet accepted: no access to the office.
      expect((await as(email, 'GET', `/api/Office/GetOfficeInfo/${officeId}`)).statusCode).toBe(404);
      // Someone else cannot accept it.
      expect((await as(helperEmail, 'POST', '/api/Users/ProcessInvite', { inviteId: token })).statusCode).toBe(403);
      const accepted = await as(email, 'POST', '/api/Users/ProcessInvite', { inviteId: token });
      expect(accepted.statusCode, accepted.body).toBe(200);
      expect(body(accepted)).toMatchObject({ isInviteProcessed: true, role: 'support', status: 'Active', inviteExpiresAtUtc: null });
      // Accepting is the first visit of the office: Manage Users shows it as the last login (issue 37).
      expect(Date.now() - Date.parse(body(accepted).lastLoginDateTimeUtc)).toBeLessThan(60_000);
      expect((await as(email, 'GET', `/api/Office/GetOfficeInfo/${officeId}`)).statusCode).toBe(200);
      // Single use.
      expect((await as(email, 'POST', '/api/Users/ProcessInvite', { inviteId: token })).statusCode).toBe(409);
      expect(body(await as(undefined, 'GET', `/api/Users/GetInviteInfo/${token}`))).toMatchObject({ isProcessed: true });
    });

    it('lets an invitation expire, and a new invitation replace the old link', async () => {
      const email = `late-${tag}@example.test`;
      await invite(email);
      const first = await tokenFrom(email);
      const resent = await as(ownerEmail, 'PUT', '/api/Users/UpsertUser', {
        userId: await h.userId(email), officeId, firstName: 'Nia', lastName: 'Newcomer', email, role: 'support', sendInvite: true,
      });
      expect(resent.statusCode, resent.body).toBe(200);
      const second = await tokenFrom(email);
      expect(second).not.toBe(first);
      expect((await as(undefined, 'GET', `/api/Users/GetInviteInfo/${first}`)).statusCode).toBe(404);

      await h.database.db.execute(sql`update invites set expires_at = now() - interval '1 minute' where email = ${email}`);
      expect(body(await as(undefined, 'GET', `/api/Users/GetInviteInfo/${second}`))).toMatchObject({ isExpired: true, isProcessed: false });
      expect(await rowOf(officeId, email)).toMatchObject({ status: 'InviteExpired' });
      const late = await as(email, 'POST', '/api/Users/ProcessInvite', { inviteId: second });
      expect(late.statusCode).toBe(409);
      expect(body(late).detail).toContain('expired');
      expect((await as(email, 'GET', `/api/Office/GetOfficeInfo/${officeId}`)).statusCode).toBe(404);
    });

    it('refuses to invite someone twice to the same office, and to change an existing user e-mail', async () => {
      expect((await invite(helperEmail)).statusCode).toBe(409);
      const changed = await as(ownerEmail, 'PUT', '/api/Users/UpsertUser', {
        userId: await h.userId(helperEmail), officeId, firstName: 'Hal', lastName: 'Helper', email: `renamed-${tag}@example.test`, role: 'support',
      });
      expect(changed.statusCode).toBe(409);
    });

    it('updates role, title and primary flag, and keeps one active admin per office', async () => {
      const helperId = await h.userId(helperEmail);
      const promoted = await as(ownerEmail, 'PUT', '/api/Users/UpsertUser', { userId: helperId, officeId, firstName: 'Hal', lastName: 'Helper', email: helperEmail, role: 'admin', title: 'Lead', isPrimary: true });
      expect(promoted.statusCode, promoted.body).toBe(200);
      expect(body(promoted)).toMatchObject({ role: 'admin', title: 'Lead', isPrimary: true });
      const list = body(await as(ownerEmail, 'GET', `/api/Users/GetUsers/${officeId}`)) as { email: string; isPrimary: boolean }[];
      expect(list.filter((u) => u.isPrimary).map((u) => u.email)).toEqual([helperEmail]);
      // Back to support; the owner stays the admin. Demoting the owner too would leave none.
      expect((await as(ownerEmail, 'PUT', '/api/Users/UpsertUser', { userId: helperId, officeId, firstName: 'Hal', lastName: 'Helper', email: helperEmail, role: 'support' })).statusCode).toBe(200);
      const lastAdmin = await as(ownerEmail, 'PUT', '/api/Users/UpsertUser', { userId: await h.userId(ownerEmail), officeId, firstName: 'Owen', lastName: 'Owner', email: ownerEmail, role: 'support' });
      expect(lastAdmin.statusCode).toBe(409);
      expect(body(lastAdmin).detail).toBe('An office needs at least one active admin.');
      expect((await as(ownerEmail, 'PUT', `/api/Users/DeleteUser/${await h.userId(ownerEmail)}/${officeId}`)).statusCode).toBe(409);
    });

    it('removes a user from the office, which ends their access to it at once', async () => {
      const email = `leaver-${tag}@example.test`;
      await invite(email, 'sales');
      await as(email, 'POST', '/api/Users/ProcessInvite', { inviteId: await tokenFrom(email) });
      expect((await as(email, 'GET', `/api/Office/GetOfficeInfo/${officeId}`)).statusCode).toBe(200);
      const removed = await as(ownerEmail, 'PUT', `/api/Users/DeleteUser/${await h.userId(email)}/${officeId}`);
      expect(removed.statusCode).toBe(200);
      expect(body(removed)).toEqual({ success: true, message: null });
      expect((await as(email, 'GET', `/api/Office/GetOfficeInfo/${officeId}`)).statusCode).toBe(404);
      expect((await as(ownerEmail, 'PUT', `/api/Users/DeleteUser/${await h.userId(email)}/${officeId}`)).statusCode).toBe(404);
      // Another office's admin cannot remove people here.
      expect((await as(outsiderEmail, 'PUT', `/api/Users/DeleteUser/${await h.userId(helperEmail)}/${officeId}`)).statusCode).toBe(404);
    });
  });

  describe('the team of an office', () => {
    it('invites once however often the same invitation arrives (a double-click), and refuses other details for a pending one', async () => {
      const office = await newOffice('Twice');
      const email = `twice-${tag}@example.test`;
      const form = { officeId: office.officeId, firstName: 'Tia', lastName: 'Twice', email, role: 'sales', title: 'Rep' };
      const answers = await Promise.all([1, 2, 3].map(() => as(office.admin, 'PUT', '/api/Users/UpsertUser', form)));
      expect(answers.map((a) => a.statusCode), answers.map((a) => a.body).join('\n')).toEqual([200, 200, 200]);
      expect(new Set(answers.map((a) => body(a).userId)).size).toBe(1);
      expect(await messagesTo(email), 'one e-mail').toBe(1);
      expect((await listOf(office.officeId, office.admin)).filter((u) => u.email === email)).toHaveLength(1);
      const other = await as(office.admin, 'PUT', '/api/Users/UpsertUser', { ...form, role: 'support' });
      expect(other.statusCode).toBe(409);
      expect(body(other).detail).toBe(`${email} is already invited to this office: edit the invitation, or send it again.`);
    });

    it('resends a pending invitation with a new link valid 7 days; the old link stops working', async () => {
      const office = await newOffice('Resend');
      const email = `resend-${tag}@example.test`;
      await inviteTo(office, email);
      const first = await tokenFrom(email);
      const userId = await h.userId(email);
      await h.database.db.execute(sql`update invites set expires_at = now() - interval '1 day' where email = ${email}`);
      expect(await rowOf(office.officeId, email, office.admin)).toMatchObject({ status: 'InviteExpired' });

      const resent = await as(office.admin, 'PUT', `/api/Users/ResendInvite/${userId}/${office.officeId}`);
      expect(resent.statusCode, resent.body).toBe(200);
      expect(body(resent)).toMatchObject({ email, status: 'Invited' });
      expect(Date.parse(body(resent).inviteExpiresAtUtc) - Date.now()).toBeGreaterThan(7 * 86_400_000 - 60_000);
      const second = await tokenFrom(email);
      expect(second).not.toBe(first);
      expect((await as(undefined, 'GET', `/api/Users/GetInviteInfo/${first}`)).statusCode).toBe(404);
      expect((await as(email, 'POST', '/api/Users/ProcessInvite', { inviteId: first })).statusCode).toBe(404);
      expect((await as(email, 'POST', '/api/Users/ProcessInvite', { inviteId: second })).statusCode).toBe(200);

      const again = await as(office.admin, 'PUT', `/api/Users/ResendInvite/${userId}/${office.officeId}`);
      expect(again.statusCode).toBe(409);
      expect(body(again).detail).toBe(`${email} already accepted the invitation.`);
    });

    it('revokes a pending invitation: the link stops working and the person leaves the list', async () => {
      const office = await newOffice('Revoke');
      const email = `revoked-${tag}@example.test`;
      await inviteTo(office, email, 'admin');
      const token = await tokenFrom(email);
      const userId = await h.userId(email);
      const revoked = await as(office.admin, 'PUT', `/api/Users/RevokeInvite/${userId}/${office.officeId}`);
      expect(revoked.statusCode, revoked.body).toBe(200);
      expect(body(revoked)).toEqual({ success: true, message: null });
      expect((await as(undefined, 'GET', `/api/Users/GetInviteInfo/${token}`)).statusCode).toBe(404);
      expect((await as(email, 'POST', '/api/Users/ProcessInvite', { inviteId: token })).statusCode).toBe(404);
      expect(await rowOf(office.officeId, email, office.admin)).toBeUndefined();
      expect((await as(email, 'GET', `/api/Office/GetOfficeInfo/${office.officeId}`)).statusCode).toBe(404);
      expect((await as(office.admin, 'PUT', `/api/Users/RevokeInvite/${userId}/${office.officeId}`)).statusCode).toBe(404);

      const member = `member-${tag}@example.test`;
      const joined = await join(office, member);
      const late = await as(office.admin, 'PUT', `/api/Users/RevokeInvite/${joined.userId}/${office.officeId}`);
      expect(late.statusCode).toBe(409);
      expect(body(late).detail).toBe(`${member} already accepted the invitation: remove them from the office instead.`);
    });

    it("edits a person's names, role and title, but not their e-mail", async () => {
      const office = await newOffice('Edit');
      const email = `edited-${tag}@example.test`;
      const { userId } = await join(office, email);
      const edited = await update(office.admin, office.officeId, { userId, email }, { firstName: 'Eve', lastName: 'Edited', role: 'tpa', title: 'Billing' });
      expect(edited.statusCode, edited.body).toBe(200);
      expect(body(edited)).toMatchObject({ firstName: 'Eve', lastName: 'Edited', role: 'tpa', title: 'Billing', status: 'Active' });
      expect(body(await as(email, 'POST', '/api/Users/GetUserInfo', {}))).toMatchObject({ role: 'tpa', title: 'Billing', officeId: office.officeId });
      // Their next answer, whatever they ask, says their new role: their browser follows it without a new sign-in (issue 37).
      const next = await as(email, 'GET', `/api/Office/GetOfficeInfo/${office.officeId}`);
      expect(decodeAccess(String(next.headers[ACCESS_HEADER]))).toEqual({ userRole: null, roles: { [office.officeId]: 'tpa' }, permissions: { [office.officeId]: [] }, disabled: [] });
      const bad = await update(office.admin, office.officeId, { userId, email }, { firstName: 'Eve1' });
      expect(bad.statusCode).toBe(400);
      expect(body(bad).errors.firstName).toEqual(['Names can only contain alphabets, spaces, hyphens and apostrophes.']);
      expect(await rowOf(office.officeId, email, office.admin)).toMatchObject({ firstName: 'Eve', role: 'tpa' });
    });

    it('moves the primary user: one per office, always an active one, transferred and never dropped', async () => {
      const office = await newOffice('Primary');
      const email = `next-primary-${tag}@example.test`;
      const { userId } = await join(office, email);
      const admin = { userId: office.adminId, email: office.admin, firstName: 'Ada', lastName: 'Primary', role: 'admin' };
      const primaries = async () => (await listOf(office.officeId, office.admin)).filter((u) => u.isPrimary).map((u) => u.email);

      const dropped = await update(office.admin, office.officeId, admin, { isPrimary: false });
      expect(dropped.statusCode).toBe(409);
      expect(body(dropped).detail).toBe('An office keeps its primary user: make another user primary instead.');
      const disabled = await update('admin@demo.test', office.officeId, admin, { isDisabled: true, role: 'admin' });
      expect(body(disabled).detail).toBe('An office needs at least one active admin.');

      const pending = `pending-primary-${tag}@example.test`;
      await inviteTo(office, pending, 'admin');
      const early = await update(office.admin, office.officeId, { userId: await h.userId(pending), email: pending, role: 'admin' }, { isPrimary: true });
      expect(early.statusCode).toBe(409);
      expect(body(early).detail).toBe('Only someone who accepted the invitation can be the primary user.');
      expect(await primaries()).toEqual([office.admin]);

      const moved = await update(office.admin, office.officeId, { userId, email }, { isPrimary: true });
      expect(moved.statusCode, moved.body).toBe(200);
      expect(await primaries()).toEqual([email]);
      const off = await update(office.admin, office.officeId, { userId, email }, { isDisabled: true });
      expect(off.statusCode).toBe(409);
      expect(body(off).detail).toBe('The primary user cannot be disabled: make another user primary first.');
      const removed = await as(office.admin, 'PUT', `/api/Users/DeleteUser/${userId}/${office.officeId}`);
      expect(removed.statusCode).toBe(409);
      expect(body(removed).detail).toBe('The primary user cannot be removed: make another user primary first.');
      expect(await primaries()).toEqual([email]);
    });

    it('disables a person: their next call to the office is refused in words, until they are enabled again', async () => {
      const office = await newOffice('Disable');
      const email = `disabled-${tag}@example.test`;
      const { userId } = await join(office, email);
      const token = await h.staffToken(email);
      const read = () => h.call({ method: 'GET', url: `/api/Office/GetOfficeInfo/${office.officeId}`, headers: { authorization: `Bearer ${token}` } });
      expect((await read()).statusCode).toBe(200);

      const off = await update(office.admin, office.officeId, { userId, email }, { isDisabled: true });
      expect(off.statusCode, off.body).toBe(200);
      expect(body(off)).toMatchObject({ isDisabled: true, status: 'Disabled' });
      const refused = await read();
      expect(refused.statusCode).toBe(403);
      // The refusal itself tells the browser that this office is shut to them.
      expect(decodeAccess(String(refused.headers[ACCESS_HEADER]))).toEqual({ userRole: null, roles: {}, permissions: {}, disabled: [office.officeId] });
      expect(refused.headers['content-type']).toContain('application/problem+json');
      expect(body(refused).detail).toBe('Your access to this office has been disabled. Ask an admin of the office to enable it.');
      // Signing in again lands on that office (not on enrollment), whose Home tells them their access is off (issue 37).
      expect(body(await as(email, 'POST', '/api/Users/GetUserInfo', {}))).toMatchObject({ officeId: office.officeId, isEnrollmentCompleted: true, accessDisabled: true });
      expect((await as(office.admin, 'PUT', `/api/Users/DeleteUser/${office.adminId}/${office.officeId}`)).statusCode, 'still the last active admin').toBe(409);

      const self = await update(office.admin, office.officeId, { userId: office.adminId, email: office.admin, role: 'admin' }, { isDisabled: true });
      expect(body(self).detail).toBe('You cannot disable your own access.');

      const on = await update(office.admin, office.officeId, { userId, email }, { isDisabled: false });
      expect(body(on)).toMatchObject({ isDisabled: false, status: 'Active' });
      expect(body(await as(email, 'POST', '/api/Users/GetUserInfo', {}))).toMatchObject({ accessDisabled: false });
      expect((await read()).statusCode).toBe(200);
    });

    it('keeps an active admin: removing, disabling or demoting the last one is refused and changes nothing', async () => {
      const office = await newOffice('Last');
      const email = `second-admin-${tag}@example.test`;
      const { userId } = await join(office, email, 'admin');
      const admin = { userId: office.adminId, email: office.admin, firstName: 'Ada', lastName: 'Last', role: 'admin' };
      // Two admins: the second may go.
      expect((await as(office.admin, 'PUT', `/api/Users/DeleteUser/${userId}/${office.officeId}`)).statusCode).toBe(200);
      const attempts = [
        await as(office.admin, 'PUT', `/api/Users/DeleteUser/${office.adminId}/${office.officeId}`),
        await update('admin@demo.test', office.officeId, admin, { isDisabled: true }),
        await update(office.admin, office.officeId, admin, { role: 'support' }),
        await as('admin@demo.test', 'PUT', '/api/admin/Offices/UpsertUser', { ...admin, officeId: office.officeId, role: 'sales' }),
      ];
      expect(attempts.map((a) => a.statusCode)).toEqual([409, 409, 409, 409]);
      expect(attempts.map((a) => body(a).detail)).toEqual(Array(4).fill('An office needs at least one active admin.'));
      expect(await rowOf(office.officeId, office.admin, office.admin)).toMatchObject({ role: 'admin', status: 'Active', isPrimary: true });
      // A pending invitation is no admin yet: the office still needs its accepted one.
      await inviteTo(office, `next-admin-${tag}@example.test`, 'admin');
      expect((await update(office.admin, office.officeId, admin, { role: 'support' })).statusCode).toBe(409);
    });

    it('keeps the team to its own admins: another office gets 404, other roles 403, for every team call', async () => {
      const office = await newOffice('Closed');
      const email = `closed-${tag}@example.test`;
      const { userId } = await join(office, email);
      const pending = `closed-pending-${tag}@example.test`;
      await inviteTo(office, pending, 'sales');
      const pendingId = await h.userId(pending);
      const calls = (actor: string) => [
        as(actor, 'GET', `/api/Users/GetUsers/${office.officeId}`),
        as(actor, 'PUT', '/api/Users/UpsertUser', { officeId: office.officeId, firstName: 'Mal', lastName: 'Icious', email: `intruder-${tag}@example.test`, role: 'admin' }),
        update(actor, office.officeId, { userId, email }, { role: 'admin' }),
        as(actor, 'PUT', `/api/Users/DeleteUser/${userId}/${office.officeId}`),
        as(actor, 'PUT', `/api/Users/ResendInvite/${pendingId}/${office.officeId}`),
        as(actor, 'PUT', `/api/Users/RevokeInvite/${pendingId}/${office.officeId}`),
      ];
      const before = await securityEvents();
      const outsider = await Promise.all(calls(outsiderEmail));
      expect(outsider.map((r) => r.statusCode)).toEqual([404, 404, 404, 404, 404, 404]);
      expect(await securityEvents()).toBe(before + 6);
      for (const role of ['support', 'tpa', 'sales']) {
        const member = `closed-${role}-${tag}@example.test`;
        await join(office, member, role);
        const answers = await Promise.all(calls(member));
        expect(answers.map((r) => r.statusCode), role).toEqual([403, 403, 403, 403, 403, 403]);
      }
      expect((await as('dfi@demo.test', 'PUT', `/api/Users/RevokeInvite/${pendingId}/${office.officeId}`)).statusCode).toBe(404);
      expect(await rowOf(office.officeId, email, office.admin)).toMatchObject({ role: 'support', status: 'Active' });
      expect(await rowOf(office.officeId, pending, office.admin)).toMatchObject({ status: 'Invited' });
      expect(await messagesTo(pending)).toBe(1);
    });
  });

  describe('platform admin calls', () => {
    it('pages and searches all users with their offices (df.admin only)', async () => {
      const page = await as('admin@demo.test', 'PUT', '/api/admin/Users/GetAllUsers', { search: tag, sortBy: 'email', page: 1, pageSize: 2 });
      expect(page.statusCode).toBe(200);
      const result = body(page);
      expect(result.pageSize).toBe(2);
      expect(result.rowCount).toBeGreaterThanOrEqual(3);
      expect(result.nextPage).toBe(2);
      expect(result.results.map((u: { email: string }) => u.email)).toEqual([...result.results.map((u: { email: string }) => u.email)].sort());
      const byOffice = body(await as('admin@demo.test', 'PUT', '/api/admin/Users/GetAllUsers', { officeId: otherOfficeId }));
      expect(byOffice.results.map((u: { email: string }) => u.email)).toEqual([outsiderEmail]);
      expect(byOffice.results[0].offices).toEqual([expect.objectContaining({ officeId: otherOfficeId, role: 'admin' })]);
      expect((await as('dfi@demo.test', 'PUT', '/api/admin/Users/GetAllUsers', {})).statusCode).toBe(403);
      expect((await as(ownerEmail, 'PUT', '/api/admin/Users/GetAllUsers', {})).statusCode).toBe(403);
    });

    it('lists only platform admins for Manage Admin Users', async () => {
      const page = body(await as('admin@demo.test', 'PUT', '/api/admin/Users/GetAllUsers', { userRoles: ['df.admin', 'dfi.admin'], pageSize: 100 }));
      const emails = page.results.map((u: { email: string }) => u.email);
      expect(emails).toEqual(expect.arrayContaining(['admin@demo.test', 'dfi@demo.test']));
      expect(emails).not.toContain('office.admin@demo.test');
      expect(page.results.every((u: { userRole: string | null }) => u.userRole === 'df.admin' || u.userRole === 'dfi.admin')).toBe(true);
      const limited = body(await as('admin@demo.test', 'PUT', '/api/admin/Users/GetAllUsers', { userRoles: ['dfi.admin'], search: 'dfi@demo' }));
      expect(limited.results.map((u: { email: string }) => u.email)).toEqual(['dfi@demo.test']);
    });

    it('invites and edits one platform admin at a time (AdminUsers_UpsertUser), acting once on a double-click', async () => {
      const email = `one-admin-${tag}@example.test`;
      const form = { firstName: 'Uma', lastName: 'Upsert', email, userRole: 'dfi.admin' };
      const answers = await Promise.all([1, 2].map(() => as('admin@demo.test', 'PUT', '/api/admin/Users/UpsertUser', form)));
      expect(answers.map((a) => a.statusCode), answers.map((a) => a.body).join('\n')).toEqual([200, 200]);
      expect(body(answers[0]!)).toMatchObject({ email, userRole: 'dfi.admin', isDisabled: false });
      expect(await messagesTo(email), 'one password e-mail').toBe(1);
      const edited = await as('admin@demo.test', 'PUT', '/api/admin/Users/UpsertUser', { ...form, userId: body(answers[0]!).userId, userRole: 'df.admin', role: 'admin', lastName: 'Promoted' });
      expect(body(edited)).toMatchObject({ userRole: 'df.admin', role: 'admin', lastName: 'Promoted' });
      expect((await as('dfi@demo.test', 'PUT', '/api/admin/Users/UpsertUser', form)).statusCode).toBe(403);
      expect((await as(ownerEmail, 'PUT', '/api/admin/Users/UpsertUser', form)).statusCode).toBe(403);
    });

    it('reads one user in detail', async () => {
      const detail = await as('admin@demo.test', 'GET', `/api/admin/Users/GetUserDetails/${await h.userId(ownerEmail)}`);
      expect(detail.statusCode).toBe(200);
      expect(body(detail)).toMatchObject({ email: ownerEmail, provider: 'local', offices: [expect.objectContaining({ officeId })] });
      expect((await as('admin@demo.test', 'GET', '/api/admin/Users/GetUserDetails/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    });

    it('adds platform admins in one transaction, e-mails a password link, and will not let an admin demote themselves', async () => {
      const email = `platform-${tag}@example.test`;
      const saved = await as('admin@demo.test', 'PUT', '/api/admin/Users/UpsertUsers', { users: [{ firstName: 'Pat', lastName: 'Platform', email, userRole: 'dfi.admin' }] });
      expect(saved.statusCode, saved.body).toBe(200);
      expect(body(saved)[0]).toMatchObject({ email, userRole: 'dfi.admin', isDisabled: false, offices: [] });
      const created = await lastMessageTo(email);
      expect(created!.subject).toBe('Your SmilePay Financing administrator account');
      expect(created!.links[0]!.url).toMatch(/\/oidc\/account\/reset\?token=[\w-]+&brand=smile$/);
      expect(body(await as(email, 'PUT', '/api/admin/Offices/GetOffices', { page: 1, pageSize: 1 })).rowCount).toBeGreaterThan(0);

      // All or nothing: the second entry fails, so the first is not saved either.
      const third = `platform-3-${tag}@example.test`;
      const failing = await as('admin@demo.test', 'PUT', '/api/admin/Users/UpsertUsers', {
        users: [{ firstName: 'Tom', lastName: 'Third', email: third, userRole: 'dfi.admin' }, { userId: await h.userId('admin@demo.test'), firstName: 'Dana', lastName: 'Whitfield', email: 'admin@demo.test', userRole: 'dfi.admin' }],
      });
      expect(failing.statusCode).toBe(409);
      expect((await h.database.db.execute(sql`select 1 from users where email = ${third}`)).rows).toHaveLength(0);

      // Disabling an account closes it at once, whatever token it still holds.
      const token = await h.staffToken(email);
      const disabled = await as('admin@demo.test', 'PUT', '/api/admin/Users/UpsertUsers', { users: [{ firstName: 'Pat', lastName: 'Platform', email, userRole: 'dfi.admin', isDisabled: true }] });
      expect(disabled.statusCode).toBe(200);
      expect((await h.call({ method: 'PUT', url: '/api/admin/Offices/GetOffices', payload: {}, headers: { authorization: `Bearer ${token}` } })).statusCode).toBe(401);
    });

    it('manages the users of any office (df.admin), a list in one transaction', async () => {
      const list = await as('admin@demo.test', 'GET', `/api/admin/Offices/GetUsers/${otherOfficeId}`);
      expect(body(list).map((u: { email: string }) => u.email)).toEqual([outsiderEmail]);
      expect((await as('dfi@demo.test', 'GET', `/api/admin/Offices/GetUsers/${otherOfficeId}`)).statusCode).toBe(403);

      const one = await as('admin@demo.test', 'PUT', '/api/admin/Offices/UpsertUser', { officeId: otherOfficeId, firstName: 'Ann', lastName: 'Added', email: `added-${tag}@example.test`, role: 'sales' });
      expect(one.statusCode, one.body).toBe(200);

      const wrongOffice = await as('admin@demo.test', 'PUT', '/api/admin/Offices/UpsertUsers', {
        officeId: otherOfficeId, users: [{ officeId, firstName: 'Wes', lastName: 'Wrong', email: `wrong-${tag}@example.test`, role: 'sales' }],
      });
      expect(wrongOffice.statusCode).toBe(400);
      expect(body(wrongOffice).errors).toHaveProperty('users/0/officeId');

      const many = await as('admin@demo.test', 'PUT', '/api/admin/Offices/UpsertUsers', {
        officeId: otherOfficeId,
        users: [
          { officeId: otherOfficeId, firstName: 'Bea', lastName: 'Batch', email: `batch-1-${tag}@example.test`, role: 'support' },
          { officeId: otherOfficeId, firstName: 'Ann', lastName: 'Added', email: `added-${tag}@example.test`, role: 'support' },
        ],
      });
      expect(many.statusCode).toBe(409);
      expect(body(many).detail).toBe(`added-${tag}@example.test is already invited to this office: edit the invitation, or send it again.`);
      expect((await h.database.db.execute(sql`select 1 from users where email = ${`batch-1-${tag}@example.test`}`)).rows).toHaveLength(0);
    });
  });
});
