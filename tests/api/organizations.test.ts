import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { officeOwners, offices, userOffices, users } from '../../server/db/schema.ts';
import { PLATFORM } from '../support/demo-accounts.ts';
import { harness, type Harness } from '../support/harness.ts';
import { insertApplication } from './apps-fixtures.ts';
import { journeyOffice, json, outboxTo, type JourneyOffice } from './journey-fixtures.ts';

/**
 * Several locations (issue 40 item 4, decision 0281): an office admin adds a location to the organization, reports on
 * the locations rolled up or one by one, and invites a person to several at once.
 */

let h: Harness;
let first: JourneyOffice;
let stranger: JourneyOffice;
let secondId: number;

type Organization = { id: number | null; name: string | null; locations: { officeId: number; officeName: string; city: string | null; enrollmentStatus: string; permissions: string[] }[] };
type Report = { funnel: { step: string; count: number }[]; choices: { offices: { value: number; label: string }[] } };

const location = (fromOfficeId: number, name: string) => ({
  fromOfficeId,
  name,
  phone: '(512) 555-0111',
  address: { streetAddress: '901 Main St', city: 'Round Rock', state: 'TX', zipCode: '78664' },
  timeZone: 'CT',
});
const report = (as: string, body: object) => h.request(as, 'PUT', '/api/Reports/GetReport', { period: 'thisMonth', ...body });
const started = (answer: { body: string }) => json<Report>(answer).funnel[0]!.count;
const idOf = async (email: string) => (await h.database.db.select({ id: users.id }).from(users).where(eq(users.email, email)))[0]!.id;

beforeAll(async () => {
  h = await harness();
  first = await journeyOffice(h);
  stranger = await journeyOffice(h);
});

describe('adding a location', () => {
  it('forms the organization on the first one, copies the business and makes the caller its admin', async () => {
    const db = h.database.db;
    await db.update(offices).set({ taxId: '87-1234567', businessType: 'LLC' }).where(eq(offices.id, first.officeId));
    await db.insert(officeOwners).values({ officeId: first.officeId, firstName: 'Olga', lastName: 'Owner', email: 'olga.owner@example.test', ownershipPercent: 100, isPrimary: true });
    const added = await h.request(first.admin, 'POST', '/api/Office/AddLocation', location(first.officeId, 'Journey Dental Round Rock'));
    expect(added.statusCode, added.body).toBe(201);
    type Office = { id: number; name: string; legalName: string; taxId: string; enrollmentStatus: string; isApproved: boolean; code: string | null; routingNumberLast4: string | null; owners: { firstName: string }[] };
    const office = json<Office>(added);
    expect(office).toMatchObject({ name: 'Journey Dental Round Rock', legalName: 'Journey Dental PLLC', taxId: '87-1234567', enrollmentStatus: 'New', isApproved: false });
    // The business and its owners come along; the landing code and the bank account are the location's own.
    expect(office.owners.map((o) => o.firstName)).toEqual(['Olga']);
    expect(office).toMatchObject({ code: null, routingNumberLast4: null });
    secondId = office.id;
    const organization = json<Organization>(await h.request(first.admin, 'GET', `/api/Office/GetOrganization/${secondId}`));
    expect(organization.name).toBe('Journey Dental PLLC');
    expect(organization.locations.map((l) => l.officeId).sort()).toEqual([first.officeId, secondId].sort());
    expect(organization.locations.find((l) => l.officeId === secondId)).toMatchObject({ officeName: 'Journey Dental Round Rock', city: 'Round Rock', enrollmentStatus: 'New', permissions: expect.arrayContaining(['manageUsers']) });
    const mine = json<{ results: { officeId: number; role: string }[] }>(await h.request(first.admin, 'GET', '/api/Office/GetUserOffices/-1/1'));
    expect(mine.results).toContainEqual(expect.objectContaining({ officeId: secondId, role: 'admin' }));
  });

  it('joins the same organization on the next one, from either location', async () => {
    const third = await h.request(first.admin, 'POST', '/api/Office/AddLocation', location(secondId, 'Journey Dental Pflugerville'));
    expect(third.statusCode, third.body).toBe(201);
    const ids = await h.database.db.select({ organizationId: offices.organizationId }).from(offices).where(sql`${offices.id} in (${first.officeId}, ${secondId}, ${json<{ id: number }>(third).id})`);
    expect(new Set(ids.map((row) => row.organizationId)).size).toBe(1);
  });

  it('is refused to a member without the settings permission, for an office of another, and with a wrong address', async () => {
    expect((await h.request(first.support, 'POST', '/api/Office/AddLocation', location(first.officeId, 'Nope'))).statusCode).toBe(403);
    expect((await h.request(first.admin, 'POST', '/api/Office/AddLocation', location(stranger.officeId, 'Nope'))).statusCode).toBe(404);
    const wrong = await h.request(first.admin, 'POST', '/api/Office/AddLocation', { ...location(first.officeId, 'Nope'), phone: '512' });
    expect(wrong.statusCode).toBe(400);
    expect(JSON.stringify(json<{ errors: object }>(wrong).errors)).toContain('phone');
    expect(json<Organization>(await h.request(stranger.admin, 'GET', `/api/Office/GetOrganization/${stranger.officeId}`))).toMatchObject({ id: null, name: null });
  });
});

