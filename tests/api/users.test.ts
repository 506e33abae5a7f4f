import { randomBytes } from 'node:crypto';
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
      expect(body(invited)).toMatchObject({ email, officeId, role: 'support', isInvited: true, isInviteProcessed: false, isDisabled: false });
      const message = await lastMessageTo(email);
      // PUBLIC_URL is on localhost, a host of the default brand (screens/brands/smile.json).
      expect(message!.subject).toBe(`You're invited to Users Test Dental ${tag} on SmilePay Financing`);
      const token = await tokenFrom(email);
      expect(message!.links[0]!.url).toBe(`${h.settings.publicUrl}/#/users/invite/${token}`);
      const stored = await h.database.db.execute<{ n: number }>(sql`select count(*)::int as n from invites where token_hash = ${token}`);
      expect(Number(stored.rows[0]!.n), 'the token itself is not stored').toBe(0);

      const info = await as(undefined, 'GET', `/api/Users/GetInviteInfo/${token}`);
      expect(info.statusCode).toBe(200);
      expect(body(info)).toMatchObject({ inviteId: token, officeId, email, role: 'support', isExpired: false, isProcessed: false, firstName: 'Nia' });

      // Invited, not yet accepted: no access to the office.
      expect((await as(email, 'GET', `/api/Office/GetOfficeInfo/${officeId}`)).statusCode).toBe(404);
      // Someone else cannot accept it.
      expect((await as(helperEmail, 'POST', '/api/Users/ProcessInvite', { inviteId: token })).statusCode).toBe(403);
      const accepted = await as(email, 'POST', '/api/Users/ProcessInvite', { inviteId: token });
      expect(accepted.statusCode, accepted.body).toBe(200);
      expect(body(accepted)).toMatchObject({ isInviteProcessed: true, role: 'support' });
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
          { officeId: otherOfficeId, firstName: 'Ann', lastName: 'Added', email: `added-${tag}@example.test`, role: 'sales' },
        ],
      });
      expect(many.statusCode).toBe(409);
      expect((await h.database.db.execute(sql`select 1 from users where email = ${`batch-1-${tag}@example.test`}`)).rows).toHaveLength(0);
    });
  });
});
