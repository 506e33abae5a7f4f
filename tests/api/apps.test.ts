import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import { applications, appLogs, appNotes, files, lenderTransactions, securityEvents } from '../../server/db/schema.ts';
import { OFFICE_ADMIN, SUPPORT, TPA, SALES, PLATFORM, DFI } from '../support/demo-accounts.ts';
import { harness, type Harness } from '../support/harness.ts';
import { SAMPLE, uploadBody } from '../support/multipart.ts';
import { insertApplication, insertLenderTransaction, insertStipulation } from './apps-fixtures.ts';
import { DEMO } from './examples.ts';
import { ACTIVE_STAGES, type Stage } from '../../server/domain/applications/status.ts';
import { jobsSettled } from '../support/jobs.ts';

/**
 * Application lists, search and the detail view's follow-up calls (notes, files, stipulations,
 * lenders, reference code, lender transactions, audit logs) through the HTTP API, as the demo users.
 * Every test works on applications it inserts; the demo applications are only read.
 */

let h: Harness;

const MESSAGES = {
  loanExceedsApproved: 'Loan amount cannot exceed the approved amount.',
  fundingExceedsLoan: 'Funding amount cannot exceed the loan amount.',
  refundExceeds: 'Refund amount cannot exceed the original loan amount.',
  code: 'Can only contain alphabets, numbers and underscore with no spaces.',
  required: 'This field is required.',
};

const call: Harness['request'] = (...args) => h.request(...args);

const db = () => h.database.db;
const app = async (id: number) => (await db().select().from(applications).where(eq(applications.id, id)))[0]!;
const countOf = async (table: typeof appNotes | typeof files | typeof lenderTransactions | typeof appLogs, appId: number) =>
  (await db().select({ n: count() }).from(table).where(eq(table.appId, appId)))[0]!.n;
const securityEventCount = async () => (await db().select({ n: count() }).from(securityEvents))[0]!.n;
/** Random letters: names the demo data cannot hold. */
const letters = () => [...randomBytes(6)].map((b) => String.fromCharCode(97 + (b % 26))).join('');

beforeAll(async () => {
  h = await harness();
});

