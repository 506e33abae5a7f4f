import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { count, eq, sql } from 'drizzle-orm';
import { offices, officeStatusChanges, userOffices, users } from '../../server/db/schema.ts';
import { serverBrand } from '../../server/descriptors/brands.ts';
import { DFI, OFFICE_ADMIN, PLATFORM } from '../support/demo-accounts.ts';
import { harness, type Harness } from '../support/harness.ts';
import { DEMO } from './examples.ts';
import { freshEmail } from './journey-fixtures.ts';
import { submittedOffice, type SubmittedOffice } from './review-fixtures.ts';

/**
 * The platform admin's review of offices (decisions 0150, 0151): the transition table, the reason, the history, the
 * e-mail to the office's admins, what the office then sees, and who may do it. Every test works on offices it enrolls.
 */

let h: Harness;
const call: Harness['request'] = (...args) => h.request(...args);
const db = () => h.database.db;

const UPDATE = '/api/admin/Offices/UpdateOfficeStatus';
const history = (officeId: number) => `/api/admin/Offices/GetOfficeHistory/${officeId}`;

/** The table as decision 0150 writes it, restated here so that a change to the server's shows. */
const ALLOWED: Record<string, string[]> = {
  New: [],
  ESignSent: [],
  ESignCompleted: [],
  Submitted: ['UnderReview', 'Approved', 'Declined', 'OnHold'],
  UnderReview: ['Approved', 'Declined', 'OnHold'],
  OnHold: ['UnderReview', 'Approved', 'Declined', 'Terminated'],
  Approved: ['WatchList', 'OnHold', 'Terminated'],
  WatchList: ['Approved', 'OnHold', 'Terminated'],
  Declined: ['UnderReview'],
  Terminated: [],
};
const TARGETS = ['UnderReview', 'Approved', 'Declined', 'OnHold', 'WatchList', 'Terminated'];

const submitted = () => submittedOffice(h);

const historyRows = async (officeId: number) => (await db().select({ n: count() }).from(officeStatusChanges).where(eq(officeStatusChanges.officeId, officeId)))[0]!.n;
const mailsTo = async (to: string) =>
  (await db().execute<{ subject: string; body: string; links: { url: string }[] }>(sql`select subject, body, links from outbox where recipient = ${to} order by id`)).rows;
const officeRow = async (id: number) => (await db().select().from(offices).where(eq(offices.id, id)))[0]!;
const setStatus = (officeId: number, status: string) =>
  db().update(offices).set({ enrollmentStatus: status as 'New' }).where(eq(offices.id, officeId));

beforeAll(async () => {
  h = await harness();
});

