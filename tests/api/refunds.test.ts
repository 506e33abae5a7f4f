import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { and, count, eq, ne } from 'drizzle-orm';
import { applications, appLogs, refunds } from '../../server/db/schema.ts';
import { OFFICE_ADMIN, SUPPORT, TPA, SALES, PLATFORM, DFI } from '../support/demo-accounts.ts';
import { harness, type Harness } from '../support/harness.ts';
import { insertApplication, insertRefund } from './apps-fixtures.ts';
import { DEMO } from './examples.ts';

/**
 * Refund requests and their processing, through the HTTP API as the demo users: the ceiling of §5
 * (partial, full and cancelled refunds), concurrent requests, Idempotency-Key, the status moves and
 * sub-statuses, the lists, roles and office isolation. Every test works on applications it inserts.
 */

let h: Harness;
const EXCEEDS = 'Refund amount cannot exceed the original loan amount.';

const call: Harness['request'] = (...args) => h.request(...args);

const db = () => h.database.db;
const app = async (id: number) => (await db().select().from(applications).where(eq(applications.id, id)))[0]!;
const refundRows = (appId: number) => db().select().from(refunds).where(eq(refunds.appId, appId)).orderBy(refunds.id);
const letters = () => [...randomBytes(6)].map((b) => String.fromCharCode(97 + (b % 26))).join('');
/** A funded application of $1,000.00 in Bright Smiles. */
const funded = (extra: Partial<Parameters<typeof insertApplication>[1]> = {}) =>
  insertApplication(db(), { officeId: DEMO.brightSmiles, stage: 'Funded', amount: 100_000, ...extra });

const submit = (as: string, appId: number, amount: number, headers: Record<string, string> = {}) =>
  call(as, 'POST', '/api/App/SubmitRefund', { appId, amount, reason: 'Treatment plan changed' }, headers);
const update = (as: string, body: Record<string, unknown>) => call(as, 'PUT', '/api/admin/Apps/UpdateRefund', body);

beforeAll(async () => {
  h = await harness();
});