describe('application lists and search', () => {
  let tag: string;
  let active: number;
  let funded: number;
  let declined: number;
  let other: number;

  beforeAll(async () => {
    tag = letters();
    const last = `${tag[0]!.toUpperCase()}${tag.slice(1)}smith`;
    active = await insertApplication(db(), { officeId: DEMO.brightSmiles, stage: 'OfferSelected', firstName: 'John', lastName: last });
    funded = await insertApplication(db(), { officeId: DEMO.brightSmiles, stage: 'Funded', firstName: 'Jane', lastName: last });
    declined = await insertApplication(db(), { officeId: DEMO.brightSmiles, stage: 'Declined', firstName: 'Jim', lastName: last });
    other = await insertApplication(db(), { officeId: DEMO.lakeside, stage: 'OfferSelected', firstName: 'Jack', lastName: last });
  });

  const home = (as: string, body: Record<string, unknown>) => call(as, 'PUT', '/api/App/GetOfficeApps', { officeId: DEMO.brightSmiles, ...body });
  const ids = (response: { json(): { results: { id: number }[] } }) => response.json().results.map((r) => r.id);

  it('finds an applicant by the start of the last name alone, of "first last", or by id', async () => {
    expect(ids(await home(SUPPORT, { search: tag.slice(0, 4) }))).toEqual([active]);
    expect(ids(await home(SUPPORT, { search: tag.toUpperCase() }))).toEqual([active]);
    expect(ids(await home(SUPPORT, { search: `john ${tag.slice(0, 3)}` }))).toEqual([active]);
    expect(ids(await home(SUPPORT, { search: `  John   ${tag}  ` }))).toEqual([active]);
    expect(ids(await home(SUPPORT, { search: String(active) }))).toContain(active);
    // Prefixes only: the middle of a name is no match, and LIKE wildcards are plain characters.
    expect(ids(await home(SUPPORT, { search: tag.slice(2) }))).toEqual([]);
    expect(ids(await home(SUPPORT, { search: `${tag.slice(0, 2)}%` }))).toEqual([]);
  });

  it('lists the active stages on Home, and any stage the query names (the search page)', async () => {
    const everyStage = ['NotApplicable', 'OfferSelected', 'SigningRequired', 'ReadyToFinalize', 'Finalized', 'SubmittedForFunding', 'Funded', 'NeedsAttention', 'Expired', 'Cancelled', 'Refund', 'Review', 'Declined'];
    expect(ids(await home(OFFICE_ADMIN, { search: tag }))).toEqual([active]);
    expect(new Set(ids(await home(OFFICE_ADMIN, { search: tag, stages: everyStage })))).toEqual(new Set([active, funded, declined]));
    expect(ids(await home(OFFICE_ADMIN, { search: tag, stages: ['Funded'] }))).toEqual([funded]);
    const row = (await home(OFFICE_ADMIN, { search: tag, stages: ['Funded'] })).json().results[0];
    expect(row).toMatchObject({ stage: 'Funded', statusChip: 'Funded', fundingStatus: 'Completed', showRefundButton: true, showFinalizeButton: false });
  });

  it('keeps Inactive Apps and the kanban to their own stages', async () => {
    const inactive = await call(SALES, 'PUT', '/api/App/GetOfficeInactiveApps', { officeId: DEMO.brightSmiles, search: tag });
    expect(ids(inactive)).toEqual([declined]);
    expect(inactive.json().results[0]).toMatchObject({ statusChip: 'Inactive', showResubmitButton: true, showSubmitToLendersButton: true });
    expect(ids(await call(SALES, 'PUT', '/api/App/GetOfficeInactiveApps', { officeId: DEMO.brightSmiles, search: tag, stages: ['Funded'] }))).toEqual([]);
    const lanes = (await call(SALES, 'PUT', '/api/App/GetOfficeAppsByStage', { officeId: DEMO.brightSmiles, search: tag })).json() as { stage: string; count: number; results: { id: number }[] }[];
    expect(lanes.find((l) => l.stage === 'OfferSelected')).toMatchObject({ count: 1, results: [expect.objectContaining({ id: active })] });
    expect(lanes.every((l) => l.stage === 'OfferSelected' || l.count === 0)).toBe(true);
    expect(lanes.every((l) => l.results.length === Math.min(l.count, 25))).toBe(true);
    expect(lanes.some((l) => l.stage === 'Funded')).toBe(false);
  });

  it("writes a row's and a card's instants as the record holds them, to the millisecond, in UTC (the database writes them)", async () => {
    // Microseconds a Date would cut, and an expiry that is empty.
    await db().update(applications).set({ createdAt: new Date('2026-01-01T23:59:59.999Z'), expiration: null }).where(eq(applications.id, active));
    await db().execute(sql`update applications set updated_at = '2026-03-08 02:30:00.123987-05' where id = ${active}`);
    const stored = await app(active);
    const row = (await home(OFFICE_ADMIN, { search: tag })).json().results[0];
    expect(row).toMatchObject({ id: active, createdAtUtc: '2026-01-01T23:59:59.999Z', updatedAtUtc: '2026-03-08T07:30:00.123Z', expirationDateUtc: null });
    expect(row.updatedAtUtc).toBe(stored.updatedAt.toISOString());
    const lanes = (await call(OFFICE_ADMIN, 'PUT', '/api/App/GetOfficeAppsByStage', { officeId: DEMO.brightSmiles, search: tag })).json() as { results: { id: number; updatedAtUtc: string }[] }[];
    expect(lanes.flatMap((l) => l.results).find((card) => card.id === active)?.updatedAtUtc).toBe('2026-03-08T07:30:00.123Z');
  });

  it('keeps each office to its own applications', async () => {
    expect((await call(TPA, 'PUT', '/api/App/GetOfficeApps', { officeId: DEMO.brightSmiles, search: tag })).statusCode).toBe(404);
    expect(ids(await call(TPA, 'PUT', '/api/App/GetOfficeApps', { officeId: DEMO.lakeside, search: tag }))).toEqual([other]);
  });

  it('gives platform admins every office, filtered by officeId, and refuses office users', async () => {
    const all = await call(DFI, 'PUT', '/api/admin/Apps/GetApps', { search: tag, sortBy: 'officeName' });
    expect(all.statusCode).toBe(200);
    expect(all.json()).toMatchObject({ rowCount: 2, currentPage: 1, nextPage: null });
    expect(new Set(ids(all))).toEqual(new Set([active, other]));
    expect(all.json().results.map((r: { officeName: string }) => r.officeName)).toEqual(['Bright Smiles Dental', 'Lakeside Family Dental']);
    expect(ids(await call(PLATFORM, 'PUT', '/api/admin/Apps/GetApps', { search: tag, officeId: DEMO.lakeside }))).toEqual([other]);
    expect(ids(await call(PLATFORM, 'PUT', '/api/admin/Apps/GetApps', { search: tag, stages: ['Funded', 'Declined'] })).sort()).toEqual([funded, declined].sort());
    expect(ids(await call(DFI, 'PUT', '/api/admin/Apps/GetInactiveApps', { search: tag }))).toEqual([declined]);
    const paged = await call(DFI, 'PUT', '/api/admin/Apps/GetApps', { search: tag, pageSize: 1, sortBy: 'id' });
    expect(paged.json()).toMatchObject({ rowCount: 2, nextPage: 2, results: [expect.objectContaining({ id: Math.min(active, other) })] });
    // A page past the end has no row to carry the count; it is still the whole count.
    const beyond = await call(DFI, 'PUT', '/api/admin/Apps/GetApps', { search: tag, pageSize: 1, page: 3, sortBy: 'id' });
    expect(beyond.json()).toMatchObject({ rowCount: 2, currentPage: 3, nextPage: null, results: [] });
    for (const as of [OFFICE_ADMIN, SUPPORT]) expect((await call(as, 'PUT', '/api/admin/Apps/GetApps', {})).statusCode, as).toBe(403);
  });

  it('pages a search newest first, each row as whole as the list without a search shows it (decision 0145)', async () => {
    const name = letters();
    const created: number[] = [];
    for (const amount of [100_000, 200_000, 300_000]) {
      created.push(await insertApplication(db(), { officeId: DEMO.brightSmiles, stage: 'OfferSelected', firstName: 'Ann', lastName: name, amount }));
    }
    const search = (page: number) => call(SUPPORT, 'PUT', '/api/App/GetOfficeApps', { officeId: DEMO.brightSmiles, search: name, pageSize: 2, page });
    const first = (await search(1)).json();
    const second = (await search(2)).json();
    expect(first).toMatchObject({ rowCount: 3, currentPage: 1, nextPage: 2 });
    expect(second).toMatchObject({ rowCount: 3, currentPage: 2, nextPage: null });
    expect([...first.results, ...second.results].map((r: { id: number }) => r.id)).toEqual([...created].reverse());
    const unfiltered = (await call(SUPPORT, 'PUT', '/api/App/GetOfficeApps', { officeId: DEMO.brightSmiles, pageSize: 3 })).json();
    expect(unfiltered.results).toEqual(first.results.concat(second.results));
  });

  it('counts a list without a search apart from its page (decision 0144), as many as the database holds', async () => {
    const inDatabase = async (officeId?: number, stages: readonly Stage[] = ACTIVE_STAGES) =>
      (await db().select({ n: count() }).from(applications).where(and(
        officeId === undefined ? undefined : eq(applications.officeId, officeId),
        inArray(applications.stage, [...stages]),
      )))[0]!.n;
    const office = await home(SUPPORT, { pageSize: 2, sortBy: 'amount' });
    expect(office.json()).toMatchObject({ rowCount: await inDatabase(DEMO.brightSmiles), currentPage: 1, nextPage: 2 });
    expect(office.json().results).toHaveLength(2);
    const everyOffice = await call(DFI, 'PUT', '/api/admin/Apps/GetApps', { pageSize: 3 });
    expect(everyOffice.json()).toMatchObject({ rowCount: await inDatabase(), nextPage: 2 });
    const beyond = await home(SUPPORT, { pageSize: 2, page: 10_000 });
    expect(beyond.json()).toMatchObject({ rowCount: await inDatabase(DEMO.brightSmiles), results: [] });
    const funded = await call(SUPPORT, 'PUT', '/api/App/GetOfficeApps', { officeId: DEMO.brightSmiles, stages: ['Funded'], pageSize: 1 });
    expect(funded.json().rowCount).toBe(await inDatabase(DEMO.brightSmiles, ['Funded']));
    expect(funded.json().rowCount).toBeGreaterThan(0);
  });
});

