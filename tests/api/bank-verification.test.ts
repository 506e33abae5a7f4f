import { beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { decryptPii } from '../../server/crypto/pii.ts';
import { achSandboxDeposits, applications, offices } from '../../server/db/schema.ts';
import { DFI, OFFICE_ADMIN, PLATFORM, SUPPORT } from '../support/demo-accounts.ts';
import { harness, type Harness } from '../support/harness.ts';
import { insertApplication } from './apps-fixtures.ts';
import { DEMO } from './examples.ts';
import { submittedOffice, type SubmittedOffice } from './review-fixtures.ts';

/**
 * Bank verification by micro-deposits (decision 0152) and the funding rule it serves: the sandbox sends two deposits
 * and e-mails their 'bank statement'; the office confirms the amounts; three wrong pairs lock verification until a
 * platform admin resets it; funds go to verified accounts only. Every test works on offices it enrolls.
 */

let h: Harness;
const call: Harness['request'] = (...args) => h.request(...args);
const db = () => h.database.db;

const START = '/api/Office/StartBankVerification';
const CONFIRM = '/api/Office/ConfirmBankVerification';
const RESET = (officeId: number) => `/api/admin/Ach/UpsertAchInfo?officeId=${officeId}`;
const MISMATCH_2 = 'The amounts do not match. 2 tries left.';
const MISMATCH_1 = 'The amounts do not match. 1 try left.';
const LOCKED_NOW = 'The amounts do not match. Bank verification is now locked: ask support to reset it.';

const officeRow = async (id: number) => (await db().select().from(offices).where(eq(offices.id, id)))[0]!;
const statements = async (to: string) =>
  (await db().execute<{ subject: string; body: string }>(sql`select subject, body from outbox where recipient = ${to} and subject like 'Bank statement%' order by id`)).rows;

/** The two amounts of the latest statement, in dollars, as the office reads them. */
async function depositsOnStatement(to: string): Promise<[number, number]> {
  const amounts = [...(await statements(to)).at(-1)!.body.matchAll(/\$(0\.\d\d)/g)].map((m) => Number(m[1]));
  expect(amounts).toHaveLength(2);
  return amounts as [number, number];
}

/** A pair that is surely not the deposits: both amounts differ from each deposit (four candidates leave two). */
const wrongPair = ([a, b]: [number, number]): [number, number] => {
  const other = [0.01, 0.02, 0.03, 0.04].filter((x) => x !== a && x !== b);
  return [other[0]!, other[1]!];
};

const confirm = (office: SubmittedOffice, [amount1, amount2]: [number, number], as = office.admin) => call(as, 'POST', CONFIRM, { officeId: office.officeId, amount1, amount2 });

async function approvedOffice(): Promise<SubmittedOffice> {
  const office = await submittedOffice(h);
  const approved = await call(PLATFORM, 'PUT', '/api/admin/Offices/UpdateOfficeStatus', { officeId: office.officeId, status: 'Approved', reason: 'Checked.' });
  expect(approved.statusCode, approved.body).toBe(200);
  return office;
}

beforeAll(async () => {
  h = await harness();
});

describe('micro-deposits, end to end', () => {
  let office: SubmittedOffice;
  let deposits: [number, number];
  beforeAll(async () => {
    office = await approvedOffice();
  });

  it('starts unverified, with three tries', async () => {
    const info = (await call(office.admin, 'GET', `/api/Office/GetOfficeInfo/${office.officeId}`)).json();
    expect(info).toMatchObject({ achVerifyStatus: null, achVerifyTriesLeft: 3, achDepositsSentAtUtc: null, accountNumberLast4: office.accountLast4 });
  });

  it("sends two deposits under $1 and e-mails the sandbox's bank statement to the office's admins", async () => {
    const response = await call(office.admin, 'POST', START, { officeId: office.officeId });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ achVerifyStatus: 'Pending', achProvider: 'sandbox', achVerifyTriesLeft: 3 });
    expect(response.json().achAccountId).toMatch(/^ba_sandbox_/);
    expect(Date.now() - Date.parse(response.json().achDepositsSentAtUtc)).toBeLessThan(60_000);
    const [statement] = await statements(office.admin);
    expect(statement!.body).toContain(`account ending in ${office.accountLast4}`);
    deposits = await depositsOnStatement(office.admin);
    for (const amount of deposits) expect(amount).toBeGreaterThanOrEqual(0.01), expect(amount).toBeLessThanOrEqual(0.99);
    // Kept encrypted: the row holds ciphertext that only the PII key opens (a clear list would have its comma).
    const [row] = await db().select().from(achSandboxDeposits).where(eq(achSandboxDeposits.officeId, office.officeId));
    expect(row!.amountsEnc).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(decryptPii(h.settings.piiKey, row!.amountsEnc)).toBe(deposits.map((dollars) => Math.round(dollars * 100)).join(','));
  });

  it('sends nothing more on a second click while the deposits wait', async () => {
    const again = await call(office.admin, 'POST', START, { officeId: office.officeId });
    expect(again.statusCode).toBe(200);
    expect(await statements(office.admin)).toHaveLength(1);
    expect(await depositsOnStatement(office.admin)).toEqual(deposits);
  });

  it('counts wrong pairs, says how many tries are left, and locks at the third', async () => {
    const wrong = wrongPair(deposits);
    const first = await confirm(office, wrong);
    expect(first.statusCode).toBe(400);
    expect(first.json().errors).toEqual({ amount2: [MISMATCH_2] });
    expect((await confirm(office, [deposits[0], wrong[1]])).json().errors).toEqual({ amount2: [MISMATCH_1] });
    const third = await confirm(office, wrong);
    expect(third.json().errors).toEqual({ amount2: [LOCKED_NOW] });
    expect(await officeRow(office.officeId)).toMatchObject({ achVerifyStatus: 'Locked', achVerifyFailures: 3 });
    expect((await call(office.admin, 'GET', `/api/Office/GetOfficeInfo/${office.officeId}`)).json()).toMatchObject({ achVerifyStatus: 'Locked', achVerifyTriesLeft: 0 });
  });

  it('stays locked: the right amounts, new deposits and another account number change nothing', async () => {
    const right = await confirm(office, deposits);
    expect(right.statusCode).toBe(409);
    expect(right.json().detail).toContain('locked after 3 wrong tries: ask support to reset it');
    expect((await call(office.admin, 'POST', START, { officeId: office.officeId })).statusCode).toBe(409);
    const changed = await call(office.admin, 'POST', '/api/Office/UpsertOffice', {
      id: office.officeId, name: office.name, legalName: `${office.name} PLLC`, phone: '(512) 555-0199', timeZone: 'CT',
      address: { streetAddress: '2400 Congress Ave', city: 'Austin', state: 'TX', zipCode: '78701' }, routingNumber: '021000021', accountNumber: '555566667777',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ achVerifyStatus: 'Locked', accountNumberLast4: '7777' });
  });

  it('is reset by a platform admin (UpsertAchInfo), then new deposits verify the account', async () => {
    const reset = await call(PLATFORM, 'POST', RESET(office.officeId), { achProvider: 'sandbox', achVerifyStatus: 'NotStarted', achDebitStatus: 'NotAuthorized' });
    expect(reset.statusCode, reset.body).toBe(200);
    expect(reset.json()).toMatchObject({ achVerifyStatus: 'NotStarted', achVerifyTriesLeft: 3, achDepositsSentAtUtc: null });
    expect((await call(office.admin, 'POST', START, { officeId: office.officeId })).statusCode).toBe(200);
    expect(await statements(office.admin)).toHaveLength(2);
    const fresh = await depositsOnStatement(office.admin);
    expect((await confirm(office, wrongPair(fresh))).json().errors).toEqual({ amount2: [MISMATCH_2] });
    const verified = await confirm(office, [fresh[1], fresh[0]]);
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json()).toMatchObject({ achVerifyStatus: 'Verified', achVerifyTriesLeft: 3 });
    expect(Date.now() - Date.parse(verified.json().achVerifiedAtUtc)).toBeLessThan(60_000);
  });

  it('answers a repeat once verified unchanged, and refuses new deposits', async () => {
    const again = await confirm(office, [0.5, 0.5]);
    expect(again.statusCode).toBe(200);
    expect(again.json().achVerifyStatus).toBe('Verified');
    const start = await call(office.admin, 'POST', START, { officeId: office.officeId });
    expect(start.statusCode).toBe(409);
    expect(start.json().detail).toBe('The bank account ending in 7777 is already verified.');
  });

  it('starts again when the office changes its bank account', async () => {
    const changed = await call(office.admin, 'POST', '/api/Office/UpsertOffice', {
      id: office.officeId, name: office.name, legalName: `${office.name} PLLC`, phone: '(512) 555-0199', timeZone: 'CT',
      address: { streetAddress: '2400 Congress Ave', city: 'Austin', state: 'TX', zipCode: '78701' }, routingNumber: '021000021', accountNumber: '888899990000',
    });
    expect(changed.json()).toMatchObject({ achVerifyStatus: 'NotStarted', achVerifiedAtUtc: null, achDepositsSentAtUtc: null, achVerifyTriesLeft: 3, accountNumberLast4: '0000' });
    const old = await confirm(office, [0.5, 0.5]);
    expect(old.statusCode).toBe(409);
    expect(old.json().detail).toBe('No deposits are waiting to be confirmed: send the two deposits first.');
  });
});

