import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { and, count, eq, inArray, ne } from 'drizzle-orm';
import { applications, appLogs } from '../../server/db/schema.ts';
import { OFFICE_ADMIN, SUPPORT, TPA, SALES, PLATFORM, DFI } from '../support/demo-accounts.ts';
import { harness, type Harness } from '../support/harness.ts';
import { insertApplication } from './apps-fixtures.ts';
import { DEMO } from './examples.ts';

/**
 * Finalize, the Office Funding queue, marking applications funded and the funded lists with their
 * CSV, through the HTTP API as the demo users, on applications each test inserts.
 */

let h: Harness;
const LOAN_EXCEEDS = 'Loan amount cannot exceed the approved amount.';
const LOAN_EXCEEDS_SIGNED = 'Loan amount cannot exceed the amount the borrower signed for. A larger loan needs a new agreement.';

const call: Harness['request'] = (...args) => h.request(...args);

const db = () => h.database.db;
const app = async (id: number) => (await db().select().from(applications).where(eq(applications.id, id)))[0]!;
/** The lines people wrote (a lender told of a finalization writes its own, as 'system': tests/api/jobs.test.ts). */
const logCount = async (appId: number) => (await db().select({ n: count() }).from(appLogs).where(and(eq(appLogs.appId, appId), ne(appLogs.actor, 'system'))))[0]!.n;
const letters = () => [...randomBytes(6)].map((b) => String.fromCharCode(97 + (b % 26))).join('');
const today = () => {
  const now = new Date();
  return `${String(now.getUTCMonth() + 1).padStart(2, '0')}/${String(now.getUTCDate()).padStart(2, '0')}/${now.getUTCFullYear()}`;
};