describe('approving an office', () => {
  let office: SubmittedOffice;
  beforeAll(async () => {
    office = await submitted();
  });

  it('records the submission in the history, and the queue offers what may follow it', async () => {
    const response = await call(DFI, 'GET', history(office.officeId));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      officeId: office.officeId, officeName: office.name, enrollmentStatus: 'Submitted', statusReason: null, allowedStatuses: ALLOWED.Submitted,
      entries: [{ fromStatus: 'New', toStatus: 'Submitted', reason: 'The office submitted its enrollment.', changedByEmail: office.admin }],
    });
    const queue = await call(DFI, 'PUT', '/api/admin/Offices/GetOffices', { search: office.name, enrollmentStatuses: ['Submitted', 'UnderReview'] });
    expect(queue.json().results.map((row: { id: number }) => row.id)).toEqual([office.officeId]);
  });

  it('lists the queue by submission, the longest waiting first', async () => {
    const body = { enrollmentStatuses: ['Submitted', 'UnderReview', 'OnHold'], sortBy: 'submittedAtUtc', pageSize: 100 };
    const rows: { id: number; submittedAtUtc: string }[] = (await call(DFI, 'PUT', '/api/admin/Offices/GetOffices', body)).json().results;
    const times = rows.map((row) => Date.parse(row.submittedAtUtc));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(rows.map((row) => row.id)).toEqual(expect.arrayContaining([DEMO.pendingOffice, office.officeId]));
  });

  it('refuses new applications before approval and starts them after it', async () => {
    const sendApp = () => call(office.admin, 'POST', '/api/App/SendApp', { officeId: office.officeId, firstName: 'Lena', lastName: 'Patient', amount: 1200, email: freshEmail() });
    expect((await sendApp()).statusCode).toBe(409);
    const before = await call(office.admin, 'POST', '/api/Users/GetUserInfo', {});
    expect(before.json()).toMatchObject({ officeId: office.officeId, isApproved: false, enrollmentStatus: 'Submitted', statusReason: null });

    const response = await call(PLATFORM, 'PUT', UPDATE, { officeId: office.officeId, status: 'Approved', reason: '  Licenses and owners checked.  ' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ enrollmentStatus: 'Approved', isApproved: true, isReviewed: true, isActive: true, statusReason: 'Licenses and owners checked.' });
    expect(Date.now() - Date.parse(response.json().statusChangedAtUtc)).toBeLessThan(60_000);
    expect((await officeRow(office.officeId)).approvedAt).toBeInstanceOf(Date);

    // The office's next page load (GetUserInfo) says so, and New Application works.
    const after = await call(office.admin, 'POST', '/api/Users/GetUserInfo', {});
    expect(after.json()).toMatchObject({ isApproved: true, enrollmentStatus: 'Approved', statusReason: 'Licenses and owners checked.' });
    expect((await sendApp()).statusCode).toBe(200);
  });

  it("e-mails the office's active admins the new status in words and the reason", async () => {
    const [mail, ...more] = (await mailsTo(office.admin)).filter((m) => m.subject.includes(office.name));
    expect(more).toEqual([]);
    const brand = serverBrand(new URL(h.settings.publicUrl).host).name;
    expect(mail!.subject).toBe(`${office.name} on ${brand}: Approved`);
    expect(mail!.body).toContain(`The status of ${office.name} on ${brand} is now: Approved.`);
    expect(mail!.body).toContain('Reason: Licenses and owners checked.');
    expect(mail!.links[0]!.url).toBe(`${h.settings.publicUrl}/#/home`);
  });

  it('keeps the history newest first, with who decided', async () => {
    const entries = (await call(PLATFORM, 'GET', history(office.officeId))).json().entries;
    expect(entries.map((e: { toStatus: string }) => e.toStatus)).toEqual(['Approved', 'Submitted']);
    expect(entries[0]).toMatchObject({ fromStatus: 'Submitted', reason: 'Licenses and owners checked.', changedBy: 'Dana Whitfield', changedByEmail: PLATFORM });
  });
});

describe('declining an office', () => {
  it('clears approval and shows the office why', async () => {
    const office = await submitted();
    const reason = 'The business license on file has expired.';
    const response = await call(PLATFORM, 'PUT', UPDATE, { officeId: office.officeId, status: 'Declined', reason });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ enrollmentStatus: 'Declined', isApproved: false, isReviewed: true, isActive: false, statusReason: reason });
    const info = await call(office.admin, 'GET', `/api/Office/GetOfficeInfo/${office.officeId}`);
    expect(info.json()).toMatchObject({ enrollmentStatus: 'Declined', statusReason: reason });
    expect(info.json().statusChangedAtUtc).toBe(response.json().statusChangedAtUtc);
    const user = await call(office.admin, 'POST', '/api/Users/GetUserInfo', {});
    expect(user.json()).toMatchObject({ isApproved: false, enrollmentStatus: 'Declined', statusReason: reason });
    const mail = (await mailsTo(office.admin)).at(-1)!;
    expect(mail.subject).toContain(': Declined');
    expect(mail.body).toContain(`Reason: ${reason}`);
  });
});