describe('bad requests', () => {
  let office: SubmittedOffice;
  beforeAll(async () => {
    office = await approvedOffice();
  });

  it('answers amounts out of range or with fractions of a cent with the catalogue words', async () => {
    const errors = async (body: Record<string, unknown>) => (await call(office.admin, 'POST', CONFIRM, { officeId: office.officeId, amount1: 0.1, amount2: 0.2, ...body })).json().errors;
    expect(await errors({ amount1: 1.5 })).toEqual({ amount1: ['This field must have a maximum value of 0.99'] });
    expect(await errors({ amount2: 0 })).toEqual({ amount2: ['This field must have a minimum value of 0.01'] });
    expect(await errors({ amount1: 0.125 })).toEqual({ amount1: ['This field must be numeric.'] });
    expect(await errors({ amount2: undefined })).toEqual({ amount2: ['This field is required.'] });
    expect((await officeRow(office.officeId)).achVerifyFailures).toBe(0);
  });

  it('refuses to confirm before any deposits, and to verify without a bank account or once terminated', async () => {
    expect((await confirm(office, [0.1, 0.2])).statusCode).toBe(409);
    await db().update(offices).set({ bankRoutingNumberEnc: null, bankAccountNumberEnc: null }).where(eq(offices.id, office.officeId));
    const none = await call(office.admin, 'POST', START, { officeId: office.officeId });
    expect([none.statusCode, none.json().detail]).toEqual([409, 'There is no bank account to verify yet: save its routing and account numbers first.']);
    const terminated = await submittedOffice(h);
    await db().update(offices).set({ enrollmentStatus: 'Terminated' }).where(eq(offices.id, terminated.officeId));
    expect((await call(terminated.admin, 'POST', START, { officeId: terminated.officeId })).statusCode).toBe(409);
    expect(await statements(terminated.admin)).toEqual([]);
  });
});