describe('reports rolled up or per location', () => {
  beforeAll(async () => {
    for (const officeId of [first.officeId, first.officeId, secondId, secondId, secondId]) await insertApplication(h.database.db, { officeId, stage: 'NotApplicable' });
  });

  it('counts every location the admin reports on, and each alone, the parts adding up to the whole', async () => {
    const whole = await report(first.admin, { officeId: first.officeId, allLocations: true });
    expect(whole.statusCode, whole.body).toBe(200);
    const one = started(await report(first.admin, { officeId: first.officeId }));
    const other = started(await report(first.admin, { officeId: secondId }));
    expect([one, other]).toEqual([2, 3]);
    expect(started(whole)).toBe(one + other);
    expect(json<Report>(whole).choices.offices.map((c) => c.value)).toEqual(expect.arrayContaining([first.officeId, secondId]));
    const list = json<{ rowCount: number; results: { officeName: string }[] }>(
      await h.request(first.admin, 'PUT', '/api/App/GetOfficeApps', { officeId: first.officeId, allLocations: true, reached: 'started', pageSize: 100 }),
    );
    expect(list.rowCount).toBe(started(whole));
    expect(new Set(list.results.map((row) => row.officeName)).size).toBe(2);
  });

  it('leaves out a location where the person does not see reports, and offers no choice of one', async () => {
    const colleague = `colleague-${first.tag}@example.test`;
    const [user] = await h.database.db.insert(users).values({ email: colleague, firstName: 'Cole', lastName: 'League', role: 'admin' }).returning({ id: users.id });
    await h.database.db.insert(userOffices).values({ userId: user!.id, officeId: first.officeId, role: 'admin' });
    const rolled = await report(colleague, { officeId: first.officeId, allLocations: true });
    expect(started(rolled)).toBe(2);
    expect(json<Report>(rolled).choices.offices).toEqual([]);
    expect((await report(colleague, { officeId: secondId })).statusCode).toBe(404);
  });
});