describe('the transition table', () => {
  it('allows exactly the moves of decision 0150 and refuses the others with 409 in words', async () => {
    const office = await submitted();
    const failures: string[] = [];
    for (const [from, allowed] of Object.entries(ALLOWED)) {
      for (const to of TARGETS.filter((target) => target !== from)) {
        await setStatus(office.officeId, from);
        const rows = await historyRows(office.officeId);
        const response = await call(PLATFORM, 'PUT', UPDATE, { officeId: office.officeId, status: to, reason: `From ${from} to ${to}.` });
        const ok = allowed.includes(to);
        if (response.statusCode !== (ok ? 200 : 409)) failures.push(`${from} → ${to}: ${response.statusCode} ${response.body}`);
        if ((await historyRows(office.officeId)) !== rows + (ok ? 1 : 0)) failures.push(`${from} → ${to}: history rows`);
        if (!ok && response.statusCode === 409) {
          const problem = response.json();
          expect(response.headers['content-type']).toContain('application/problem+json');
          if (!problem.detail.startsWith(`${office.name} is `)) failures.push(`${from} → ${to}: detail '${problem.detail}'`);
          if ((await officeRow(office.officeId)).enrollmentStatus !== from) failures.push(`${from} → ${to}: status changed`);
        }
      }
    }
    expect(failures, failures.join('\n')).toEqual([]);
  });

  it('says in words why a move is refused', async () => {
    const office = await submitted();
    const watch = await call(PLATFORM, 'PUT', UPDATE, { officeId: office.officeId, status: 'WatchList', reason: 'Too early.' });
    expect(watch.json().detail).toBe(`${office.name} is Submitted: it cannot become Watch list. From Submitted it can become Under review, Approved, Declined, On hold.`);
    await setStatus(office.officeId, 'Terminated');
    const terminated = await call(PLATFORM, 'PUT', UPDATE, { officeId: office.officeId, status: 'Approved', reason: 'Again.' });
    expect(terminated.json().detail).toBe(`${office.name} is Terminated, which is final: it cannot become Approved.`);
    await setStatus(office.officeId, 'New');
    const early = await call(PLATFORM, 'PUT', UPDATE, { officeId: office.officeId, status: 'Approved', reason: 'Early.' });
    expect(early.json().detail).toBe(`${office.name} is Enrollment in progress: its enrollment has not been submitted, so it cannot become Approved yet.`);
  });

  it('sets the flags each status implies: watched offices stay approved, terminated ones are inactive', async () => {
    const office = await submitted();
    const move = async (status: string) => (await call(PLATFORM, 'PUT', UPDATE, { officeId: office.officeId, status, reason: `Now ${status}.` })).json();
    expect(await move('UnderReview')).toMatchObject({ isApproved: false, isReviewed: false, isActive: true });
    expect(await move('OnHold')).toMatchObject({ isApproved: false, isReviewed: true, isActive: true });
    expect(await move('Approved')).toMatchObject({ isApproved: true, isReviewed: true, isActive: true });
    const firstApproval = (await officeRow(office.officeId)).approvedAt;
    expect(await move('WatchList')).toMatchObject({ isApproved: true, isReviewed: true, isActive: true });
    expect(await move('Approved')).toMatchObject({ isApproved: true });
    expect((await officeRow(office.officeId)).approvedAt).toEqual(firstApproval);
    expect(await move('Terminated')).toMatchObject({ enrollmentStatus: 'Terminated', isApproved: false, isReviewed: true, isActive: false });
    expect((await call(PLATFORM, 'GET', history(office.officeId))).json().allowedStatuses).toEqual([]);
  });
});

describe('the reason', () => {
  it('is required, not blank and at most 500 characters; nothing is written without it', async () => {
    const office = await submitted();
    const rows = await historyRows(office.officeId);
    const refused = async (body: Record<string, unknown>) => {
      const response = await call(PLATFORM, 'PUT', UPDATE, { officeId: office.officeId, status: 'Approved', ...body });
      expect(response.statusCode, response.body).toBe(400);
      return response.json().errors;
    };
    expect(await refused({})).toEqual({ reason: ['This field is required.'] });
    expect(await refused({ reason: '' })).toEqual({ reason: ['This field is required.'] });
    expect(await refused({ reason: ' \n\t ' })).toEqual({ reason: ['This field is required.'] });
    expect(await refused({ reason: 'x'.repeat(501) })).toEqual({ reason: ['This field exceeds 500 characters.'] });
    expect(await refused({ reason: 'Fine.', status: 'Submitted' })).toEqual({ status: ['This field must be one of the allowed values.'] });
    expect(await historyRows(office.officeId)).toBe(rows);
    expect((await officeRow(office.officeId)).enrollmentStatus).toBe('Submitted');
    expect(await mailsTo(office.admin)).toEqual([]);
  });
});