/** Parses our CSV (RFC 4180) back into rows, to check the quoting round-trips. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (field += '"'), (i += 1);
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') row.push(field), (field = '');
    else if (c === '\r' && text[i + 1] === '\n') row.push(field), rows.push(row), (row = []), (field = ''), (i += 1);
    else field += c;
  }
  return rows;
}

beforeAll(async () => {
  h = await harness();
});

describe('finalizing an application', () => {
  it('refuses a loan amount above the approved amount, naming the field, and changes nothing', async () => {
    const appId = await insertApplication(db(), { officeId: DEMO.brightSmiles, stage: 'ReadyToFinalize', approvedAmount: 500_000, amount: 450_000 });
    const before = [await app(appId), await logCount(appId)];
    const response = await call(SUPPORT, 'PUT', '/api/App/FinalizeApp', { appId, loanAmount: 5000.01 });
    expect(response.statusCode).toBe(400);
    expect(response.headers['content-type']).toContain('application/problem+json');
    expect(response.json().errors).toEqual({ loanAmount: [LOAN_EXCEEDS] });
    expect([await app(appId), await logCount(appId)]).toEqual(before);
  });

  it('refuses a loan amount above what the borrower signed for, even within the approved line, and changes nothing', async () => {
    const appId = await insertApplication(db(), { officeId: DEMO.brightSmiles, stage: 'ReadyToFinalize', approvedAmount: 1_800_000, amount: 450_000 });
    const before = [await app(appId), await logCount(appId)];
    const response = await call(SUPPORT, 'PUT', '/api/App/FinalizeApp', { appId, loanAmount: 4500.01 });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual({ loanAmount: [LOAN_EXCEEDS_SIGNED] });
    expect([await app(appId), await logCount(appId)]).toEqual(before);
  });

  it('finalizes at the signed amount or less: Finalized, then SubmittedForFunding with the funding Initiated', async () => {
    const appId = await insertApplication(db(), { officeId: DEMO.brightSmiles, stage: 'ReadyToFinalize', approvedAmount: 500_000, amount: 450_000 });
    const listed = (await call(SALES, 'GET', `/api/App/GetApp/${appId}/false`)).json();
    expect(listed).toMatchObject({ showFinalizeButton: true, statusChip: 'ActionRequired', fundingStatus: null });

    const response = await call(SALES, 'PUT', '/api/App/FinalizeApp', { appId, loanAmount: 4499.99 });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      id: appId, stage: 'SubmittedForFunding', statusChip: 'Completed', isFinalized: true, amount: 4499.99, approvedAmount: 5000,
      fundingStatus: 'Initiated', showFinalizeButton: false,
    });
    const row = await app(appId);
    expect(row).toMatchObject({ amount: 449_999, stage: 'SubmittedForFunding', isFinalized: true, fundingStatus: 'Initiated' });
    // The office's own lines (the lender is told by a job, which writes its own: tests/api/jobs.test.ts).
    const logs = (await db().select().from(appLogs).where(eq(appLogs.appId, appId)).orderBy(appLogs.id)).filter((l) => l.actor === SALES);
    expect(logs.map((l) => [l.kind, l.message, l.actor])).toEqual([
      ['Event', 'Application finalized', SALES],
      ['Contract', 'Finalized by the office', SALES],
      ['Contract', 'Submitted for funding', SALES],
    ]);
    expect(logs[0]!.data).toMatchObject({ before: { amountCents: 450_000, stage: 'ReadyToFinalize' }, after: { amountCents: 449_999, stage: 'SubmittedForFunding' }, signedAmountCents: 450_000 });
    // The office sees the funding status on Home too.
    const home = await call(SALES, 'PUT', '/api/App/GetOfficeApps', { officeId: DEMO.brightSmiles, search: String(appId) });
    expect(home.json().results.find((r: { id: number }) => r.id === appId)).toMatchObject({ fundingStatus: 'Initiated', statusChip: 'Completed' });

    // The finalize button is gone: a second finalize is refused.
    expect((await call(SALES, 'PUT', '/api/App/FinalizeApp', { appId, loanAmount: 1 })).statusCode).toBe(409);
    expect((await app(appId)).amount).toBe(449_999);
  });

  it('keeps cents exact', async () => {
    const appId = await insertApplication(db(), { officeId: DEMO.brightSmiles, stage: 'ReadyToFinalize', approvedAmount: 1_000_000, amount: 200_000 });
    const response = await call(SUPPORT, 'PUT', '/api/App/FinalizeApp', { appId, loanAmount: 1234.57 });
    expect(response.json().amount).toBe(1234.57);
    expect((await app(appId)).amount).toBe(123_457);
  });

  it('refuses applications not ready to finalize, roles that cannot, and other offices', async () => {
    const signing = await insertApplication(db(), { officeId: DEMO.brightSmiles, stage: 'SigningRequired' });
    expect((await call(SUPPORT, 'PUT', '/api/App/FinalizeApp', { appId: signing, loanAmount: 100 })).statusCode).toBe(409);
    const lakeside = await insertApplication(db(), { officeId: DEMO.lakeside, stage: 'ReadyToFinalize' });
    expect((await call(TPA, 'PUT', '/api/App/FinalizeApp', { appId: lakeside, loanAmount: 100 })).statusCode).toBe(403);
    expect((await call(SUPPORT, 'PUT', '/api/App/FinalizeApp', { appId: lakeside, loanAmount: 100 })).statusCode).toBe(404);
    expect((await app(lakeside)).stage).toBe('ReadyToFinalize');
    expect(await logCount(lakeside)).toBe(0);
  });

  it('answers a repeat with the same Idempotency-Key once', async () => {
    const appId = await insertApplication(db(), { officeId: DEMO.brightSmiles, stage: 'ReadyToFinalize' });
    const headers = { 'idempotency-key': `finalize-${letters()}` };
    const first = await call(SUPPORT, 'PUT', '/api/App/FinalizeApp', { appId, loanAmount: 4000 }, headers);
    const second = await call(SUPPORT, 'PUT', '/api/App/FinalizeApp', { appId, loanAmount: 4000 }, headers);
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    expect(second.json()).toEqual(first.json());
    expect(await logCount(appId)).toBe(3);
  });
});

describe('Office Funding and marking applications funded', () => {
  let tag: string;
  let older: number;
  let newer: number;
  let lakeside: number;
  beforeAll(async () => {
    tag = letters();
    older = await insertApplication(db(), { officeId: DEMO.brightSmiles, stage: 'SubmittedForFunding', lastName: `${tag}one`, amount: 400_000, discountRate: 5 });
    newer = await insertApplication(db(), { officeId: DEMO.brightSmiles, stage: 'SubmittedForFunding', lastName: `${tag}two`, amount: 123_456, discountRate: 2.5 });
    lakeside = await insertApplication(db(), { officeId: DEMO.lakeside, stage: 'SubmittedForFunding', lastName: `${tag}three`, amount: 200_000 });
  });

  it('lists what awaits funding to df.admin only, oldest first, with the amounts to fund', async () => {
    const queue = await call(PLATFORM, 'PUT', '/api/admin/Apps/GetFundedApps', { forFunding: true, search: tag });
    expect(queue.statusCode).toBe(200);
    expect(queue.json().results.map((r: { id: number }) => r.id)).toEqual([older, newer, lakeside]);
    expect(queue.json().results[1]).toMatchObject({
      amount: 1234.56, fundedAmount: null, fundedDate: null, fundingStatus: 'Initiated', stage: 'SubmittedForFunding',
      // 2.5% of 1234.56 = 30.864, rounded to cents in numeric arithmetic.
      discountAmount: 30.86, netFundedAmount: 1203.7,
    });
    expect((await call(PLATFORM, 'PUT', '/api/admin/Apps/GetFundedApps', { forFunding: true, search: tag, officeId: DEMO.lakeside })).json().rowCount).toBe(1);
    expect((await call(DFI, 'PUT', '/api/admin/Apps/GetFundedApps', { forFunding: true })).statusCode).toBe(403);
    expect((await call(DFI, 'PUT', '/api/admin/Apps/GetFundedApps', { search: tag })).json().rowCount).toBe(0);
    expect((await call(OFFICE_ADMIN, 'PUT', '/api/admin/Apps/GetFundedApps', { forFunding: true })).statusCode).toBe(403);
  });

  it('lets only df.admin mark applications funded', async () => {
    for (const as of [DFI, OFFICE_ADMIN, SUPPORT]) {
      expect((await call(as, 'POST', '/api/admin/Apps/MarkAppsFunded', { appIds: [older] })).statusCode, as).toBe(403);
    }
    expect((await app(older)).stage).toBe('SubmittedForFunding');
  });

  it('marks all or nothing: an application not awaiting funding, or a missing one, refuses the whole list', async () => {
    const open = await insertApplication(db(), { officeId: DEMO.brightSmiles, stage: 'ReadyToFinalize' });
    const refused = await call(PLATFORM, 'POST', '/api/admin/Apps/MarkAppsFunded', { appIds: [older, open] });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toContain(`${open} (ReadyToFinalize)`);
    expect((await call(PLATFORM, 'POST', '/api/admin/Apps/MarkAppsFunded', { appIds: [older, 99_999_999] })).statusCode).toBe(404);
    const bad = await call(PLATFORM, 'POST', '/api/admin/Apps/MarkAppsFunded', { appIds: [older], fundedDate: '02/31/2025' });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().errors)).toEqual(['fundedDate']);
    // Funds are released on a day that has come: two days ahead is a day to come in every time zone.
    const ahead = new Date(Date.now() + 2 * 86_400_000);
    const future = `${String(ahead.getUTCMonth() + 1).padStart(2, '0')}/${String(ahead.getUTCDate()).padStart(2, '0')}/${ahead.getUTCFullYear()}`;
    const early = await call(PLATFORM, 'POST', '/api/admin/Apps/MarkAppsFunded', { appIds: [older], fundedDate: future });
    expect(early.statusCode).toBe(400);
    expect(early.json().errors).toEqual({ fundedDate: ['Date cannot be in the future.'] });
    expect((await app(older)).stage).toBe('SubmittedForFunding');
    expect(await logCount(older)).toBe(0);
  });

  it('records funded amount, date and status, and answers the funding file', async () => {
    const headers = { 'idempotency-key': `fund-${tag}` };
    const response = await call(PLATFORM, 'POST', '/api/admin/Apps/MarkAppsFunded', { appIds: [newer, older], fundedDate: '06/03/2025' }, headers);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/csv/);
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="funding-\d{8}T\d{6}\.csv"$/);
    const rows = parseCsv(response.body.replace(/^\uFEFF/, ''));
    expect(rows[0]).toEqual([
      'Application ID', 'Office ID', 'Office Name', 'First Name', 'Last Name', 'Lender', 'Contract ID', 'Loan Amount', 'Funded Amount',
      'Discount Amount', 'Net Funded Amount', 'Funded Date', 'Funding Status', 'Bank Name', 'Bank Account Last 4',
    ]);
    expect(rows.slice(1).map((r) => r[0])).toEqual([String(older), String(newer)]);
    expect(rows[1]!.slice(7, 13)).toEqual(['4000.00', '4000.00', '200.00', '3800.00', '06/03/2025', 'Completed']);
    expect(rows[2]!.slice(7, 13)).toEqual(['1234.56', '1234.56', '30.86', '1203.70', '06/03/2025', 'Completed']);
    expect(rows[1]![2]).toBe('Bright Smiles Dental');

    const [a, b] = [await app(older), await app(newer)];
    expect(a).toMatchObject({ stage: 'Funded', fundedAmount: 400_000, fundingStatus: 'Completed', contractSubStatus: 'FundsReleased' });
    expect(b).toMatchObject({ stage: 'Funded', fundedAmount: 123_456, fundingStatus: 'Completed' });
    expect(a.fundedAt!.toISOString().slice(0, 10)).toBe('2025-06-03');
    const [log] = await db().select().from(appLogs).where(and(eq(appLogs.appId, older), eq(appLogs.message, 'Marked funded')));
    expect(log).toMatchObject({ actor: PLATFORM, data: expect.objectContaining({ before: expect.objectContaining({ stage: 'SubmittedForFunding' }), after: expect.objectContaining({ fundedAmountCents: 400_000, fundedDate: '06/03/2025' }) }) });

    // The same key replays the same file; the same request without it finds them funded.
    const replay = await call(PLATFORM, 'POST', '/api/admin/Apps/MarkAppsFunded', { appIds: [newer, older], fundedDate: '06/03/2025' }, headers);
    expect(replay.statusCode).toBe(200);
    expect(replay.rawPayload.equals(response.rawPayload)).toBe(true);
    expect((await call(PLATFORM, 'POST', '/api/admin/Apps/MarkAppsFunded', { appIds: [newer, older], fundedDate: '06/03/2025' })).statusCode).toBe(409);
    expect(await db().select({ n: count() }).from(appLogs).where(and(inArray(appLogs.appId, [older, newer]), eq(appLogs.message, 'Marked funded')))).toEqual([{ n: 2 }]);
  });

  it('shows the office its funded applications with amount, date and funding status', async () => {
    const list = await call(SUPPORT, 'PUT', '/api/App/GetOfficeFundedApps', { officeId: DEMO.brightSmiles, search: tag, sortBy: 'amount' });
    expect(list.statusCode).toBe(200);
    expect(list.json().results).toEqual([
      expect.objectContaining({ id: newer, fundedAmount: 1234.56, fundedDate: '06/03/2025', fundingStatus: 'Completed', stage: 'Funded', totalRefundedAmount: 0 }),
      expect.objectContaining({ id: older, fundedAmount: 4000, discountAmount: 200, netFundedAmount: 3800 }),
    ]);
    const detail = (await call(SUPPORT, 'GET', `/api/App/GetApp/${older}/false`)).json();
    expect(detail).toMatchObject({ fundedAmount: 4000, fundedDate: '06/03/2025', fundingStatus: 'Completed', statusChip: 'Funded', showRefundButton: true });
    // Funded lists filter on the day of funding.
    const inRange = { officeId: DEMO.brightSmiles, search: tag, fromDate: '06/03/2025', toDate: '06/03/2025' };
    expect((await call(SUPPORT, 'PUT', '/api/App/GetOfficeFundedApps', inRange)).json().rowCount).toBe(2);
    expect((await call(SUPPORT, 'PUT', '/api/App/GetOfficeFundedApps', { ...inRange, fromDate: '06/04/2025', toDate: '12/31/2099' })).json().rowCount).toBe(0);
    expect((await call(SUPPORT, 'PUT', '/api/App/GetOfficeFundedApps', { officeId: DEMO.brightSmiles, search: tag, fundingStatus: 'Processing' })).json().rowCount).toBe(0);
    // The platform's Funded Apps list has them too; the Lakeside one still waits.
    const admin = await call(DFI, 'PUT', '/api/admin/Apps/GetFundedApps', { search: tag });
    expect(admin.json().results.map((r: { id: number }) => r.id).sort()).toEqual([older, newer].sort());
    expect((await call(TPA, 'PUT', '/api/App/GetOfficeFundedApps', { officeId: DEMO.brightSmiles })).statusCode).toBe(404);
    expect((await call(TPA, 'PUT', '/api/App/GetOfficeFundedApps', { officeId: DEMO.lakeside, search: tag })).json().rowCount).toBe(0);
  });
});

describe('the funded applications CSV', () => {
  let tag: string;
  let ids: number[];
  beforeAll(async () => {
    tag = letters();
    ids = [
      await insertApplication(db(), { officeId: DEMO.brightSmiles, stage: 'Funded', firstName: '=HYPERLINK("http://x.example")', lastName: `${tag}, "Jr"`, amount: 123_456, discountRate: 5 }),
      await insertApplication(db(), { officeId: DEMO.brightSmiles, stage: 'Refund', firstName: 'Zoë', lastName: `${tag}o'neil\nline`, amount: 100_000, refundedAmount: 25_050, discountRate: 0 }),
      await insertApplication(db(), { officeId: DEMO.brightSmiles, stage: 'Funded', firstName: '@cmd', lastName: `${tag}plain`, amount: 5, discountRate: 5 }),
    ];
  });

  it('downloads every funded row as RFC 4180 CSV with 2-decimal amounts and neutralised formulas', async () => {
    const response = await call(SALES, 'PUT', '/api/App/GetOfficeFundedAppsCSV/fundedAppsCSV', { officeId: DEMO.brightSmiles, search: tag, sortBy: 'id', pageSize: 1 });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8; header=present');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="funded-apps-${DEMO.brightSmiles}-${new Date().toISOString().slice(0, 10)}.csv"`);
    const body = response.rawPayload.toString('utf8');
    expect(body.startsWith('\uFEFFApplication ID,First Name,Last Name,Lender,')).toBe(true);
    expect(body.endsWith('\r\n')).toBe(true);
    const lines = body.slice(1).split('\r\n');
    // Quotes doubled, fields with a comma, quote or line break quoted, formulas prefixed with an apostrophe.
    expect(lines[1]!.startsWith(`${ids[0]},"'=HYPERLINK(""http://x.example"")","${tag}, ""Jr""",ALLY,ALLY-T`)).toBe(true);
    expect(lines[1]).toContain(',1234.56,1234.56,61.73,1172.83,0.00,');
    const rows = parseCsv(body.slice(1));
    expect(rows).toHaveLength(4); // header and every row: the CSV ignores paging
    expect(rows[1]!.slice(0, 3)).toEqual([String(ids[0]), `'=HYPERLINK("http://x.example")`, `${tag}, "Jr"`]);
    expect(rows[2]!.slice(0, 3)).toEqual([String(ids[1]), 'Zoë', `${tag}o'neil\nline`]);
    expect(rows[2]!.slice(5, 10)).toEqual(['1000.00', '1000.00', '0.00', '1000.00', '250.50']);
    expect(rows[2]!.slice(11)).toEqual(['Completed', 'Refund']);
    expect(rows[3]!.slice(1, 2)).toEqual(["'@cmd"]);
    expect(rows[3]!.slice(5, 9)).toEqual(['0.05', '0.05', '0.00', '0.05']);
    expect(rows[1]![10]).toMatch(/^\d{2}\/\d{2}\/\d{4}$/);
  });

  it("answers 404 for another office's CSV", async () => {
    expect((await call(TPA, 'PUT', '/api/App/GetOfficeFundedAppsCSV/fundedAppsCSV', { officeId: DEMO.brightSmiles })).statusCode).toBe(404);
    expect((await call('pending@demo.test', 'PUT', '/api/App/GetOfficeFundedAppsCSV/fundedAppsCSV', { officeId: DEMO.lakeside })).statusCode).toBe(404);
  });

  it('marks today when no funding date is given', async () => {
    const appId = await insertApplication(db(), { officeId: DEMO.lakeside, stage: 'SubmittedForFunding' });
    const response = await call(PLATFORM, 'POST', '/api/admin/Apps/MarkAppsFunded', { appIds: [appId] });
    expect(response.statusCode).toBe(200);
    expect((await call(TPA, 'GET', `/api/App/GetApp/${appId}/false`)).json().fundedDate).toBe(today());
  });
});
