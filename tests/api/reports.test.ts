import { and, eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../codegen/generated/api.ts';
import { applicationLenders, applications, events, lenders, offers, refunds, users } from '../../server/db/schema.ts';
import { harness, type Harness } from '../support/harness.ts';
import { PLATFORM } from '../support/demo-accounts.ts';
import { journeyOffice, json, type JourneyOffice } from './journey-fixtures.ts';

/**
 * Reports (issue 40, decision 0277): the funnel, approvals by lender and by place in the office's lender order, and the
 * financed volume, over applications made for the test in every state; each figure equals the sum of the applications
 * behind it, as the office's own lists show them.
 */

type Report = components['schemas']['Report'];
type Answer = 'Approved' | 'Declined';
type Stage = (typeof applications.$inferInsert)['stage'];

let h: Harness;
let office: JourneyOffice;
let other: JourneyOffice;
let lenderIds: Record<string, number>;
let adminId: string;
let supportId: string;

interface Facts {
  createdBy: string | null;
  inOffice?: boolean;
  opened?: boolean;
  answers?: Record<string, Answer>;
  chosen?: string;
  stage?: Stage;
  /** Funded amount, cents; the chosen offer's discount is 5 %. */
  funded?: number;
}

/** An application in the state the facts say, with its lenders' answers, its chosen offer and its link's opening. */
async function application(facts: Facts): Promise<number> {
  const db = h.database.db;
  const answers = Object.entries(facts.answers ?? {});
  const [row] = await db
    .insert(applications)
    .values({
      officeId: office.officeId, createdBy: facts.createdBy, firstName: 'Report', lastName: 'Patient', amount: 400_000,
      inOfficeApply: facts.inOffice ?? false, stage: facts.stage ?? 'NotApplicable',
      decisionStatus: answers.length === 0 ? null : answers.some(([, a]) => a === 'Approved') ? 'Approved' : 'Declined',
      lenderId: facts.chosen ? lenderIds[facts.chosen] : null, lenderCode: facts.chosen ?? null, lenderName: facts.chosen ?? null,
      fundedAmount: facts.funded ?? null, fundedAt: facts.funded ? new Date() : null, fundingStatus: facts.funded ? 'Completed' : null,
    })
    .returning({ id: applications.id });
  const appId = row!.id;
  for (const [code, status] of answers) {
    await db.insert(applicationLenders).values({ appId, lenderId: lenderIds[code]!, status });
    if (status === 'Approved') {
      await db.insert(offers).values({
        appId, lenderId: lenderIds[code]!, productCode: `${code}-36`, term: 36, apr: code === 'ally' ? 9.99 : 19.99, amount: 400_000, maxLine: code === 'ally' ? 500_000 : 300_000,
        discountRate: 5, isSelected: facts.chosen === code,
      });
    }
  }
  if (facts.opened) await db.insert(events).values({ type: 'application.link_opened', officeId: office.officeId, appId, subject: { kind: 'application', id: String(appId) } });
  return appId;
}

const report = (as: string, body: object) => h.request(as, 'PUT', '/api/Reports/GetReport', body);
const counts = (r: Report) => r.funnel.map((row) => row.count);
const ALL_STAGES = ['NotApplicable', 'OfferSelected', 'SigningRequired', 'ReadyToFinalize', 'Finalized', 'SubmittedForFunding', 'Funded', 'NeedsAttention', 'Expired', 'Cancelled', 'Refund', 'Review', 'Declined'];

beforeAll(async () => {
  h = await harness();
  office = await journeyOffice(h, ['ally', 'gsky']);
  other = await journeyOffice(h);
  const db = h.database.db;
  lenderIds = Object.fromEntries((await db.select({ id: lenders.id, code: lenders.code }).from(lenders).where(inArray(lenders.code, ['ally', 'gsky']))).map((l) => [l.code, l.id]));
  adminId = (await db.select({ id: users.id }).from(users).where(eq(users.email, office.admin)))[0]!.id;
  supportId = (await db.select({ id: users.id }).from(users).where(eq(users.email, office.support)))[0]!.id;
  // The office's order asks ally first, gsky second (journeyOffice numbers them so).
  await application({ createdBy: adminId }); // a link sent, never opened
  await application({ createdBy: adminId, opened: true });
  await application({ createdBy: null, answers: { ally: 'Declined', gsky: 'Declined' }, stage: 'Declined' }); // began on the office's page
  await application({ createdBy: adminId, inOffice: true, answers: { ally: 'Declined', gsky: 'Approved' } });
  await application({ createdBy: supportId, opened: true, answers: { ally: 'Approved', gsky: 'Approved' }, chosen: 'ally', stage: 'OfferSelected' });
  await application({ createdBy: supportId, opened: true, answers: { ally: 'Approved' }, chosen: 'ally', stage: 'ReadyToFinalize' });
  const funded = await application({ createdBy: supportId, opened: true, answers: { ally: 'Declined', gsky: 'Approved' }, chosen: 'gsky', stage: 'Refund', funded: 400_000 });
  await db.insert(refunds).values([
    { appId: funded, officeId: office.officeId, amount: 10_000, status: 'Submitted' },
    { appId: funded, officeId: office.officeId, amount: 5_000, status: 'Cancelled' },
  ]);
});

describe('reports', () => {
  it('counts each application at its furthest step and every step before it, and approvals by lender and place', async () => {
    const r = json<Report>(await report(office.admin, { officeId: office.officeId, period: 'thisMonth' }));
    expect(r.funnel.map((row) => row.step)).toEqual(['started', 'opened', 'prequalified', 'offers', 'selected', 'signed', 'funded']);
    expect(counts(r)).toEqual([7, 6, 5, 4, 3, 2, 1]);
    expect(r.funnel[3]).toEqual({ step: 'offers', count: 4, shareOfPrevious: 80, shareOfStarted: 57.1 });
    expect(r.approval).toEqual({ patients: 5, approved: 4, approvedByFirst: 2, approvedLater: 2, shareApproved: 80, shareApprovedByFirst: 40 });
    expect(r.places).toEqual([
      { place: 1, count: 2, share: 40 },
      { place: 2, count: 2, share: 40 },
      { place: null, count: 1, share: 20 },
    ]);
    const byName = Object.fromEntries(r.lenders.map((row) => [row.lenderId, row]));
    expect(byName[lenderIds.ally!]).toMatchObject({ asked: 5, approved: 2, approvalRate: 40, approvedOnly: 1, averageApprovedAmount: 5000, averageApr: 9.99 });
    expect(byName[lenderIds.gsky!]).toMatchObject({ asked: 4, approved: 3, approvalRate: 75, approvedOnly: 2, averageApprovedAmount: 3000, averageApr: 19.99 });
    expect(r.totals).toEqual({ funded: 1, financed: 4000, discountFees: 200, net: 3800, refunds: 100 });
    expect(r.interval).toBe('week');
    expect(r.volume.reduce((sum, row) => sum + row.financed, 0)).toBe(4000);
    expect(r.choices.lenders.map((c) => c.value).sort()).toEqual(Object.values(lenderIds).sort());
    expect(r.choices.staff.map((c) => c.value)).toEqual(expect.arrayContaining([adminId, supportId]));
  });

  it("equals the sum of the applications behind each figure, as the office's lists show them", async () => {
    const r = json<Report>(await report(office.admin, { officeId: office.officeId, period: 'thisMonth' }));
    const dates = { officeId: office.officeId, fromDate: r.fromDate, toDate: r.toDate };
    // Each step's applications, as the list the report links to shows them: alone, for one lender, for one staff member.
    for (const narrowed of [{}, { lenderId: lenderIds.gsky }, { createdBy: adminId }]) {
      const figures = json<Report>(await report(office.admin, { ...dates, lenderId: (narrowed as { lenderId?: number }).lenderId, userId: (narrowed as { createdBy?: string }).createdBy }));
      for (const row of figures.funnel) {
        const list = json<{ rowCount: number }>(await h.request(office.admin, 'PUT', '/api/App/GetOfficeApps', { ...dates, ...narrowed, stages: ALL_STAGES, reached: row.step }));
        expect(list.rowCount, `${row.step} ${JSON.stringify(narrowed)}`).toBe(row.count);
      }
    }
    const funded = json<{ results: { fundedAmount: number; discountAmount: number }[] }>(await h.request(office.admin, 'PUT', '/api/App/GetOfficeFundedApps', { ...dates, pageSize: 100 }));
    expect(r.totals.funded).toBe(funded.results.length);
    expect(r.totals.financed).toBe(funded.results.reduce((sum, row) => sum + row.fundedAmount, 0));
    expect(r.totals.discountFees).toBe(funded.results.reduce((sum, row) => sum + row.discountAmount, 0));
  });

  it("narrows to one lender's part or one staff member's applications", async () => {
    const byLender = json<Report>(await report(office.admin, { officeId: office.officeId, period: 'thisMonth', lenderId: lenderIds.gsky }));
    expect(counts(byLender)).toEqual([4, 4, 4, 3, 1, 1, 1]);
    expect(byLender.lenders.map((row) => row.lenderId)).toEqual([lenderIds.gsky]);
    expect(byLender.totals.financed).toBe(4000);
    const allyOnly = json<Report>(await report(office.admin, { officeId: office.officeId, period: 'thisMonth', lenderId: lenderIds.ally }));
    expect(allyOnly.totals).toEqual({ funded: 0, financed: 0, discountFees: 0, net: 0, refunds: 0 });
    const byStaff = json<Report>(await report(office.admin, { officeId: office.officeId, period: 'thisMonth', userId: adminId }));
    expect(counts(byStaff)).toEqual([3, 2, 1, 1, 0, 0, 0]);
  });

  it('downloads each report as CSV in the same words and figures', async () => {
    const answer = await h.request(office.admin, 'PUT', '/api/Reports/GetReportCSV/funnel', { officeId: office.officeId, period: 'thisMonth' });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toContain('text/csv');
    expect(answer.headers['content-disposition']).toContain(`report-funnel-office-${office.officeId}-`);
    const lines = answer.body.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toBe('Step,Applications,Kept from the step before (%),Of those started (%)');
    expect(lines[1]).toBe('Started (link sent or in the office),7,,');
    expect(lines[7]).toBe('Funded,1,50,14.3');
    const volume = await h.request(office.admin, 'PUT', '/api/Reports/GetReportCSV/volume', { officeId: office.officeId, period: 'thisMonth' });
    expect(volume.body).toContain(',1,4000.00,200.00,3800.00,100.00');
    const lenders = await h.request(office.admin, 'PUT', '/api/Reports/GetReportCSV/lenders', { officeId: office.officeId, period: 'thisMonth' });
    expect(lenders.body.replace(/^\uFEFF/, '').split('\r\n').slice(0, 3)).toEqual([
      'Lender,Asked,Approved,Approval rate (%),Approved by this lender alone,Average approved amount,Average APR (%)',
      expect.stringMatching(/^Ally Lending,5,2,40,1,5000\.00,9\.99$/),
      expect.stringMatching(/^GreenSky,4,3,75,2,3000\.00,19\.99$/),
    ]);
    const places = await h.request(office.admin, 'PUT', '/api/Reports/GetReportCSV/places', { officeId: office.officeId, period: 'thisMonth' });
    expect(places.body.replace(/^\uFEFF/, '').trim().split('\r\n')).toEqual([
      'First lender that approved,Patients,Share (%)',
      'Lender 1 in your order,2,40',
      'Lender 2 in your order,2,40',
      'None approved,1,20',
    ]);
  });

  it("keeps an office's figures to its admins and the platform's, and says what is wrong with a period", async () => {
    expect((await report(office.support, { officeId: office.officeId })).statusCode).toBe(403);
    expect((await report(other.admin, { officeId: office.officeId })).statusCode).toBe(404);
    const platform = json<Report>(await report(PLATFORM, { officeId: office.officeId, period: 'thisMonth' }));
    expect(counts(platform)).toEqual([7, 6, 5, 4, 3, 2, 1]);
    const everywhere = json<Report>(await report(PLATFORM, { period: 'thisMonth' }));
    expect(everywhere.funnel[0]!.count).toBeGreaterThanOrEqual(7);
    expect(everywhere.choices.offices.map((c) => c.value)).toEqual(expect.arrayContaining([office.officeId, other.officeId]));
    const backwards = await report(office.admin, { officeId: office.officeId, fromDate: '02/01/2026', toDate: '01/01/2026' });
    expect(backwards.statusCode).toBe(400);
    expect(json<{ errors: Record<string, string[]> }>(backwards).errors).toEqual({ toDate: ["'To' must be on or after 'From'."] });
  });

  it("keeps each application's answer facts as a lender's answer changes, whoever writes it (decision 0277)", async () => {
    const db = h.database.db;
    const declined = await application({ createdBy: adminId, answers: { ally: 'Declined', gsky: 'Declined' }, stage: 'Declined' });
    const facts = async () => (await db.select({ asked: applications.lendersAsked, approved: applications.lendersApproved, first: applications.firstApprovedPlace }).from(applications).where(eq(applications.id, declined)))[0];
    expect(await facts()).toEqual({ asked: 2, approved: 0, first: null });
    await db.update(applicationLenders).set({ status: 'Approved' }).where(and(eq(applicationLenders.appId, declined), eq(applicationLenders.lenderId, lenderIds.gsky!)));
    expect(await facts()).toEqual({ asked: 2, approved: 1, first: 2 });
    await db.insert(offers).values({ appId: declined, lenderId: lenderIds.gsky!, productCode: 'gsky-12', term: 12, apr: 7.5, amount: 400_000, maxLine: 800_000, isSelected: false });
    const [answer] = await db.select({ place: applicationLenders.place, amount: applicationLenders.bestAmount, apr: applicationLenders.bestApr }).from(applicationLenders)
      .where(and(eq(applicationLenders.appId, declined), eq(applicationLenders.lenderId, lenderIds.gsky!)));
    expect(answer).toEqual({ place: 2, amount: 800_000, apr: 7.5 });
    // What the facts do not read changes none of them (and the database's own keeping of them ends).
    await db.update(applicationLenders).set({ latencyMs: 1_000 }).where(eq(applicationLenders.appId, declined));
    await db.update(offers).set({ productName: 'Twelve months' }).where(eq(offers.appId, declined));
    expect(await facts()).toEqual({ asked: 2, approved: 1, first: 2 });
    // One statement moving several answers, as the waterfall writes them; an offer changed, then removed.
    await db.update(applicationLenders).set({ status: 'Approved' }).where(eq(applicationLenders.appId, declined));
    expect(await facts()).toEqual({ asked: 2, approved: 2, first: 1 });
    await db.update(offers).set({ maxLine: 900_000, apr: 6.5 }).where(eq(offers.appId, declined));
    const best = async () => (await db.select({ amount: applicationLenders.bestAmount, apr: applicationLenders.bestApr }).from(applicationLenders)
      .where(and(eq(applicationLenders.appId, declined), eq(applicationLenders.lenderId, lenderIds.gsky!))))[0];
    expect(await best()).toEqual({ amount: 900_000, apr: 6.5 });
    await db.delete(offers).where(eq(offers.appId, declined));
    expect(await best()).toEqual({ amount: null, apr: null });
    await db.delete(applicationLenders).where(eq(applicationLenders.appId, declined));
    expect(await facts()).toEqual({ asked: 0, approved: 0, first: null });
  });
});