describe('the refund ceiling', () => {
  it('allows partial refunds up to the funded amount, refuses a cent more with the spec message, then a full refund', async () => {
    const appId = await funded();
    const first = await submit(SUPPORT, appId, 300);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({
      appId, officeId: DEMO.brightSmiles, officeName: 'Bright Smiles Dental', status: 'Submitted', achStatus: null, amount: 1000, refundAmount: 300,
      reason: 'Treatment plan changed', requestedBy: 'Sam Ortiz', estimatedAchDeliveryDate: null,
    });
    expect(await app(appId)).toMatchObject({ stage: 'Refund', contractSubStatus: 'RefundSubmitted', refundedAmount: 30_000 });
    const detail = (await call(SALES, 'GET', `/api/App/GetApp/${appId}/false`)).json();
    expect(detail).toMatchObject({ statusChip: 'Refund', refundId: first.json().refundId, refundAmount: 300, refundStatus: 'Submitted', totalRefundedAmount: 300, showRefundButton: true });

    const over = await submit(OFFICE_ADMIN, appId, 700.01);
    expect(over.statusCode).toBe(400);
    expect(over.json().errors).toEqual({ amount: [EXCEEDS] });
    expect(await refundRows(appId)).toHaveLength(1);

    const rest = await submit(OFFICE_ADMIN, appId, 700);
    expect(rest.statusCode).toBe(200);
    expect(await app(appId)).toMatchObject({ refundedAmount: 100_000, statusText: 'Full refund requested' });
    expect((await call(SALES, 'GET', `/api/App/GetApp/${appId}/false`)).json()).toMatchObject({ totalRefundedAmount: 1000, showRefundButton: false });
    expect((await submit(SUPPORT, appId, 0.01)).json().errors).toEqual({ amount: [EXCEEDS] });

    // The office's and the platform's lines (the refund told to the lender is the system's: tests/api/jobs.test.ts).
    const logs = await db().select().from(appLogs).where(and(eq(appLogs.appId, appId), eq(appLogs.kind, 'Event'), ne(appLogs.actor, 'system'))).orderBy(appLogs.id);
    expect(logs.map((l) => [l.message, l.actor])).toEqual([['Partial refund requested', SUPPORT], ['Full refund requested', OFFICE_ADMIN]]);
    expect(logs[1]!.data).toMatchObject({ amountCents: 70_000, before: { refundedAmountCents: 30_000, stage: 'Refund' }, after: { refundedAmountCents: 100_000 } });
  });

  it('gives a cancelled refund its amount back, and goes back to Funded when none is left', async () => {
    const appId = await funded();
    const first = (await submit(SUPPORT, appId, 600)).json();
    expect((await submit(SUPPORT, appId, 400.01)).statusCode).toBe(400);
    const cancelled = await update(PLATFORM, { refundId: first.refundId, appId, status: 'Cancelled', notes: 'Office withdrew the request' });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json()).toMatchObject({ status: 'Cancelled' });
    expect(await app(appId)).toMatchObject({ refundedAmount: 0, stage: 'Funded', contractSubStatus: 'RefundCancelled' });
    expect((await call(SUPPORT, 'GET', `/api/App/GetApp/${appId}/false`)).json()).toMatchObject({ statusChip: 'Funded', showRefundButton: true, totalRefundedAmount: 0 });
    expect((await submit(SUPPORT, appId, 1000)).statusCode).toBe(200);
    expect((await submit(SUPPORT, appId, 0.01)).statusCode).toBe(400);
  });

  it('counts refunds already requested, not only completed ones, and keeps cents exact', async () => {
    const appId = await funded({ amount: 33_333 });
    await insertRefund(db(), appId, 11_112, 'Completed');
    // Not the amount asked for below: an identical open refund is refused as a repeat (decision 0172).
    await insertRefund(db(), appId, 11_110, 'Processing');
    await insertRefund(db(), appId, 5_000, 'Cancelled');
    expect((await submit(SUPPORT, appId, 111.12)).json().errors).toEqual({ amount: [EXCEEDS] });
    expect((await submit(SUPPORT, appId, 111.11)).statusCode).toBe(200);
    expect((await app(appId)).refundedAmount).toBe(33_333);
  });

  it('refuses a refund before funding', async () => {
    const appId = await insertApplication(db(), { officeId: DEMO.brightSmiles, stage: 'SubmittedForFunding' });
    expect((await submit(SUPPORT, appId, 1)).statusCode).toBe(409);
    expect(await refundRows(appId)).toHaveLength(0);
  });
});

