import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../codegen/generated/api.ts';
import { addBusinessDays } from '../../core/business-days.ts';
import { applications, jobs, offices } from '../../server/db/schema.ts';
import { DAILY_FUNDING_QUEUE, dailyFundingQueues, enqueueDailyFundingReport } from '../../server/domain/funding/daily-report.ts';
import { bankDay } from '../../server/domain/applications/funding-steps.ts';
import { toUsDate } from '../../server/domain/values.ts';
import { PLATFORM } from '../support/demo-accounts.ts';
import { harness, type Harness } from '../support/harness.ts';
import { insertApplication } from './apps-fixtures.ts';
import { journeyOffice, json, logLines, outboxTo, signedCallback, type JourneyOffice } from './journey-fixtures.ts';

/**
 * The funding tracker (issue 40, decision 0278): a loan followed from the office's finalize through the lender's payment
 * and the platform's deposit to the office's reconciliation, each step with its day and its expected deposit counted in
 * business days; the summary equals the sum of the rows behind it; the daily report e-mails the office's admins.
 */

type Row = components['schemas']['FundingTrackerRow'];
type Summary = components['schemas']['FundingSummary'];

let h: Harness;
let office: JourneyOffice;
let other: JourneyOffice;
const db = () => h.database.db;

const tracker = (as: string, body: object) => h.request(as, 'PUT', '/api/Funding/GetTracker', body);
const rows = async (body: object = {}, as = office.admin) => {
  const response = await tracker(as, { officeId: office.officeId, pageSize: 100, ...body });
  expect(response.statusCode, response.body).toBe(200);
  return json<{ results: Row[]; rowCount: number }>(response).results;
};
const rowOf = async (appId: number) => (await rows({ search: String(appId) })).find((row) => row.id === appId)!;
const summary = async (as = office.admin, officeId: number | 'every' = office.officeId) => {
  const response = await h.request(as, 'PUT', '/api/Funding/GetSummary', officeId === 'every' ? {} : { officeId });
  expect(response.statusCode, response.body).toBe(200);
  return json<Summary>(response);
};
const reconcile = (appIds: number[], reconciled = true, as = office.admin, officeId = office.officeId) =>
  h.request(as, 'POST', '/api/Funding/Reconcile', { officeId, appIds, reconciled });
const today = () => bankDay(new Date());

beforeAll(async () => {
  h = await harness();
  office = await journeyOffice(h, ['ally', 'gsky']);
  other = await journeyOffice(h);
});