describe('notes', () => {
  let appId: number;
  let foreignApp: number;
  beforeAll(async () => {
    appId = await insertApplication(db(), { officeId: DEMO.brightSmiles, stage: 'Review', firstName: 'Nora', lastName: 'Notes' });
    foreignApp = await insertApplication(db(), { officeId: DEMO.lakeside, stage: 'Review', firstName: 'Nick', lastName: 'Notes' });
  });

  it('adds notes, lists them newest first with their author, and lets the author edit one', async () => {
    const first = await call(SUPPORT, 'PUT', '/api/App/UpsertAppNote', { appId, note: 'Patient prefers mornings.' });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ appId, note: 'Patient prefers mornings.', createdBy: 'Sam Ortiz', createdByUserId: await h.userId(SUPPORT), updatedAtUtc: null });
    const second = await call(SALES, 'PUT', '/api/App/UpsertAppNote', { appId, note: 'Called back.' });
    const list = await call(SALES, 'PUT', `/api/App/GetAppNotes?appId=${appId}`);
    expect(list.json().map((n: { id: number }) => n.id)).toEqual([second.json().id, first.json().id]);

    const edited = await call(SUPPORT, 'PUT', '/api/App/UpsertAppNote', { appId, id: first.json().id, note: 'Patient prefers mornings, before 10.' });
    expect(edited.json()).toMatchObject({ id: first.json().id, note: 'Patient prefers mornings, before 10.' });
    expect(edited.json().updatedAtUtc).not.toBeNull();
    const log = await db().select().from(appLogs).where(and(eq(appLogs.appId, appId), eq(appLogs.message, 'Note edited')));
    expect(log[0]).toMatchObject({ actor: SUPPORT, data: expect.objectContaining({ before: { note: 'Patient prefers mornings.' } }) });
  });

  it("refuses an edit of another user's note, and a note of another application", async () => {
    const note = (await call(SUPPORT, 'PUT', '/api/App/UpsertAppNote', { appId, note: 'Mine.' })).json();
    const refused = await call(SALES, 'PUT', '/api/App/UpsertAppNote', { appId, id: note.id, note: 'Yours now.' });
    expect(refused.statusCode).toBe(403);
    const foreign = (await call(TPA, 'PUT', '/api/App/UpsertAppNote', { appId: foreignApp, note: 'Lakeside note.' })).json();
    const crossed = await call(OFFICE_ADMIN, 'PUT', '/api/App/UpsertAppNote', { appId, id: foreign.id, note: 'Moved.' });
    expect(crossed.statusCode).toBe(404);
    const [stored] = await db().select().from(appNotes).where(eq(appNotes.id, foreign.id));
    expect(stored).toMatchObject({ appId: foreignApp, note: 'Lakeside note.' });
  });

  it("answers 404 for another office's application and writes nothing", async () => {
    const before = [await countOf(appNotes, foreignApp), await securityEventCount()];
    expect((await call(SUPPORT, 'PUT', '/api/App/UpsertAppNote', { appId: foreignApp, note: 'Not mine.' })).statusCode).toBe(404);
    expect((await call(SUPPORT, 'PUT', `/api/App/GetAppNotes?appId=${foreignApp}`)).statusCode).toBe(404);
    expect(await countOf(appNotes, foreignApp)).toBe(before[0]);
    expect(await securityEventCount()).toBe(before[1]! + 2);
  });
});