describe('inviting to several locations at once', () => {
  const invite = (email: string, alsoOfficeIds: number[], officeId = first.officeId) =>
    h.request(first.admin, 'PUT', '/api/Users/UpsertUser', { officeId, firstName: 'Nia', lastName: 'Newcomer', email, role: 'support', title: 'Coordinator', alsoOfficeIds });

  it('sends one invitation that names the locations and joins them all', async () => {
    const email = `nia-${first.tag}@example.test`;
    const invited = await invite(email, [secondId]);
    expect(invited.statusCode, invited.body).toBe(200);
    const sent = await outboxTo(h, email);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.body).toContain(' and Journey Dental Round Rock');
    const token = sent[0]!.links[0]!.url.split('/').pop()!;
    const info = json<{ officeName: string }>(await h.request(undefined, 'GET', `/api/Users/GetInviteInfo/${token}`));
    expect(info.officeName).toMatch(/^Journey Dental \w+ and Journey Dental Round Rock$/);
    expect((await h.request(email, 'POST', '/api/Users/ProcessInvite', { inviteId: token })).statusCode).toBe(200);
    const links = await h.database.db.select().from(userOffices).where(eq(userOffices.userId, await idOf(email)));
    expect(links.map((l) => [l.officeId, l.role, l.title, l.isInviteProcessed]).sort()).toEqual(
      [[first.officeId, 'support', 'Coordinator', true], [secondId, 'support', 'Coordinator', true]].sort(),
    );
  });

  it('refuses a location of another organization, and one the person already belongs to, naming it', async () => {
    expect((await invite(`out-${first.tag}@example.test`, [stranger.officeId])).statusCode).toBe(403);
    const once = `once-${first.tag}@example.test`;
    expect((await h.request(first.admin, 'PUT', '/api/Users/UpsertUser', { officeId: secondId, firstName: 'Ona', lastName: 'Once', email: once, role: 'support' })).statusCode).toBe(200);
    const twice = await invite(once, [secondId]);
    expect(twice.statusCode).toBe(409);
    expect(json<{ detail: string }>(twice).detail).toBe(`${once} is already invited to Journey Dental Round Rock: leave it out of this invitation.`);
    expect(await outboxTo(h, once)).toHaveLength(1);
  });
});

describe('a platform admin groups offices that enrolled apart', () => {
  type Office = { id: number; organization: { id: number; name: string; locationCount: number } | null };
  const group = (officeId: number, withOfficeId: number | null, as = PLATFORM) => h.request(as, 'PUT', '/api/admin/Offices/SetOrganization', { officeId, withOfficeId });

  it('forms an organization around the other office, moves an office between organizations, and removes one left empty', async () => {
    const [a, b] = [await journeyOffice(h), await journeyOffice(h)];
    const grouped = await group(a.officeId, b.officeId);
    expect(grouped.statusCode, grouped.body).toBe(200);
    const organization = json<Office>(grouped).organization!;
    expect(organization).toMatchObject({ name: 'Journey Dental PLLC', locationCount: 2 });
    const read = json<Office>(await h.request(b.admin, 'GET', `/api/Office/GetOfficeInfo/${b.officeId}`));
    expect(read.organization).toEqual(organization);

    const moved = json<Office>(await group(a.officeId, first.officeId));
    expect(moved.organization!.id).not.toBe(organization.id);
    expect(json<Office>(await h.request(b.admin, 'GET', `/api/Office/GetOfficeInfo/${b.officeId}`)).organization).toMatchObject({ id: organization.id, locationCount: 1 });
    expect(json<Office>(await group(b.officeId, null)).organization).toBeNull();
    const left = await h.database.db.execute<{ n: number }>(sql`select count(*)::int as n from organizations where id = ${organization.id}`);
    expect(left.rows[0]!.n).toBe(0);
    // Grouping gave nobody access: b's admin still reports on b alone, and a is not theirs.
    expect((await h.request(b.admin, 'GET', `/api/Office/GetOfficeInfo/${a.officeId}`)).statusCode).toBe(404);
  });

  it('says at the field what is wrong with the other office, and is refused to an office admin', async () => {
    const self = await group(stranger.officeId, stranger.officeId);
    expect(self.statusCode).toBe(400);
    expect(json<{ errors: Record<string, string[]> }>(self).errors).toEqual({ withOfficeId: ['Choose another office than this one.'] });
    const unknown = await group(stranger.officeId, 2_000_000_000);
    expect(json<{ errors: Record<string, string[]> }>(unknown).errors).toEqual({ withOfficeId: ['No office has this id.'] });
    expect((await group(stranger.officeId, first.officeId, stranger.admin)).statusCode).toBe(403);
  });
});