describe('a loan followed from finalized to reconciled', () => {
  let appId: number;

  it('is requested when the office finalizes, its deposit expected in the lender\'s days to fund and one more', async () => {
    appId = await insertApplication(db(), { officeId: office.officeId, stage: 'ReadyToFinalize', approvedAmount: 500_000, amount: 450_000, lenderCode: 'ally', discountRate: 4 });
    const finalized = await h.request(office.admin, 'PUT', '/api/App/FinalizeApp', { appId, loanAmount: 4000 });
    expect(finalized.statusCode, finalized.body).toBe(200);
    // ally.json: fundingDays 2; the platform pays the office the business day after.
    expect(await rowOf(appId)).toMatchObject({
      step: 'Requested', requestedDate: toUsDate(today()), initiatedDate: null, expectedDepositDate: toUsDate(addBusinessDays(today(), 3)),
      depositedDate: null, reconciledDate: null, late: false, grossAmount: 4000, discountAmount: 160, netAmount: 3840, refundedAmount: 0,
    });
  });

  it("is on its way when the lender says it paid, the deposit then expected the next business day", async () => {
    const told = await h.call(
      signedCallback(h.settings, {
        lenderCode: 'ally', appId, lenderAppId: `ALLY-A${appId}`, eventType: 'Funding', contractStatus: 'Funded', occurredAtUtc: new Date().toISOString(),
        data: { fundingId: 'F-T1', amountCents: 400_000, orderKey: `fund-application-${appId}` },
      }),
    );
    expect(told.statusCode, told.body).toBe(200);
    expect(await rowOf(appId)).toMatchObject({ step: 'Initiated', initiatedDate: toUsDate(today()), expectedDepositDate: toUsDate(addBusinessDays(today(), 1)) });
  });

  it('is deposited on the day the platform pays the verified account, the day the funded list shows', async () => {
    await db().update(offices).set({ achVerifyStatus: 'Verified', achVerifiedAt: new Date(), bankAccountLast4: '6789' }).where(eq(offices.id, office.officeId));
    const marked = await h.request(PLATFORM, 'POST', '/api/admin/Apps/MarkAppsFunded', { appIds: [appId] });
    expect(marked.statusCode, marked.body).toBe(200);
    const funded = json<{ results: { id: number; fundedDate: string }[] }>(await h.request(office.admin, 'PUT', '/api/App/GetOfficeFundedApps', { officeId: office.officeId, search: String(appId) }));
    const row = await rowOf(appId);
    expect(row).toMatchObject({ step: 'Deposited', depositedDate: funded.results[0]!.fundedDate, late: false });
    // The expected day stays, to be set against the actual one.
    expect(row.expectedDepositDate).toBe(toUsDate(addBusinessDays(today(), 1)));
  });

  it('is reconciled by the office admin only, once, on the loan\'s log, and can be taken back', async () => {
    const waiting = await insertApplication(db(), { officeId: office.officeId, stage: 'SubmittedForFunding', lenderCode: 'gsky' });
    expect((await reconcile([appId], true, office.support)).statusCode).toBe(403);
    expect((await reconcile([appId], true, other.admin, other.officeId)).statusCode).toBe(404);
    const notYet = await reconcile([appId, waiting]);
    expect(notYet.statusCode).toBe(409);
    expect(json(notYet)).toMatchObject({ detail: `Only deposited loans can be reconciled: ${waiting} has not been deposited yet.` });
    expect((await rowOf(appId)).step).toBe('Deposited');

    expect(json(await reconcile([appId]))).toMatchObject({ success: true, message: '1 deposit reconciled.' });
    expect(json(await reconcile([appId]))).toMatchObject({ message: 'Already reconciled.' });
    expect(await rowOf(appId)).toMatchObject({ step: 'Reconciled', reconciledDate: toUsDate(today()) });
    const [stored] = await db().select({ by: applications.reconciledBy }).from(applications).where(eq(applications.id, appId));
    expect(stored!.by).not.toBeNull();
    expect((await logLines(h, appId)).map((l) => l.message)).toContain('Deposit reconciled with the bank statement');

    expect(json(await reconcile([appId], false))).toMatchObject({ message: '1 deposit no longer reconciled.' });
    expect(await rowOf(appId)).toMatchObject({ step: 'Deposited', reconciledDate: null });
    expect((await logLines(h, appId)).map((l) => l.message)).toContain('Reconciliation taken back');
  });
});

describe('the summary and the list', () => {
  it('sums each step and each lender exactly as the rows behind them, beside the bank account', async () => {
    await insertApplication(db(), { officeId: office.officeId, stage: 'Funded', amount: 250_000, lenderCode: 'gsky', refundedAmount: 10_000 });
    const late = await insertApplication(db(), { officeId: office.officeId, stage: 'SubmittedForFunding', amount: 120_000, lenderCode: 'gsky' });
    await db().update(applications).set({ expectedDepositOn: '2020-01-02' }).where(eq(applications.id, late));
    await insertApplication(db(), { officeId: office.officeId, stage: 'Cancelled', lenderCode: 'gsky' });

    const all = await rows();
    const found = await summary();
    for (const total of found.steps) {
      const behind = (await rows({ fundingStep: total.step })).filter((row) => row.step === total.step);
      expect(behind.length, total.step).toBe(total.count);
      expect(total.count, total.step).toBe(all.filter((row) => row.step === total.step).length);
      const sum = (pick: (row: Row) => number | null) => Math.round(behind.reduce((s, row) => s + (pick(row) ?? 0) * 100, 0)) / 100;
      expect(total, total.step).toMatchObject({ grossAmount: sum((r) => r.grossAmount), discountAmount: sum((r) => r.discountAmount), netAmount: sum((r) => r.netAmount), refundedAmount: sum((r) => r.refundedAmount) });
      expect(total.late, total.step).toBe(behind.filter((row) => row.late).length);
    }
    expect(found.steps.map((s) => s.step)).toEqual(['Requested', 'Initiated', 'Deposited', 'Reconciled']);
    expect(found.steps.find((s) => s.step === 'Requested')!.late).toBe(1);
    expect(all.some((row) => row.id === late && row.late)).toBe(true);
    const gsky = found.lenders.find((l) => l.lenderName === 'GSKY')!;
    expect(gsky).toMatchObject({ requested: 2, deposited: 1 });
    expect(found.bank).toMatchObject({ status: 'Verified', accountLast4: '6789', verifiedDate: toUsDate(today()) });
    // The tracker follows the office signed into: the choice of location is a platform admin's.
    expect(found.choices.offices).toEqual([]);
  });

  it('filters by step, lender and patient, and downloads the same rows as CSV in the page\'s words', async () => {
    const lender = await db().execute<{ id: number }>(sql`select id from lenders where code = 'gsky'`);
    const gsky = await rows({ lenderId: Number(lender.rows[0]!.id) });
    expect(gsky.length).toBeGreaterThan(0);
    expect(gsky.every((row) => row.lenderName === 'GSKY')).toBe(true);
    const csv = await h.request(office.admin, 'PUT', '/api/Funding/GetTrackerCSV/fundingCSV', { officeId: office.officeId, fundingStep: 'Deposited' });
    expect(csv.statusCode).toBe(200);
    const lines = csv.body.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toBe('Application ID,Office,First Name,Last Name,Lender,Contract,Step,Requested,Lender paid,Expected deposit,Deposited,Reconciled,Late,Gross,Discount,Net,Refunds taken back');
    expect(lines.length - 1).toBe((await rows({ fundingStep: 'Deposited' })).length);
    expect(lines.slice(1).every((line) => line.includes(',Deposited,'))).toBe(true);
  });

  it('answers an office admin for their office only, support never, a platform admin across offices', async () => {
    expect((await tracker(office.support, { officeId: office.officeId })).statusCode).toBe(403);
    expect((await tracker(other.admin, { officeId: office.officeId })).statusCode).toBe(404);
    expect((await h.request(office.support, 'PUT', '/api/Funding/GetSummary', { officeId: office.officeId })).statusCode).toBe(403);
    const across = json<{ results: Row[] }>(await tracker(PLATFORM, { pageSize: 100, search: 'Applicant' }));
    expect(across.results.length).toBeGreaterThan(0);
    const everywhere = await summary(PLATFORM, 'every');
    expect(everywhere.bank).toBeNull();
    expect(everywhere.steps.reduce((n, s) => n + s.count, 0)).toBeGreaterThanOrEqual((await summary()).steps.reduce((n, s) => n + s.count, 0));
  });
});

