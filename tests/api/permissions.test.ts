import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../server/db/schema.ts';
import { harness, type Harness } from '../support/harness.ts';
import { insertApplication } from './apps-fixtures.ts';
import { journeyOffice, json, type JourneyOffice } from './journey-fixtures.ts';

/**
 * Permissions per action (issue 40, decision 0279): the role is a template; an office admin grants or withdraws single
 * permissions per person, and the server follows at once, on every operation that names the permission.
 */

let h: Harness;
let office: JourneyOffice;
let other: JourneyOffice;
let supportId: string;
let adminId: string;

const idOf = async (email: string) => (await h.database.db.select({ id: users.id }).from(users).where(eq(users.email, email)))[0]!.id;
const set = (permissions: string[], userId = supportId, as = office.admin, officeId = office.officeId) =>
  h.request(as, 'PUT', '/api/Users/SetPermissions', { officeId, userId, permissions });
const refund = async (as: string) => {
  const appId = await insertApplication(h.database.db, { officeId: office.officeId, stage: 'Funded', amount: 100_000 });
  return h.request(as, 'POST', '/api/App/SubmitRefund', { appId, amount: 10, reason: 'Treatment plan changed' });
};

beforeAll(async () => {
  h = await harness();
  office = await journeyOffice(h);
  other = await journeyOffice(h);
  supportId = await idOf(office.support);
  adminId = await idOf(office.admin);
});

describe('permissions per action', () => {
  it("gives each role its template's permissions, listed with the office's users", async () => {
    const listed = json<{ userId: string; permissions: string[] }[]>(await h.request(office.admin, 'GET', `/api/Users/GetUsers/${office.officeId}`));
    expect(listed.find((u) => u.userId === supportId)!.permissions).toEqual(['startApplications', 'finalizeLoans', 'requestRefunds']);
    expect(listed.find((u) => u.userId === adminId)!.permissions).toHaveLength(7);
    expect((await refund(office.support)).statusCode).toBe(200);
  });

  it("refuses a colleague's refund once 'request refunds' is withdrawn, and says so on their next answer", async () => {
    const withdrawn = await set(['startApplications', 'finalizeLoans']);
    expect(withdrawn.statusCode, withdrawn.body).toBe(200);
    expect(json<{ permissions: string[] }>(withdrawn).permissions).toEqual(['startApplications', 'finalizeLoans']);
    expect((await refund(office.support)).statusCode).toBe(403);
    const info = await h.request(office.support, 'POST', '/api/Users/GetUserInfo', {});
    expect(json<{ permissions: string[] }>(info).permissions).toEqual(['startApplications', 'finalizeLoans']);
    expect(JSON.parse(String(info.headers['x-access'])).permissions[String(office.officeId)]).toEqual(['startApplications', 'finalizeLoans']);
  });

  it('admits a permission granted beyond the role, and refuses it again once taken back', async () => {
    const report = () => h.request(office.support, 'PUT', '/api/Reports/GetReport', { officeId: office.officeId });
    expect((await report()).statusCode).toBe(403);
    expect((await set(['startApplications', 'finalizeLoans', 'requestRefunds', 'seeReports'])).statusCode).toBe(200);
    expect((await report()).statusCode).toBe(200);
    expect((await refund(office.support)).statusCode).toBe(200);
    expect((await set(['startApplications', 'finalizeLoans', 'requestRefunds'])).statusCode).toBe(200);
    expect((await report()).statusCode).toBe(403);
  });

  it('is set by those who manage users of the office only; an admin keeps their own right to', async () => {
    expect((await set(['seeReports'], adminId, office.support)).statusCode).toBe(403);
    expect((await set(['seeReports'], supportId, other.admin, office.officeId)).statusCode).toBe(404);
    expect((await set(['seeReports'], await idOf(other.support))).statusCode).toBe(404);
    const self = await set(['seeReports'], adminId);
    expect(self.statusCode).toBe(409);
    expect(json(self)).toMatchObject({ detail: 'You cannot take away your own permission to manage users. Ask another admin of the office.' });
    const bad = await set(['fly']);
    expect(bad.statusCode).toBe(400);
  });
});