describe('files', () => {
  let appId: number;
  let foreignApp: number;
  beforeAll(async () => {
    appId = await insertApplication(db(), { officeId: DEMO.brightSmiles, stage: 'Review', firstName: 'Fiona', lastName: 'Files' });
    foreignApp = await insertApplication(db(), { officeId: DEMO.lakeside, stage: 'Review', firstName: 'Finn', lastName: 'Files' });
  });

  const upload = (as: string, model: object, parts: Parameters<typeof uploadBody>[1]) => {
    const body = uploadBody(model, parts);
    return h.call({ method: 'POST', url: '/api/App/UploadFile', as, payload: body.payload, headers: body.headers });
  };

  it('keeps an uploaded document on the application, typed by its bytes, readable by the office only', async () => {
    const response = await upload(SUPPORT, { appId, fileType: 'ProofOfIncome', description: 'Pay stub' }, [{ name: 'file', fileName: 'scans/2024/stub.pdf', contentType: 'application/octet-stream', data: SAMPLE.pdf }]);
    expect(response.statusCode, response.body).toBe(200);
    const file = response.json();
    expect(file).toMatchObject({ appId, fileName: 'stub.pdf', fileType: 'ProofOfIncome', contentType: 'application/pdf', size: SAMPLE.pdf.length, description: 'Pay stub', uploadedBy: 'Sam Ortiz' });
    const image = await upload(SALES, { appId }, [{ name: 'file', fileName: 'id.jpg', contentType: 'image/jpeg', data: SAMPLE.jpeg }]);
    expect(image.json()).toMatchObject({ fileType: 'Other', description: null, contentType: 'image/jpeg' });

    const list = await call(SALES, 'PUT', `/api/App/GetAppFiles?appId=${appId}`);
    expect(list.json().map((f: { id: string }) => f.id)).toEqual([image.json().id, file.id]);
    const content = await call(SUPPORT, 'GET', `/api/Files/GetContent/${file.id}`);
    expect(content.statusCode).toBe(200);
    expect(content.rawPayload.equals(SAMPLE.pdf)).toBe(true);
    expect((await call(TPA, 'GET', `/api/Files/GetContent/${file.id}`)).statusCode).toBe(404);
    expect(await db().select({ actor: appLogs.actor }).from(appLogs).where(and(eq(appLogs.appId, appId), eq(appLogs.message, 'File uploaded')))).toHaveLength(2);
  });

  it('refuses other types, empty files, a missing file and files over the limit, with clear errors', async () => {
    const before = await countOf(files, appId);
    const html = await upload(SUPPORT, { appId }, [{ name: 'file', fileName: 'stub.pdf', contentType: 'application/pdf', data: SAMPLE.html }]);
    expect(html.statusCode).toBe(400);
    expect(html.json().errors).toEqual({ file: ['Only PDF, PNG, JPEG or HEIC files are accepted.'] });
    const empty = await upload(SUPPORT, { appId }, [{ name: 'file', fileName: 'empty.pdf', contentType: 'application/pdf', data: Buffer.alloc(0) }]);
    expect(empty.json().errors).toEqual({ file: ['The file is empty.'] });
    const missing = await upload(SUPPORT, { appId }, []);
    expect(missing.json().errors).toEqual({ file: [MESSAGES.required] });
    const big = await upload(SUPPORT, { appId }, [{ name: 'file', fileName: 'big.pdf', contentType: 'application/pdf', data: Buffer.concat([SAMPLE.pdf, Buffer.alloc(h.settings.uploadLimit)]) }]);
    expect(big.statusCode).toBe(413);
    expect(await countOf(files, appId)).toBe(before);
  });

  it("answers 404 for another office's application and stores nothing", async () => {
    const response = await upload(SUPPORT, { appId: foreignApp }, [{ name: 'file', fileName: 'x.pdf', contentType: 'application/pdf', data: SAMPLE.pdf }]);
    expect(response.statusCode).toBe(404);
    expect((await call(SUPPORT, 'PUT', `/api/App/GetAppFiles?appId=${foreignApp}`)).statusCode).toBe(404);
    expect(await countOf(files, foreignApp)).toBe(0);
  });
});