describe('concurrent refund requests', () => {
  it('lets exactly one of two requests that together exceed the ceiling through', async () => {
    for (let round = 0; round < 3; round++) {
      const appId = await funded();
      // Not the same amount: that would be refused as a repeat before the ceiling is even read.
      const outcomes = await Promise.all([submit(SUPPORT, appId, 600), submit(OFFICE_ADMIN, appId, 601)]);
      expect(outcomes.map((o) => o.statusCode).sort()).toEqual([200, 400]);
      expect(outcomes.find((o) => o.statusCode === 400)!.json().errors).toEqual({ amount: [EXCEEDS] });
      expect(await refundRows(appId)).toHaveLength(1);
      expect([60_000, 60_100]).toContain((await app(appId)).refundedAmount);
    }
  });

  it('lets as many through as fit, never more', async () => {
    const appId = await funded();
    // Different amounts (the same one twice would be a repeat): any three fit in $1,000.00, no four do.
    const outcomes = await Promise.all([300, 301, 302, 303, 304].map((amount) => submit(SUPPORT, appId, amount)));
    expect(outcomes.filter((o) => o.statusCode === 200)).toHaveLength(3);
    expect(outcomes.filter((o) => o.statusCode === 400)).toHaveLength(2);
    const total = (await refundRows(appId)).reduce((sum, r) => sum + r.amount, 0);
    expect(total).toBeLessThanOrEqual(100_000);
    expect((await app(appId)).refundedAmount).toBe(total);
  });

  it('files one refund of ten identical requests at once, each with its own Idempotency-Key (ten clicks), and refuses the repeats with 409', async () => {
    const appId = await funded();
    const outcomes = await Promise.all(Array.from({ length: 10 }, () => submit(SUPPORT, appId, 250)));
    expect(outcomes.map((o) => o.statusCode).sort()).toEqual([200, ...Array<number>(9).fill(409)]);
    expect(outcomes.find((o) => o.statusCode === 409)!.json().detail).toMatch(/^A refund of \$250\.00 for this loan is already pending \(refund #\d+\)/);
    expect(await refundRows(appId)).toHaveLength(1);
    // Another amount is another refund; the same amount again once the first is cancelled is a new one too.
    expect((await submit(SUPPORT, appId, 100)).statusCode).toBe(200);
    const [first] = await refundRows(appId);
    expect((await update(PLATFORM, { refundId: first!.id, appId, status: 'Cancelled', notes: 'Entered twice' })).statusCode).toBe(200);
    expect((await submit(SUPPORT, appId, 250)).statusCode).toBe(200);
  });

  it('makes one refund of two concurrent requests with the same Idempotency-Key', async () => {
    const appId = await funded();
    const headers = { 'idempotency-key': `refund-${letters()}` };
    const outcomes = await Promise.all([submit(SUPPORT, appId, 100, headers), submit(SUPPORT, appId, 100, headers)]);
    const statuses = outcomes.map((o) => o.statusCode);
    expect(statuses).toContain(200);
    expect(statuses.every((s) => s === 200 || s === 409)).toBe(true);
    expect(await refundRows(appId)).toHaveLength(1);
    // Once the first is done, a repeat gets its answer again.
    const first = outcomes.find((o) => o.statusCode === 200)!.json();
    const replay = await submit(SUPPORT, appId, 100, headers);
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toEqual(first);
    expect(await refundRows(appId)).toHaveLength(1);
    expect((await app(appId)).refundedAmount).toBe(10_000);
  });
});

describe('processing a refund', () => {
  it('moves Submitted → Processing → Completed only, with ACH fields and the RefundProcessing / RefundCompleted sub-statuses', async () => {
    const appId = await funded();
    const refund = (await submit(SUPPORT, appId, 250)).json();
    const base = { refundId: refund.refundId, appId };

    const skip = await update(PLATFORM, { ...base, status: 'Completed' });
    expect(skip.statusCode).toBe(409);

    const processing = await update(PLATFORM, { ...base, status: 'Processing', estimatedAchDeliveryDate: '07/15/2031', notes: 'ACH debit sent' });
    expect(processing.statusCode, processing.body).toBe(200);
    expect(processing.json()).toMatchObject({ status: 'Processing', achStatus: 'Initiated', estimatedAchDeliveryDate: '07/15/2031' });
    expect(await app(appId)).toMatchObject({ contractSubStatus: 'RefundProcessing', stage: 'Refund' });

    const ach = await update(PLATFORM, { ...base, status: 'Processing', achStatus: 'Processing' });
    expect(ach.json()).toMatchObject({ status: 'Processing', achStatus: 'Processing', estimatedAchDeliveryDate: '07/15/2031' });
    expect((await update(PLATFORM, { ...base, status: 'Submitted' })).statusCode).toBe(409);

    const completed = await update(PLATFORM, { ...base, status: 'Completed' });
    expect(completed.json()).toMatchObject({ status: 'Completed', achStatus: 'Completed' });
    expect(await app(appId)).toMatchObject({ contractSubStatus: 'RefundCompleted', stage: 'Refund', refundedAmount: 25_000 });
    for (const status of ['Cancelled', 'Processing', 'Submitted']) {
      expect((await update(PLATFORM, { ...base, status })).statusCode, status).toBe(409);
    }
    expect((await refundRows(appId))[0]!.status).toBe('Completed');

    const logs = await db().select().from(appLogs).where(and(eq(appLogs.appId, appId), eq(appLogs.kind, 'Event'), ne(appLogs.actor, 'system'))).orderBy(appLogs.id);
    expect(logs.map((l) => l.message)).toEqual(['Partial refund requested', 'Refund processing', 'Refund ACH details updated', 'Refund completed']);
    expect(logs[1]).toMatchObject({ actor: PLATFORM, data: expect.objectContaining({ notes: 'ACH debit sent', before: expect.objectContaining({ status: 'Submitted' }), after: expect.objectContaining({ status: 'Processing', achStatus: 'Initiated' }) }) });
  });

  it('shows an open refund in the sub-status while another completes, and refuses a cancelled one any move', async () => {
    const appId = await funded();
    const a = (await submit(SUPPORT, appId, 100)).json();
    const b = (await submit(SUPPORT, appId, 50)).json();
    await update(PLATFORM, { refundId: a.refundId, appId, status: 'Processing' });
    await update(PLATFORM, { refundId: a.refundId, appId, status: 'Completed' });
    expect((await app(appId)).contractSubStatus).toBe('RefundSubmitted');
    await update(PLATFORM, { refundId: b.refundId, appId, status: 'Cancelled' });
    expect(await app(appId)).toMatchObject({ contractSubStatus: 'RefundCompleted', stage: 'Refund', refundedAmount: 10_000 });
    expect((await update(PLATFORM, { refundId: b.refundId, appId, status: 'Processing' })).statusCode).toBe(409);
  });

  it('is for df.admin only, and only for a refund of the application named', async () => {
    const appId = await funded();
    const other = await funded();
    const refund = (await submit(SUPPORT, appId, 100)).json();
    for (const as of [DFI, OFFICE_ADMIN, SUPPORT]) {
      expect((await update(as, { refundId: refund.refundId, appId, status: 'Processing' })).statusCode, as).toBe(403);
    }
    expect((await update(PLATFORM, { refundId: refund.refundId, appId: other, status: 'Cancelled' })).statusCode).toBe(404);
    expect((await update(PLATFORM, { refundId: 99_999_999, appId, status: 'Cancelled' })).statusCode).toBe(404);
    expect((await update(PLATFORM, { refundId: refund.refundId, appId, status: 'Processing', estimatedAchDeliveryDate: '02/30/2031' })).statusCode).toBe(400);
    expect((await refundRows(appId))[0]).toMatchObject({ status: 'Submitted', estimatedAchDeliveryDate: null });
    expect((await app(appId)).refundedAmount).toBe(10_000);
  });
});

describe('refund roles, office isolation and lists', () => {
  let tag: string;
  let mine: number;
  let lakeside: number;
  beforeAll(async () => {
    tag = letters();
    mine = await funded({ lastName: `${tag}bright` });
    lakeside = await insertApplication(db(), { officeId: DEMO.lakeside, stage: 'Funded', amount: 50_000, lastName: `${tag}lake` });
  });

  it('lets office admin and support request refunds, not sales or tpa', async () => {
    expect((await submit(SALES, mine, 10)).statusCode).toBe(403);
    expect((await submit(TPA, lakeside, 10)).statusCode).toBe(403);
    expect((await submit(OFFICE_ADMIN, lakeside, 10)).statusCode).toBe(200);
    expect(await refundRows(mine)).toHaveLength(0);
  });

  it("answers 404 for another office's application or refund and writes nothing", async () => {
    const before = await refundRows(lakeside);
    expect((await submit(SUPPORT, lakeside, 10)).statusCode).toBe(404);
    expect((await call(SUPPORT, 'GET', `/api/App/GetRefundRequest/${DEMO.lakeside}/${lakeside}`)).statusCode).toBe(404);
    expect((await call(SUPPORT, 'GET', `/api/App/GetRefundRequest/${DEMO.brightSmiles}/${lakeside}`)).statusCode).toBe(404);
    expect((await call(SUPPORT, 'PUT', '/api/App/GetOfficeRefunds', { officeId: DEMO.lakeside })).statusCode).toBe(404);
    expect(await refundRows(lakeside)).toEqual(before);
    expect((await app(lakeside)).refundedAmount).toBe(1_000);
  });

  it('answers the latest refund request of an application, for the office that owns it', async () => {
    expect((await call(SUPPORT, 'GET', `/api/App/GetRefundRequest/${DEMO.brightSmiles}/${mine}`)).statusCode).toBe(404);
    await submit(SUPPORT, mine, 20);
    const latest = (await submit(SUPPORT, mine, 30)).json();
    const response = await call(SALES, 'GET', `/api/App/GetRefundRequest/${DEMO.brightSmiles}/${mine}`);
    expect(response.json()).toEqual(latest);
    // The path's office must own the application, even for a user of both offices.
    expect((await call(OFFICE_ADMIN, 'GET', `/api/App/GetRefundRequest/${DEMO.lakeside}/${mine}`)).statusCode).toBe(404);
  });

  it('lists the office refunds as an array and the platform refunds paged', async () => {
    const office = await call(TPA, 'PUT', '/api/App/GetOfficeRefunds', { officeId: DEMO.lakeside, search: tag });
    expect(office.statusCode).toBe(200);
    expect(office.json()).toEqual([expect.objectContaining({ appId: lakeside, refundAmount: 10, amount: 500, officeName: 'Lakeside Family Dental', requestedBy: 'Olivia Bennett' })]);
    const own = (await call(SALES, 'PUT', '/api/App/GetOfficeRefunds', { officeId: DEMO.brightSmiles, search: tag })).json();
    expect(own.map((r: { refundAmount: number }) => r.refundAmount)).toEqual([30, 20]);
    expect((await call(SALES, 'PUT', '/api/App/GetOfficeRefunds', { officeId: DEMO.brightSmiles, search: tag, sortBy: 'refundAmount', pageSize: 1 })).json()).toEqual([expect.objectContaining({ refundAmount: 20 })]);

    const all = await call(DFI, 'PUT', '/api/admin/Apps/GetRefunds', { search: tag, sortBy: 'officeName' });
    expect(all.json()).toMatchObject({ rowCount: 3, nextPage: null });
    expect(all.json().results.map((r: { officeId: number }) => r.officeId)).toEqual([DEMO.brightSmiles, DEMO.brightSmiles, DEMO.lakeside]);
    expect((await call(DFI, 'PUT', '/api/admin/Apps/GetRefunds', { search: tag, officeId: DEMO.lakeside })).json().rowCount).toBe(1);
    expect((await call(DFI, 'PUT', '/api/admin/Apps/GetRefunds', { pageSize: 2 })).json()).toMatchObject({ pageSize: 2, nextPage: 2 });
    expect((await call(OFFICE_ADMIN, 'PUT', '/api/admin/Apps/GetRefunds', {})).statusCode).toBe(403);
  });

  it('shows the demo refunds with their ACH status', async () => {
    const response = await call(OFFICE_ADMIN, 'PUT', '/api/App/GetOfficeRefunds', { officeId: DEMO.brightSmiles });
    expect(response.statusCode).toBe(200);
    const statuses = new Set(response.json().map((r: { achStatus: string | null }) => r.achStatus));
    expect(statuses.has('Completed')).toBe(true);
    expect(await db().select({ n: count() }).from(refunds)).not.toEqual([{ n: 0 }]);
  });
});
