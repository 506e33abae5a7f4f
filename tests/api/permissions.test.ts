import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { jobs, users } from '../../server/db/schema.ts';
import { and } from 'drizzle-orm';
import { PLATFORM } from '../support/demo-accounts.ts';
import { logLines } from './journey-fixtures.ts';
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
    expect(listed.find((u) => u.userId === adminId)!.permissions).toHaveLength(8);
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

describe('refunds above the office\'s amount need a second person (maker–checker)', () => {
  type Refund = { refundId: number; appId: number; status: string; approval: string | null; approvedBy: string | null };
  let appId: number;
  const ask = async (as: string, dollars: number) => {
    const response = await h.request(as, 'POST', '/api/App/SubmitRefund', { appId, amount: dollars, reason: 'Treatment plan changed' });
    expect(response.statusCode, response.body).toBe(200);
    return json<Refund>(response);
  };
  const decide = (as: string, refund: Refund, approve: boolean, note?: string) =>
    h.request(as, 'POST', '/api/App/ApproveRefund', { appId: refund.appId, refundId: refund.refundId, approve, ...(note ? { note } : {}) });
  const lenderTold = async (refund: Refund) =>
    (await h.database.db.select({ id: jobs.id }).from(jobs).where(and(eq(jobs.queue, 'lender-refund'), eq(jobs.key, String(refund.refundId))))).length;

  beforeAll(async () => {
    appId = await insertApplication(h.database.db, { officeId: office.officeId, stage: 'Funded', amount: 500_000 });
  });

  it('is set by those who edit the office settings', async () => {
    const set = (as: string, approvalAbove: number | null) => h.request(as, 'PUT', '/api/Office/SetRefundApproval', { officeId: office.officeId, approvalAbove });
    expect((await set(office.support, 500)).statusCode).toBe(403);
    expect(json(await set(office.admin, 500))).toMatchObject({ success: true, message: 'Refunds above $500.00 now need a second person\'s approval.' });
    expect(json<{ refundApprovalAbove: number }>(await h.request(office.admin, 'GET', `/api/Office/GetOfficeInfo/${office.officeId}`)).refundApprovalAbove).toBe(500);
  });

  it('waits above the amount, untold to the lender and unmoved by the platform, until someone else approves it', async () => {
    const small = await ask(office.support, 100);
    expect(small.approval).toBeNull();
    expect(await lenderTold(small)).toBe(1);

    const big = await ask(office.support, 600);
    expect(big).toMatchObject({ status: 'Submitted', approval: 'Awaiting' });
    expect(await lenderTold(big)).toBe(0);
    const moved = await h.request(PLATFORM, 'PUT', '/api/admin/Apps/UpdateRefund', { appId, refundId: big.refundId, status: 'Processing' });
    expect(moved.statusCode).toBe(409);
    // Support does not hold 'approve refunds'; the admin may not approve their own.
    expect((await decide(office.support, big, true)).statusCode).toBe(403);
    const own = await ask(office.admin, 700);
    const self = await decide(office.admin, own, true);
    expect(self.statusCode).toBe(409);
    expect(json(self)).toMatchObject({ detail: 'A refund needs the approval of someone other than who requested it.' });

    const approved = await decide(office.admin, big, true);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(json<Refund>(approved)).toMatchObject({ approval: 'Approved', approvedBy: 'Avery Admin', status: 'Submitted' });
    expect(await lenderTold(big)).toBe(1);
    expect((await decide(office.admin, big, true)).statusCode).toBe(409);
    expect((await logLines(h, appId)).map((l) => l.message)).toEqual(expect.arrayContaining(['Refund awaits a second approval', 'Refund approved by a second person']));
  });

  it('is cancelled in the same commit when the second person rejects it, its amount refundable again', async () => {
    const big = await ask(office.support, 550);
    const rejected = await decide(office.admin, big, false, 'The patient kept the appliance');
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(json<Refund>(rejected)).toMatchObject({ approval: 'Rejected', status: 'Cancelled' });
    expect(await lenderTold(big)).toBe(0);
    // $5,000 funded: $100 + $600 + $700 asked before; the $550 is back.
    const left = await h.request(office.support, 'POST', '/api/App/SubmitRefund', { appId, amount: 3600, reason: 'The rest' });
    expect(left.statusCode, left.body).toBe(200);
  });
});