describe('the daily funding report', () => {
  // Monday 30 November 2026: 7:30 and 9:00 a.m. Eastern; Saturday 28 November, 9:00.
  const at = (iso: string) => new Date(iso);

  it('is enqueued once on a business morning from 8 a.m. Eastern, never at the weekend', async () => {
    const count = async () => (await db().select({ id: jobs.id }).from(jobs).where(eq(jobs.queue, DAILY_FUNDING_QUEUE))).length;
    const before = await count();
    await enqueueDailyFundingReport(db(), at('2026-11-28T14:00:00Z'));
    await enqueueDailyFundingReport(db(), at('2026-11-30T12:30:00Z'));
    expect(await count()).toBe(before);
    await enqueueDailyFundingReport(db(), at('2026-11-30T14:00:00Z'));
    await enqueueDailyFundingReport(db(), at('2026-11-30T15:00:00Z'));
    expect(await count()).toBe(before + 1);
  });

  it("e-mails each admin of an office with news where its money is, with the tracker's link", async () => {
    const work = dailyFundingQueues(db(), h.settings)[DAILY_FUNDING_QUEUE]!;
    const day = today();
    const fanned = await work.run({ id: 0, queue: DAILY_FUNDING_QUEUE, key: day, payload: { day }, attempts: 1, maxAttempts: 10 });
    expect(fanned).toMatchObject({ done: { day } });
    const officeJob = await db().select().from(jobs).where(sql`${jobs.queue} = ${DAILY_FUNDING_QUEUE} and ${jobs.key} = ${`${day}:${office.officeId}`}`);
    expect(officeJob).toHaveLength(1);
    const sent = await work.run({ id: 0, queue: DAILY_FUNDING_QUEUE, key: `${day}:${office.officeId}`, payload: { day, officeId: office.officeId }, attempts: 1, maxAttempts: 10 });
    expect(sent).toEqual({ done: { day, officeId: office.officeId, emails: 1 } });
    const mail = (await outboxTo(h, office.admin)).filter((m) => m.subject?.startsWith('Daily funding report'));
    expect(mail).toHaveLength(1);
    expect(mail[0]!.subject).toBe(`Daily funding report for Journey Dental ${office.tag}, ${toUsDate(day)}`);
    expect(mail[0]!.body).toContain('Requested from lenders: 2 loans');
    expect(mail[0]!.body).toContain('Late: 1 loan expected before today has not been deposited yet.');
    expect(mail[0]!.body).toContain('Deposits go to your verified bank account ending 6789.');
    expect(mail[0]!.links).toEqual([{ label: 'Open the funding tracker', url: `${h.settings.publicUrl}/#/funding` }]);
    expect(await outboxTo(h, office.support)).toEqual([]);
  });
});