describe('a double click', () => {
  it('acts once: the same decision again writes no row and sends no e-mail', async () => {
    const office = await submitted();
    const body = { officeId: office.officeId, status: 'OnHold', reason: 'Waiting for the W-9.' };
    const [first, second] = await Promise.all([call(PLATFORM, 'PUT', UPDATE, body), call(PLATFORM, 'PUT', UPDATE, body)]);
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    const third = await call(PLATFORM, 'PUT', UPDATE, { ...body, reason: 'Another reason, same decision.' });
    expect(third.json()).toMatchObject({ enrollmentStatus: 'OnHold', statusReason: 'Waiting for the W-9.' });
    expect(await historyRows(office.officeId)).toBe(2);
    expect(await mailsTo(office.admin)).toHaveLength(1);
  });

  it('with the same Idempotency-Key answers the first answer again', async () => {
    const office = await submitted();
    const headers = { 'idempotency-key': `review-${randomBytes(6).toString('hex')}` };
    const body = { officeId: office.officeId, status: 'UnderReview', reason: 'Starting the review.' };
    const first = await call(PLATFORM, 'PUT', UPDATE, body, headers);
    const again = await call(PLATFORM, 'PUT', UPDATE, body, headers);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect(await historyRows(office.officeId)).toBe(2);
  });
});

describe('who is told', () => {
  it("e-mails every active admin of the office, and nobody else", async () => {
    const office = await submitted();
    const tag = randomBytes(4).toString('hex');
    const people = ['second-admin', 'disabled-admin', 'invited-admin', 'support'].map((who) => `${who}-${tag}@review.test`);
    const made = await db()
      .insert(users)
      .values(people.map((email) => ({ email, firstName: 'Team', lastName: 'Member', role: 'admin' as const })))
      .returning({ id: users.id });
    await db().insert(userOffices).values([
      { userId: made[0]!.id, officeId: office.officeId, role: 'admin' },
      { userId: made[1]!.id, officeId: office.officeId, role: 'admin', isDisabled: true },
      { userId: made[2]!.id, officeId: office.officeId, role: 'admin', isInvited: true },
      { userId: made[3]!.id, officeId: office.officeId, role: 'support' },
    ]);
    await call(PLATFORM, 'PUT', UPDATE, { officeId: office.officeId, status: 'Approved', reason: 'All good.' });
    const told = await Promise.all([office.admin, ...people].map(async (email) => (await mailsTo(email)).length));
    expect(told).toEqual([1, 1, 0, 0, 0]);
  });
});

describe('who may review', () => {
  let office: SubmittedOffice;
  beforeAll(async () => {
    office = await submitted();
  });

  it('lets only the platform admin (df.admin) decide; the DFI admin reads the history', async () => {
    const body = { officeId: office.officeId, status: 'Approved', reason: 'Self-approval.' };
    expect((await call(DFI, 'PUT', UPDATE, body)).statusCode).toBe(403);
    expect((await call(office.admin, 'PUT', UPDATE, body)).statusCode).toBe(403);
    expect((await call(OFFICE_ADMIN, 'PUT', UPDATE, body)).statusCode).toBe(403);
    expect((await call(undefined, 'PUT', UPDATE, body)).statusCode).toBe(401);
    expect((await officeRow(office.officeId)).enrollmentStatus).toBe('Submitted');
    expect((await call(DFI, 'GET', history(office.officeId))).statusCode).toBe(200);
  });

  it("keeps the history from office users, its own office's included", async () => {
    expect((await call(office.admin, 'GET', history(office.officeId))).statusCode).toBe(403);
    expect((await call(OFFICE_ADMIN, 'GET', history(DEMO.brightSmiles))).statusCode).toBe(403);
    expect((await call(OFFICE_ADMIN, 'GET', history(office.officeId))).statusCode).toBe(403);
  });

  it('answers 404 for an office that does not exist', async () => {
    expect((await call(PLATFORM, 'GET', history(2_147_483_000))).statusCode).toBe(404);
    expect((await call(PLATFORM, 'PUT', UPDATE, { officeId: 2_147_483_000, status: 'Approved', reason: 'Ghost.' })).statusCode).toBe(404);
  });
});

describe('the demo offices', () => {
  it('have their decisions and reasons in the history', async () => {
    const cedar = (await call(PLATFORM, 'GET', history(DEMO.pendingOffice))).json();
    expect(cedar).toMatchObject({ officeName: 'Cedar Park Orthodontics', enrollmentStatus: 'Submitted', statusReason: null, allowedStatuses: ALLOWED.Submitted });
    expect(cedar.entries.map((e: { toStatus: string }) => e.toStatus)).toEqual(['Submitted']);
    const bright = (await call(PLATFORM, 'GET', history(DEMO.brightSmiles))).json();
    expect(bright.entries.map((e: { toStatus: string }) => e.toStatus)).toEqual(['Approved', 'Submitted']);
    expect(bright.statusReason).toBeTruthy();
  });
});