describe('who may verify', () => {
  it("lets only the office's own admin: other offices and platform admins (members of none) get 404, other roles 403", async () => {
    const office = await approvedOffice();
    const body = { officeId: office.officeId };
    expect((await call(OFFICE_ADMIN, 'POST', START, body)).statusCode).toBe(404);
    expect((await call('pending@demo.test', 'POST', CONFIRM, { ...body, amount1: 0.1, amount2: 0.2 })).statusCode).toBe(404);
    expect((await call(office.admin, 'POST', START, { officeId: DEMO.brightSmiles })).statusCode).toBe(404);
    expect((await call(SUPPORT, 'POST', START, { officeId: DEMO.brightSmiles })).statusCode).toBe(403);
    expect((await call(PLATFORM, 'POST', START, body)).statusCode).toBe(404);
    expect((await call(DFI, 'POST', CONFIRM, { ...body, amount1: 0.1, amount2: 0.2 })).statusCode).toBe(404);
    expect((await call(undefined, 'POST', START, body)).statusCode).toBe(401);
    expect(await officeRow(office.officeId)).toMatchObject({ achVerifyStatus: null, achDepositsSentAt: null });
    expect(await statements(office.admin)).toEqual([]);
  });

  it('lets only df.admin reset a verification', async () => {
    const office = await approvedOffice();
    const body = { achProvider: 'sandbox', achVerifyStatus: 'Verified', achDebitStatus: 'Authorized' };
    expect((await call(office.admin, 'POST', RESET(office.officeId), body)).statusCode).toBe(403);
    expect((await call(DFI, 'POST', RESET(office.officeId), body)).statusCode).toBe(403);
    expect((await officeRow(office.officeId)).achVerifyStatus).toBeNull();
  });
});

describe('funding needs a verified bank account', () => {
  it('refuses to mark funded an application of an office whose account is not verified, naming the office', async () => {
    const office = await approvedOffice();
    const appId = await insertApplication(db(), { officeId: office.officeId, stage: 'SubmittedForFunding' });
    const refused = await call(PLATFORM, 'POST', '/api/admin/Apps/MarkAppsFunded', { appIds: [appId] });
    expect(refused.statusCode).toBe(409);
    expect(refused.headers['content-type']).toContain('application/problem+json');
    expect(refused.json().detail).toBe(`${office.name} (#${office.officeId}) cannot be funded: its bank account has not been verified. The office verifies it on its Bank Account page.`);
    expect(refused.json().extensions).toEqual({ officeIds: [office.officeId] });
    const app = (await db().select().from(applications).where(eq(applications.id, appId)))[0]!;
    expect(app).toMatchObject({ stage: 'SubmittedForFunding', fundedAt: null });

    // All or nothing: with a verified office's application beside it, nothing is funded either.
    const verifiedApp = await insertApplication(db(), { officeId: DEMO.brightSmiles, stage: 'SubmittedForFunding' });
    expect((await call(PLATFORM, 'POST', '/api/admin/Apps/MarkAppsFunded', { appIds: [appId, verifiedApp] })).statusCode).toBe(409);
    expect((await db().select().from(applications).where(eq(applications.id, verifiedApp)))[0]!.stage).toBe('SubmittedForFunding');

    await call(office.admin, 'POST', START, { officeId: office.officeId });
    await confirm(office, await depositsOnStatement(office.admin));
    const funded = await call(PLATFORM, 'POST', '/api/admin/Apps/MarkAppsFunded', { appIds: [appId, verifiedApp] });
    expect(funded.statusCode, funded.body).toBe(200);
  });

  it('keeps the demo data fundable: the approved demo offices are verified, the pending one is not', async () => {
    const status = async (id: number) => (await officeRow(id)).achVerifyStatus;
    expect([await status(DEMO.brightSmiles), await status(DEMO.lakeside), await status(DEMO.pendingOffice)]).toEqual(['Verified', 'Verified', null]);
  });
});