describe('stipulations, lenders and the reference code', () => {
  let appId: number;
  let foreignApp: number;
  beforeAll(async () => {
    appId = await insertApplication(db(), { officeId: DEMO.brightSmiles, stage: 'Review', firstName: 'Stella', lastName: 'Stips' });
    foreignApp = await insertApplication(db(), { officeId: DEMO.lakeside, stage: 'OfferSelected', firstName: 'Stan', lastName: 'Stips' });
    await insertStipulation(db(), appId, 'Proof of income');
  });

  it("lists the lenders' conditions to the office and to the borrower, not to another office", async () => {
    const stips = await call(SALES, 'GET', `/api/App/GetAppStips/${appId}`);
    expect(stips.json()).toEqual([expect.objectContaining({ name: 'Proof of income', isRequired: true, documentId: null, isPhotoIdUploaded: false })]);
    expect((await h.call({ method: 'GET', url: `/api/App/GetAppStips/${appId}`, borrowerOf: appId })).statusCode).toBe(200);
    expect((await h.call({ method: 'GET', url: `/api/App/GetAppStips/${appId}`, borrowerOf: foreignApp })).statusCode).toBe(404);
    expect((await call(TPA, 'GET', `/api/App/GetAppStips/${appId}`)).statusCode).toBe(404);
  });

  it("lists each lender's answer with its offers", async () => {
    const answers = await call(OFFICE_ADMIN, 'PUT', `/api/App/GetAppLenders?appId=${foreignApp}`);
    expect(answers.json()).toEqual([{ code: 'ally', name: 'Ally Lending', status: 'Approved', adverseActionReason: null, offerCount: 1 }]);
  });

  it('takes one reference code of 3 to 25 word characters on an open application', async () => {
    const bad = await call(SUPPORT, 'POST', '/api/App/AddReferenceCode', { appId, referenceCode: 'chart 12' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual({ referenceCode: [MESSAGES.code] });
    const added = await call(SUPPORT, 'POST', '/api/App/AddReferenceCode', { appId, referenceCode: 'CHART_12' });
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json()).toMatchObject({ id: appId, referenceCode: 'CHART_12', showAddReferenceCodeButton: false });
    // The button is gone, so the call is refused too (decision 0006).
    const again = await call(SUPPORT, 'POST', '/api/App/AddReferenceCode', { appId, referenceCode: 'CHART_13' });
    expect(again.statusCode).toBe(409);
    expect((await app(appId)).referenceCode).toBe('CHART_12');
    const inactive = await insertApplication(db(), { officeId: DEMO.brightSmiles, stage: 'Cancelled' });
    expect((await call(SUPPORT, 'POST', '/api/App/AddReferenceCode', { appId: inactive, referenceCode: 'CHART_14' })).statusCode).toBe(409);
    expect((await call(SUPPORT, 'POST', '/api/App/AddReferenceCode', { appId: foreignApp, referenceCode: 'CHART_15' })).statusCode).toBe(404);
    expect((await app(foreignApp)).referenceCode).toBeNull();
  });
});

describe('lender transactions', () => {
  let awaiting: number;
  let fundedApp: number;
  let foreignApp: number;
  beforeAll(async () => {
    awaiting = await insertApplication(db(), { officeId: DEMO.brightSmiles, stage: 'SubmittedForFunding', approvedAmount: 500_000, amount: 450_000 });
    fundedApp = await insertApplication(db(), { officeId: DEMO.brightSmiles, stage: 'Funded', amount: 100_000, refundedAmount: 40_000 });
    foreignApp = await insertApplication(db(), { officeId: DEMO.lakeside, stage: 'SubmittedForFunding' });
  });

  const submit = (as: string, body: object) => call(as, 'POST', '/api/App/SubmitTrans', body);

  it('sends a funding request to the lender (funding Processing) and cancels it (back to Initiated)', async () => {
    const over = await submit(SUPPORT, { appId: awaiting, type: 'Funding', amount: 5000.01 });
    expect(over.statusCode).toBe(400);
    expect(over.json().errors).toEqual({ amount: [MESSAGES.loanExceedsApproved] });
    const aboveLoan = await submit(SUPPORT, { appId: awaiting, type: 'Funding', amount: 4500.01 });
    expect(aboveLoan.json().errors).toEqual({ amount: [MESSAGES.fundingExceedsLoan] });
    const sent = await submit(SUPPORT, { appId: awaiting, type: 'Funding', amount: 4500, notes: 'Fund at the loan amount.' });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toMatchObject({ appId: awaiting, officeId: DEMO.brightSmiles, lenderCode: 'ally', type: 'Funding', amount: 4500, status: 'OfficeFundsSubmitted', notes: 'Fund at the loan amount.', createdBy: 'Sam Ortiz' });
    expect((await app(awaiting)).fundingStatus).toBe('Processing');
    expect((await call(SALES, 'GET', `/api/App/GetApp/${awaiting}/false`)).json().fundingStatus).toBe('Processing');
    expect((await submit(OFFICE_ADMIN, { appId: awaiting, type: 'Funding', amount: 4500 })).statusCode).toBe(409);

    const listed = await call(SALES, 'GET', `/api/App/GetLenderTrans/${awaiting}`);
    expect(listed.json().map((t: { id: number }) => t.id)).toEqual([sent.json().id]);
    const cancelled = await call(OFFICE_ADMIN, 'PUT', '/api/App/CancelTrans', { appId: awaiting, transactionId: sent.json().id, reason: 'Wrong amount' });
    expect(cancelled.json()).toMatchObject({ id: sent.json().id, status: 'Cancelled' });
    expect((await app(awaiting)).fundingStatus).toBe('Initiated');
    expect((await call(OFFICE_ADMIN, 'PUT', '/api/App/CancelTrans', { appId: awaiting, transactionId: sent.json().id })).statusCode).toBe(409);

    const logs = await db().select().from(appLogs).where(and(eq(appLogs.appId, awaiting), eq(appLogs.kind, 'Event'))).orderBy(asc(appLogs.id));
    expect(logs.map((l) => l.message)).toEqual(['Lender transaction submitted', 'Lender transaction cancelled']);
    expect(logs[0]!.data).toMatchObject({ amountCents: 450_000, before: { fundingStatus: 'Initiated' }, after: { fundingStatus: 'Processing' } });
    expect(logs[1]).toMatchObject({ actor: OFFICE_ADMIN, data: expect.objectContaining({ reason: 'Wrong amount', before: expect.objectContaining({ status: 'Submitted' }) }) });
  });

  it('keeps a refund at the lender within what is left of the loan', async () => {
    const over = await submit(SUPPORT, { appId: fundedApp, type: 'Refund', amount: 600.01 });
    expect(over.json().errors).toEqual({ amount: [MESSAGES.refundExceeds] });
    expect((await submit(SUPPORT, { appId: fundedApp, type: 'Refund', amount: 600 })).statusCode).toBe(200);
    expect((await submit(SUPPORT, { appId: fundedApp, type: 'Refund', amount: 0.01 })).json().errors).toEqual({ amount: [MESSAGES.refundExceeds] });
    // Funding a funded loan again makes no sense.
    expect((await submit(SUPPORT, { appId: fundedApp, type: 'Funding', amount: 1 })).statusCode).toBe(409);
  });

  it('refuses roles without money rights, other offices and transactions of another application', async () => {
    const foreignTx = await insertLenderTransaction(db(), foreignApp, 'Funding', 100_000);
    expect((await submit(SALES, { appId: awaiting, type: 'Adjustment', amount: 10 })).statusCode).toBe(403);
    expect((await submit(TPA, { appId: foreignApp, type: 'Adjustment', amount: 10 })).statusCode).toBe(403);
    expect((await submit(SUPPORT, { appId: foreignApp, type: 'Adjustment', amount: 10 })).statusCode).toBe(404);
    expect((await call(SUPPORT, 'PUT', '/api/App/CancelTrans', { appId: foreignApp, transactionId: foreignTx })).statusCode).toBe(404);
    // An application the caller may touch does not open another's transaction.
    expect((await call(SUPPORT, 'PUT', '/api/App/CancelTrans', { appId: awaiting, transactionId: foreignTx })).statusCode).toBe(404);
    const [row] = await db().select().from(lenderTransactions).where(eq(lenderTransactions.id, foreignTx));
    expect(row!.status).toBe('Submitted');
    expect(await countOf(lenderTransactions, foreignApp)).toBe(1);
    const noLender = await insertApplication(db(), { officeId: DEMO.brightSmiles, stage: 'Review' });
    expect((await submit(SUPPORT, { appId: noLender, type: 'Adjustment', amount: 10 })).statusCode).toBe(409);
  });
});

describe('audit logs', () => {
  it('shows platform admins the event, decision and contract logs, with who, when and what changed', async () => {
    const appId = await insertApplication(db(), { officeId: DEMO.brightSmiles, stage: 'ReadyToFinalize', approvedAmount: 300_000, amount: 250_000 });
    await db().insert(appLogs).values({ appId, kind: 'Decision', message: 'Ally Lending: Approved', data: { lender: 'ally', status: 'Approved', approvedAmountCents: 300_000 }, actor: 'system' });
    expect((await call(SUPPORT, 'PUT', '/api/App/FinalizeApp', { appId, loanAmount: 2450 })).statusCode).toBe(200);
    // The lender is told by jobs (decision 0262): their lines are the audit's too.
    await jobsSettled(db());

    const response = await call(DFI, 'PUT', `/api/admin/Apps/GetAppAuditLogs?id=${appId}`);
    expect(response.statusCode).toBe(200);
    const logs = response.json();
    expect(logs.appId).toBe(appId);
    expect(logs.events).toEqual([
      expect.objectContaining({ kind: 'Event', action: 'Application finalized', userName: 'Sam Ortiz' }),
      expect.objectContaining({ kind: 'Event', action: expect.stringMatching(/^Finalized at Ally Lending \(contract ALLY-T\d+\)$/) }),
      expect.objectContaining({ kind: 'Event', action: expect.stringMatching(/^Funding requested from Ally Lending \(reference ALLY-T\d+-F\)$/) }),
    ]);
    // What changed, in words: no JSON, no ids (issue 16).
    expect(logs.events[0].details).toBe(
      'stage: Ready to finalize → Submitted for funding; amount: $2,500.00 → $2,450.00; finalized: no → yes; funding status: none → Initiated; signed amount: $2,500.00; approved amount: $3,000.00',
    );
    expect(logs.events[2].details).toMatch(/^lender: Ally Lending; accepted: yes; reference: ALLY-T\d+-F$/);
    expect(logs.decisions[0].details).toBe('lender: Ally Lending; status: Approved; approved amount: $3,000.00');
    expect(Date.parse(logs.events[0].createdAtUtc)).toBeGreaterThan(Date.now() - 60_000);
    expect(logs.decisions).toEqual([expect.objectContaining({ lenderCode: 'ally', lenderName: 'Ally Lending', decisionStatus: 'Approved', approvedAmount: 3000, requestId: `ALLY-A${appId}` })]);
    expect(logs.contracts.map((c: { stage: string }) => c.stage)).toEqual(['Finalized', 'SubmittedForFunding']);
  });

  it('reads the demo logs, and is for platform admins only', async () => {
    const [demo] = await db().select({ id: applications.id }).from(applications).where(and(eq(applications.officeId, DEMO.brightSmiles), eq(applications.stage, 'Funded'))).orderBy(applications.id).limit(1);
    const response = await call(PLATFORM, 'PUT', `/api/admin/Apps/GetAppAuditLogs?id=${demo!.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json().events.length).toBeGreaterThan(0);
    expect(response.json().contracts.length).toBeGreaterThan(0);
    expect((await call(OFFICE_ADMIN, 'PUT', `/api/admin/Apps/GetAppAuditLogs?id=${demo!.id}`)).statusCode).toBe(403);
    expect((await call(PLATFORM, 'PUT', '/api/admin/Apps/GetAppAuditLogs?id=99999999')).statusCode).toBe(404);
  });
});
