import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { and, count, eq } from 'drizzle-orm';
import { decryptPii } from '../../server/crypto/pii.ts';
import { files, lenders, officeLenders, officeOwners, offices, securityEvents, userOffices, users } from '../../server/db/schema.ts';
import { contentDisposition } from '../../server/domain/files/content.ts';
import { issueLenderESignToken } from '../../server/domain/offices/lenders.ts';
import { harness, type Harness } from '../support/harness.ts';
import { SAMPLE, uploadBody } from '../support/multipart.ts';
import { DEMO } from './examples.ts';

/**
 * Office enrollment and administration through the HTTP API. The suite shares one database with the
 * other API tests: every test works on offices and users it creates, and only reads the demo offices.
 */

let h: Harness;
const MESSAGES = {
  ownerAddressDiffers: "The owner's address must differ from the office street address.",
  webAddress: 'This field must be a web address starting with https:// or http://.',
  ownershipTotal: 'Must total to 100. Please add all owners.',
  ownerForPhotoId: 'Please select the owner for whom you are uploading a photo-id.',
  homeOrMobilePhone: 'Please enter a home or mobile phone.',
  code: 'Can only contain alphabets, numbers and underscore with no spaces.',
  invalidFormat: 'This field is not in the expected format.',
  notAllowedValue: 'This field must be one of the allowed values.',
};

const ADDRESS = { streetAddress: '2400 Congress Ave', suiteNo: 'Suite 200', city: 'Austin', state: 'TX', zipCode: '78701' };

/** A staff user of our own, with no office yet (like newoffice@demo.test, which other tests rely on). */
async function newUser(): Promise<string> {
  const email = `enroll-${randomBytes(5).toString('hex')}@offices.test`;
  await h.database.db.insert(users).values({ email, firstName: 'Pat', lastName: 'Enroller', role: 'admin', title: 'Practice Manager' });
  return email;
}

const profile = (id: number, extra: Record<string, unknown> = {}) => ({
  id,
  name: 'Congress Avenue Dental',
  legalName: 'Congress Avenue Dental PLLC',
  phone: '(512) 555-0199',
  address: ADDRESS,
  timeZone: 'CT',
  category: 'Dental',
  businessType: 'LLC',
  taxId: '74-1234567',
  ...extra,
});

const owner = (extra: Record<string, unknown> = {}) => ({
  firstName: 'Maria',
  lastName: "O'Neil",
  email: 'maria@congress.example',
  mobilePhone: '(512) 555-0111',
  dob: '07/04/1976',
  ssn: '123-45-6789',
  ownership: 100,
  address: { streetAddress: '9 Hillside Dr', city: 'Austin', state: 'TX', zipCode: '78704' },
  ...extra,
});

const call: Harness['request'] = (...args) => h.request(...args);

async function upload(as: string | undefined, url: string, body: ReturnType<typeof uploadBody>, headers: Record<string, string> = {}) {
  return h.call({ method: 'POST', url, as, payload: body.payload, headers: { ...body.headers, ...headers } });
}

/** A new user enrolls a new office (id 0); answers both. */
async function enrolled(extra: Record<string, unknown> = {}): Promise<{ email: string; officeId: number }> {
  const email = await newUser();
  const response = await call(email, 'POST', '/api/Office/UpsertOffice', profile(0, extra));
  expect(response.statusCode, response.body).toBe(200);
  return { email, officeId: response.json().id };
}

/** Uploads what an enrollment needs (decision 0148): a W-9, a voided check and each owner's photo-id. */
async function uploadRequired(email: string, officeId: number): Promise<void> {
  const owners = await ownerRows(officeId);
  const described = [{ fileType: 'W9' }, { fileType: 'VoidedCheck' }, ...owners.map((o) => ({ fileType: 'PhotoId', ownerId: o.id }))];
  const parts = described.map((d) => ({ name: 'files', fileName: `${d.fileType}.pdf`, contentType: 'application/pdf', data: SAMPLE.pdf }));
  const response = await upload(email, '/api/Office/UpsertDocs', uploadBody({ officeId, files: described }, parts));
  expect(response.statusCode, response.body).toBe(204);
}

const officeRow = async (id: number) => (await h.database.db.select().from(offices).where(eq(offices.id, id)))[0]!;
const ownerRows = (officeId: number) => h.database.db.select().from(officeOwners).where(eq(officeOwners.officeId, officeId)).orderBy(officeOwners.id);
const fileRows = (officeId: number) => h.database.db.select({ id: files.id, kind: files.kind, ownerId: files.ownerId }).from(files).where(eq(files.officeId, officeId));
const securityEventCount = async () => (await h.database.db.select({ value: count() }).from(securityEvents))[0]!.value;
const lenderId = async (code: string) => (await h.database.db.select({ id: lenders.id }).from(lenders).where(eq(lenders.code, code)))[0]!.id;

beforeAll(async () => {
  h = await harness();
});

describe('enrolling a new office, end to end', () => {
  let email: string;
  let officeId: number;

  it('lets a signed-in user with no office enroll one and become its primary office admin', async () => {
    email = await newUser();
    const response = await call(email, 'POST', '/api/Office/UpsertOffice', profile(0, { routingNumber: '021000021', accountNumber: '123456789012', bankAccountType: 0, bankName: 'Hill Country Bank' }));
    expect(response.statusCode, response.body).toBe(200);
    const office = response.json();
    officeId = office.id;
    expect(office).toMatchObject({
      name: 'Congress Avenue Dental', enrollmentStatus: 'New', isEnrollmentCompleted: false, isApproved: false, bankAccountType: 0,
      routingNumberLast4: '0021', accountNumberLast4: '9012', address: ADDRESS, owners: [], files: [],
    });
    expect(office.primaryUser).toMatchObject({ email, role: 'admin', isPrimary: true, officeId });
    // Full bank numbers are never answered, and never stored in clear.
    expect(response.body).not.toContain('021000021');
    expect(response.body).not.toContain('123456789012');
    const row = await officeRow(officeId);
    expect(row.bankRoutingNumberEnc).not.toContain('021000021');
    expect(row.bankAccountNumberEnc).not.toContain('123456789012');
    expect(decryptPii(h.settings.piiKey, row.bankAccountNumberEnc!)).toBe('123456789012');
    const links = await h.database.db.select().from(userOffices).where(eq(userOffices.officeId, officeId));
    expect(links).toEqual([expect.objectContaining({ userId: await h.userId(email), role: 'admin', isPrimary: true })]);
  });

  it('cannot submit an enrollment that is not complete, and says what is missing', async () => {
    const response = await call(email, 'PUT', `/api/Office/SubmitOffice/${officeId}`);
    expect(response.statusCode).toBe(409);
    expect(response.json().detail).toMatch(/owners/);
    expect((await officeRow(officeId)).enrollmentStatus).toBe('New');
  });

  it('saves the owners with date of birth and SSN encrypted, and answers them masked', async () => {
    const response = await call(email, 'POST', '/api/Office/UpsertOwners', {
      officeId,
      owners: [owner({ ownership: 60, isPrimary: true }), owner({ firstName: 'Sam', lastName: 'Lee', email: 'sam@congress.example', dob: '02/28/1980', ssn: '987654321', ownership: 40 })],
    });
    expect(response.statusCode, response.body).toBe(200);
    const answered = response.json();
    expect(answered).toHaveLength(2);
    expect(answered[0]).toMatchObject({ firstName: 'Maria', lastName: "O'Neil", ownership: 60, dobDateTime: '**/**/1976', last4SSN: '6789', isPrimary: true, isPhotoIdUploaded: false });
    expect(answered[1]).toMatchObject({ dobDateTime: '**/**/1980', last4SSN: '4321' });
    for (const text of ['123-45-6789', '123456789', '987654321', '987-65-4321', '07/04/1976', '1976-07-04']) expect(response.body).not.toContain(text);
    const rows = await ownerRows(officeId);
    for (const row of rows) {
      expect(row.ssnEnc).toMatch(/^v1\./);
      expect(row.dobEnc).toMatch(/^v1\./);
      expect(`${row.ssnEnc}${row.dobEnc}`).not.toMatch(/123-?45-?6789|987-?65-?4321|1976|1980/);
    }
    expect(decryptPii(h.settings.piiKey, rows[0]!.ssnEnc!)).toBe('123-45-6789');
    expect(decryptPii(h.settings.piiKey, rows[1]!.ssnEnc!)).toBe('987-65-4321');
    expect(decryptPii(h.settings.piiKey, rows[0]!.dobEnc!)).toBe('1976-07-04');
  });

  it('uploads the enrollment documents, a photo-id among them', async () => {
    const [first] = await ownerRows(officeId);
    const response = await upload(email, '/api/Office/UpsertDocs', uploadBody(
      { officeId, files: [{ fileType: 'W9' }, { fileType: 'PhotoId', ownerId: first!.id }] },
      [
        { name: 'files', fileName: 'w9.pdf', contentType: 'application/pdf', data: SAMPLE.pdf },
        { name: 'files', fileName: 'id.jpg', contentType: 'image/jpeg', data: SAMPLE.jpeg },
      ],
    ));
    expect(response.statusCode, response.body).toBe(204);
    const office = (await call(email, 'GET', `/api/Office/GetOfficeInfo/${officeId}`)).json();
    expect(office.files.map((f: { fileType: string; contentType: string }) => [f.fileType, f.contentType]).sort()).toEqual([['PhotoId', 'image/jpeg'], ['W9', 'application/pdf']]);
    // A photo-id names whose it is (issue 37, item 7); another document belongs to no owner.
    expect(office.files.map((f: { fileType: string; ownerName: string | null }) => [f.fileType, f.ownerName]).sort()).toEqual([['PhotoId', "Maria O'Neil"], ['W9', null]]);
    expect(office.owners[0].isPhotoIdUploaded).toBe(true);
    expect(office.owners[1].isPhotoIdUploaded).toBe(false);
    expect(office.requiredDocuments).toEqual([
      { fileType: 'W9', ownerId: null, name: 'W-9 Form', isUploaded: true },
      { fileType: 'VoidedCheck', ownerId: null, name: 'Voided Check', isUploaded: false },
      { fileType: 'PhotoId', ownerId: first!.id, name: "Owner Photo ID: Maria O'Neil", isUploaded: true },
      { fileType: 'PhotoId', ownerId: expect.any(Number), name: 'Owner Photo ID: Sam Lee', isUploaded: false },
    ]);
    const stored = await h.database.db.select({ sha256: files.sha256, size: files.sizeBytes }).from(files).where(and(eq(files.officeId, officeId), eq(files.kind, 'W9')));
    expect(stored[0]).toEqual({ sha256: expect.stringMatching(/^[0-9a-f]{64}$/), size: SAMPLE.pdf.length });
  });

  it('cannot submit while a required document is missing, and names it', async () => {
    const response = await call(email, 'PUT', `/api/Office/SubmitOffice/${officeId}`);
    expect(response.statusCode).toBe(409);
    expect(response.json().detail).toBe('The enrollment cannot be submitted yet. Missing: the documents (Voided Check, Owner Photo ID: Sam Lee).');
    expect((await officeRow(officeId)).enrollmentStatus).toBe('New');
  });

  it('submits the complete enrollment, and a repeated submission changes nothing', async () => {
    await uploadRequired(email, officeId);
    const office = (await call(email, 'GET', `/api/Office/GetOfficeInfo/${officeId}`)).json();
    expect(office.requiredDocuments.every((d: { isUploaded: boolean }) => d.isUploaded)).toBe(true);
    const response = await call(email, 'PUT', `/api/Office/SubmitOffice/${officeId}`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ id: officeId, enrollmentStatus: 'Submitted', isEnrollmentCompleted: true, isApproved: false });
    const submittedAt = (await officeRow(officeId)).submittedAt;
    expect(submittedAt).toBeInstanceOf(Date);
    const again = await call(email, 'PUT', `/api/Office/SubmitOffice/${officeId}`);
    expect(again.statusCode).toBe(200);
    expect((await officeRow(officeId)).submittedAt).toEqual(submittedAt);
  });

  it('refuses to submit again an office that is past review', async () => {
    await h.database.db.update(offices).set({ enrollmentStatus: 'Approved', isApproved: true }).where(eq(offices.id, officeId));
    const response = await call(email, 'PUT', `/api/Office/SubmitOffice/${officeId}`);
    expect(response.statusCode).toBe(409);
    expect((await officeRow(officeId)).enrollmentStatus).toBe('Approved');
  });
});

describe('office profile and bank information', () => {
  it('keeps the stored bank numbers when an edit leaves them out, and re-verifies a changed account', async () => {
    const { email, officeId } = await enrolled({ routingNumber: '021000021', accountNumber: '555566667777' });
    await h.database.db.update(offices).set({ achProvider: 'sandbox', achAccountId: 'ba_1', achVerifyStatus: 'Verified', achVerifiedAt: new Date(), achDebitStatus: 'Authorized' }).where(eq(offices.id, officeId));
    const edit = await call(email, 'POST', '/api/Office/UpsertOffice', profile(officeId, { name: 'Congress Ave Dental' }));
    expect(edit.statusCode, edit.body).toBe(200);
    expect(edit.json()).toMatchObject({ name: 'Congress Ave Dental', accountNumberLast4: '7777', achVerifyStatus: 'Verified' });
    const changed = await call(email, 'POST', '/api/Office/UpsertOffice', profile(officeId, { routingNumber: '021000021', accountNumber: '999988887777' }));
    expect(changed.json()).toMatchObject({ accountNumberLast4: '7777', achVerifyStatus: 'NotStarted', achDebitStatus: 'NotAuthorized', achAccountId: null, achVerifiedAtUtc: null });
    expect(decryptPii(h.settings.piiKey, (await officeRow(officeId)).bankAccountNumberEnc!)).toBe('999988887777');
  });

  it('answers 409 for an office code another office has, in any letter case', async () => {
    const { email, officeId } = await enrolled();
    const before = await officeRow(officeId);
    const response = await call(email, 'POST', '/api/Office/UpsertOffice', profile(officeId, { code: 'BrightSmiles' }));
    expect(response.statusCode).toBe(409);
    expect(response.json().errors.code).toHaveLength(1);
    expect((await officeRow(officeId)).updatedAt).toEqual(before.updatedAt);
    const taken = await call(await newUser(), 'POST', '/api/Office/UpsertOffice', profile(0, { code: 'brightsmiles' }));
    expect(taken.statusCode).toBe(409);
  });

  it('refuses a routing number whose check digit is wrong and an account number typed twice differently, and writes nothing', async () => {
    const { email, officeId } = await enrolled();
    const before = await officeRow(officeId);
    const bank = { bankAccountType: 0, routingNumber: '021000022', accountNumber: '123456789012', accountNumberConfirm: '123456789013' };
    const response = await call(email, 'POST', '/api/Office/UpsertOffice', profile(officeId, bank));
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual({
      routingNumber: ['This field must be a valid 9-digit routing number.'],
      accountNumberConfirm: ['This field does not match.'],
    });
    expect(await officeRow(officeId)).toEqual(before);
    const ein = await call(email, 'POST', '/api/Office/UpsertOffice', profile(officeId, { taxId: '7-41234567' }));
    expect(ein.json().errors).toEqual({ taxId: ['This field must be a valid EIN, such as 12-3456789.'] });
    const good = await call(email, 'POST', '/api/Office/UpsertOffice', profile(officeId, { ...bank, routingNumber: '021000021', accountNumberConfirm: '123456789012' }));
    expect(good.statusCode, good.body).toBe(200);
    expect(good.json()).toMatchObject({ routingNumberLast4: '0021', accountNumberLast4: '9012' });
  });

  it('refuses a website that is not an http(s) address, and a group code set by an office user', async () => {
    const { email, officeId } = await enrolled();
    const script = await call(email, 'POST', '/api/Office/UpsertOffice', profile(officeId, { website: 'javascript:alert(1)' }));
    expect(script.statusCode).toBe(400);
    expect(script.json().errors).toEqual({ website: [MESSAGES.webAddress] });
    const group = await call(email, 'POST', '/api/Office/UpsertOffice', profile(officeId, { groupCode: DEMO.groupCode }));
    expect(group.statusCode).toBe(403);
    expect((await officeRow(officeId)).groupCode).toBeNull();
    const byAdmin = await call('admin@demo.test', 'POST', '/api/Office/UpsertOffice', profile(officeId, { groupCode: 'congressgroup' }));
    expect(byAdmin.statusCode).toBe(200);
    expect(byAdmin.json().groupCode).toBe('congressgroup');
  });

  it('needs a signed-in user to enroll', async () => {
    const response = await call(undefined, 'POST', '/api/Office/UpsertOffice', profile(0));
    expect(response.statusCode).toBe(401);
  });
});

describe('owner rules (spec §5)', () => {
  it("refuses owners whose ownership does not total 100, with the spec's message, and writes nothing", async () => {
    const { email, officeId } = await enrolled();
    const response = await call(email, 'POST', '/api/Office/UpsertOwners', { officeId, owners: [owner({ ownership: 60 }), owner({ firstName: 'Sam', ownership: 30 })] });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual({ owners: [MESSAGES.ownershipTotal] });
    expect(await ownerRows(officeId)).toEqual([]);
  });

  it("refuses an owner address equal to the office street address (any case), on that owner's field", async () => {
    const { email, officeId } = await enrolled();
    const response = await call(email, 'POST', '/api/Office/UpsertOwners', {
      officeId,
      owners: [owner({ ownership: 50 }), owner({ firstName: 'Sam', ownership: 50, address: { streetAddress: '  2400 CONGRESS   ave ', city: 'Austin', state: 'TX', zipCode: '78701' } })],
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual({ 'owners.1.address.streetAddress': [MESSAGES.ownerAddressDiffers] });
    expect(await ownerRows(officeId)).toEqual([]);
  });

  it('needs a home or mobile phone, and dob and ssn for a new owner', async () => {
    const { email, officeId } = await enrolled();
    const { mobilePhone: _m, dob: _d, ...noPhone } = owner();
    const response = await call(email, 'POST', '/api/Office/UpsertOwners', { officeId, owners: [noPhone] });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors.owners?.[0] ?? response.json().errors['owners.0']).toBeDefined();
    expect(JSON.stringify(response.json().errors)).toContain(MESSAGES.homeOrMobilePhone);
    expect(JSON.stringify(response.json().errors)).toContain('This field is required.');
  });

  it('updates owners by id keeping dob and ssn when left out, adds new ones and removes the unlisted', async () => {
    const { email, officeId } = await enrolled();
    const first = await call(email, 'POST', '/api/Office/UpsertOwners', { officeId, owners: [owner({ ownership: 50 }), owner({ firstName: 'Gone', ownership: 50 })] });
    const [kept, gone] = first.json() as { id: number }[];
    const before = (await ownerRows(officeId)).find((row) => row.id === kept!.id)!;
    const { dob: _d, ssn: _s, ...withoutPii } = owner({ id: kept!.id, title: 'DDS', ownership: 70 });
    const second = await call(email, 'POST', '/api/Office/UpsertOwners', { officeId, owners: [withoutPii, owner({ firstName: 'New', ssn: '111-22-3333', ownership: 30 })] });
    expect(second.statusCode, second.body).toBe(200);
    const answered = second.json() as { id: number; firstName: string; title: string; last4SSN: string; ownership: number }[];
    expect(answered.map((o) => o.firstName)).toEqual(['Maria', 'New']);
    expect(answered[0]).toMatchObject({ id: kept!.id, title: 'DDS', ownership: 70, last4SSN: '6789' });
    expect(answered.some((o) => o.id === gone!.id)).toBe(false);
    const after = (await ownerRows(officeId)).find((row) => row.id === kept!.id)!;
    expect(after.ssnEnc).toBe(before.ssnEnc);
    expect(after.dobEnc).toBe(before.dobEnc);
  });

  it("answers 404 for an owner id of another office, and writes nothing to either", async () => {
    const mine = await enrolled();
    const theirs = await enrolled();
    const [stranger] = (await call(theirs.email, 'POST', '/api/Office/UpsertOwners', { officeId: theirs.officeId, owners: [owner()] })).json() as { id: number }[];
    const response = await call(mine.email, 'POST', '/api/Office/UpsertOwners', { officeId: mine.officeId, owners: [owner({ id: stranger!.id, firstName: 'Hijack' })] });
    expect(response.statusCode).toBe(404);
    expect((await ownerRows(theirs.officeId)).map((o) => o.firstName)).toEqual(['Maria']);
    expect(await ownerRows(mine.officeId)).toEqual([]);
  });
});

describe('office documents', () => {
  let email: string;
  let officeId: number;
  let ownerId: number;
  beforeAll(async () => {
    ({ email, officeId } = await enrolled());
    ownerId = ((await call(email, 'POST', '/api/Office/UpsertOwners', { officeId, owners: [owner()] })).json() as { id: number }[])[0]!.id;
  });
  const docs = (model: object, parts: Parameters<typeof uploadBody>[1]) => upload(email, '/api/Office/UpsertDocs', uploadBody(model, parts));

  it('accepts PDF, PNG, JPEG and HEIC, typed by their bytes', async () => {
    const response = await docs({ officeId, files: [{ fileType: 'BankStatement' }, { fileType: 'BankStatement' }] }, [
      { name: 'files', fileName: 'statement.heic', contentType: 'application/octet-stream', data: SAMPLE.heic },
      { name: 'files', fileName: 'statement.png', contentType: 'image/png', data: SAMPLE.png },
    ]);
    expect(response.statusCode, response.body).toBe(204);
    const office = (await call(email, 'GET', `/api/Office/GetOfficeInfo/${officeId}`)).json();
    expect(office.files.map((f: { contentType: string }) => f.contentType).sort()).toEqual(['image/heic', 'image/png']);
  });

  it('refuses other content with a clear 400, whatever type the browser claimed, and writes nothing', async () => {
    const before = (await fileRows(officeId)).length;
    const response = await docs({ officeId, files: [{ fileType: 'W9' }, { fileType: 'W9' }] }, [
      { name: 'files', fileName: 'w9.pdf', contentType: 'application/pdf', data: SAMPLE.html },
      { name: 'files', fileName: 'empty.pdf', contentType: 'application/pdf', data: Buffer.alloc(0) },
    ]);
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual({ 'files.0': ['Only PDF, PNG, JPEG or HEIC files are accepted.'], 'files.1': ['The file is empty.'] });
    expect((await fileRows(officeId)).length).toBe(before);
  });

  it('refuses an unknown document type, a photo-id without its owner, and parts that do not match the model', async () => {
    const response = await docs({ officeId, files: [{ fileType: 'Selfie' }, { fileType: 'PhotoId' }] }, [
      { name: 'files', fileName: 'a.pdf', contentType: 'application/pdf', data: SAMPLE.pdf },
      { name: 'files', fileName: 'b.pdf', contentType: 'application/pdf', data: SAMPLE.pdf },
    ]);
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual({ 'files.0.fileType': [MESSAGES.notAllowedValue], 'files.1.ownerId': [MESSAGES.ownerForPhotoId] });
    const mismatch = await docs({ officeId, files: [{ fileType: 'W9' }] }, []);
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().errors.files[0]).toMatch(/one 'files' part for each/);
  });

  it('answers 413 for a file over the upload limit', async () => {
    const big = Buffer.concat([SAMPLE.pdf, Buffer.alloc(h.settings.uploadLimit)]);
    const response = await docs({ officeId, files: [{ fileType: 'W9' }] }, [{ name: 'files', fileName: 'big.pdf', contentType: 'application/pdf', data: big }]);
    expect(response.statusCode).toBe(413);
  });

  it('removes the documents listed in deleteFileIds, but not another office’s', async () => {
    const other = await enrolled();
    await upload(other.email, '/api/Office/UpsertDocs', uploadBody({ officeId: other.officeId, files: [{ fileType: 'W9' }] }, [{ name: 'files', fileName: 'w9.pdf', contentType: 'application/pdf', data: SAMPLE.pdf }]));
    const [foreign] = await fileRows(other.officeId);
    const refused = await docs({ officeId, files: [], deleteFileIds: [foreign!.id] }, []);
    expect(refused.statusCode).toBe(404);
    expect(await fileRows(other.officeId)).toHaveLength(1);

    const mine = (await fileRows(officeId))[0]!;
    const removed = await docs({ officeId, files: [], deleteFileIds: [mine.id] }, []);
    expect(removed.statusCode).toBe(204);
    expect((await fileRows(officeId)).some((f) => f.id === mine.id)).toBe(false);
  });

  it("UploadDoc needs the owner of a photo-id (spec §5), and a new photo-id replaces the owner's previous one", async () => {
    const photo = (model: object) => upload(email, '/api/Office/UploadDoc', uploadBody({ officeId, ...model }, [{ name: 'file', fileName: 'license.jpg', contentType: 'image/jpeg', data: SAMPLE.jpeg }]));
    for (const model of [{ fileType: 'PhotoId' }, { fileType: 'PhotoId', isPhotoId: true }, { fileType: 'PhotoId', ownerId: null }]) {
      const response = await photo(model);
      expect(response.statusCode, JSON.stringify(model)).toBe(400);
      expect(response.json().errors.ownerId).toEqual([MESSAGES.ownerForPhotoId]);
    }
    const first = await photo({ fileType: 'PhotoId', ownerId });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ officeId, ownerId, fileType: 'PhotoId', contentType: 'image/jpeg', fileName: 'license.jpg', size: SAMPLE.jpeg.length, uploadedBy: 'Pat Enroller' });
    const second = await photo({ fileType: 'PhotoId', isPhotoId: true, ownerId });
    expect(second.statusCode).toBe(200);
    const photoIds = (await fileRows(officeId)).filter((f) => f.kind === 'PhotoId');
    expect(photoIds.map((f) => f.id)).toEqual([second.json().id]);
  });

  it('UploadDoc answers 404 for an owner of another office', async () => {
    const other = await enrolled();
    const [stranger] = (await call(other.email, 'POST', '/api/Office/UpsertOwners', { officeId: other.officeId, owners: [owner()] })).json() as { id: number }[];
    const response = await upload(email, '/api/Office/UploadDoc', uploadBody({ officeId, fileType: 'PhotoId', ownerId: stranger!.id }, [{ name: 'file', fileName: 'id.png', contentType: 'image/png', data: SAMPLE.png }]));
    expect(response.statusCode).toBe(404);
  });
});

describe('file content (Files GetContent)', () => {
  let email: string;
  let officeId: number;
  let fileId: string;
  const name = 'Reçu été (final).pdf';
  beforeAll(async () => {
    ({ email, officeId } = await enrolled());
    const response = await upload(email, '/api/Office/UploadDoc', uploadBody({ officeId, fileType: 'W9' }, [{ name: 'file', fileName: name, contentType: 'application/pdf', data: SAMPLE.pdf }]));
    fileId = response.json().id;
  });

  it('answers the bytes with their type and an RFC 6266 / 5987 attachment name', async () => {
    const response = await call(email, 'GET', `/api/Files/GetContent/${fileId}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.rawPayload.equals(SAMPLE.pdf)).toBe(true);
    expect(response.headers['accept-ranges']).toBe('bytes');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="Recu ete (final).pdf"; filename*=UTF-8''Re%C3%A7u%20%C3%A9t%C3%A9%20%28final%29.pdf`);
    // Browsers send a quote in a multipart file name as %22; a stored name may still hold quotes, backslashes or a very long text.
    expect(contentDisposition('attachment', 'a"b\\c%.pdf')).toBe(`attachment; filename="a_b_c_.pdf"; filename*=UTF-8''a%22b%5Cc%25.pdf`);
    expect(contentDisposition('attachment', 'plain.pdf')).toBe('attachment; filename="plain.pdf"');
    const long = contentDisposition('attachment', `${'é'.repeat(250)}.pdf`);
    expect(long.length).toBeLessThanOrEqual(500);
    expect(long).toMatch(/\.pdf$/);
  });

  it('answers 206 with Content-Range for a valid byte range', async () => {
    const size = SAMPLE.pdf.length;
    const cases: Array<[string, number, number]> = [['bytes=0-3', 0, 3], ['bytes=5-', 5, size - 1], ['bytes=-6', size - 6, size - 1], [`bytes=10-${size + 50}`, 10, size - 1]];
    for (const [range, start, end] of cases) {
      const response = await call(email, 'GET', `/api/Files/GetContent/${fileId}`, undefined, { range });
      expect(response.statusCode, range).toBe(206);
      expect(response.headers['content-range']).toBe(`bytes ${start}-${end}/${size}`);
      expect(response.rawPayload.equals(SAMPLE.pdf.subarray(start, end + 1)), range).toBe(true);
      expect(response.headers['content-disposition']).toMatch(/^attachment; /);
    }
  });

  it('sends the whole file for a range it cannot satisfy, and 400 for one the contract does not allow', async () => {
    for (const range of [`bytes=${SAMPLE.pdf.length}-`, 'bytes=9-3', 'bytes=-0', 'bytes=-']) {
      const response = await call(email, 'GET', `/api/Files/GetContent/${fileId}`, undefined, { range });
      expect(response.statusCode, range).toBe(200);
      expect(response.rawPayload.length).toBe(SAMPLE.pdf.length);
    }
    const several = await call(email, 'GET', `/api/Files/GetContent/${fileId}`, undefined, { range: 'bytes=0-1,4-5' });
    expect(several.statusCode).toBe(400);
  });

  it('answers a 404 problem for a file that does not exist, and for a file of an office the caller is not in', async () => {
    const missing = await call('admin@demo.test', 'GET', '/api/Files/GetContent/00000000-0000-4000-8000-000000000001');
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['content-type']).toMatch(/^application\/problem\+json/);
    const eventsBefore = await securityEventCount();
    const foreign = await call('office.admin@demo.test', 'GET', `/api/Files/GetContent/${fileId}`);
    expect(foreign.statusCode).toBe(404);
    const eventsAfter = await securityEventCount();
    expect(eventsAfter).toBe(eventsBefore + 1);
    expect((await call(undefined, 'GET', `/api/Files/GetContent/${fileId}`)).statusCode).toBe(401);
  });

  it('lets every role of the office and the platform admins read it', async () => {
    const support = await newUser();
    await h.database.db.insert(userOffices).values({ userId: await h.userId(support), officeId, role: 'support' });
    for (const as of [support, 'admin@demo.test', 'dfi@demo.test']) expect((await call(as, 'GET', `/api/Files/GetContent/${fileId}`)).statusCode, as).toBe(200);
  });
});

describe('lenders of an office', () => {
  it('applies to lenders (202), idempotently, and refuses unknown ones', async () => {
    const { email, officeId } = await enrolled();
    const [ally, upg] = [await lenderId('ally'), await lenderId('upg')];
    const response = await call(email, 'POST', '/api/Office/ApplyLender', { officeId, lenderIds: [ally, upg] });
    expect(response.statusCode, response.body).toBe(202);
    expect(response.json().map((l: { code: string; status: string }) => [l.code, l.status]).sort()).toEqual([['ally', 'OfficeSubmitted'], ['upg', 'OfficeSubmitted']]);
    await h.database.db.update(officeLenders).set({ status: 'SubmittedToLender' }).where(and(eq(officeLenders.officeId, officeId), eq(officeLenders.lenderId, ally)));
    const again = await call(email, 'POST', '/api/Office/ApplyLender', { officeId, lenderIds: [ally] });
    expect(again.json()[0].status).toBe('SubmittedToLender');
    expect((await call(email, 'POST', '/api/Office/ApplyLender', { officeId, lenderIds: [999999] })).statusCode).toBe(404);
  });

  it('sends an office to a lender once its enrollment is submitted, as the office or a platform admin', async () => {
    const { email, officeId } = await enrolled({ routingNumber: '021000021', accountNumber: '123456789' , bankAccountType: 0 });
    const [gsky, lpoint] = [await lenderId('gsky'), await lenderId('lpoint')];
    await call(email, 'POST', '/api/Office/ApplyLender', { officeId, lenderIds: [gsky, lpoint] });
    const early = await call(email, 'POST', '/api/Office/SubmitOfficeToLender', { officeId, lenderId: gsky });
    expect(early.statusCode).toBe(409);
    await call(email, 'POST', '/api/Office/UpsertOwners', { officeId, owners: [owner()] });
    await uploadRequired(email, officeId);
    expect((await call(email, 'PUT', `/api/Office/SubmitOffice/${officeId}`)).statusCode).toBe(200);
    const sent = await call(email, 'POST', '/api/Office/SubmitOfficeToLender', { officeId, lenderId: gsky });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toMatchObject({ lenderId: gsky, officeId, status: 'SubmittedToLender' });
    const byAdmin = await call('dfi@demo.test', 'POST', '/api/admin/Offices/SubmitOfficeToLender', { officeId, lenderId: lpoint });
    expect(byAdmin.json()).toMatchObject({ lenderId: lpoint, status: 'SubmittedToLender' });
    expect((await call(email, 'POST', '/api/Office/SubmitOfficeToLender', { officeId, lenderId: await lenderId('upg') })).statusCode).toBe(404);
    expect((await call(email, 'POST', '/api/admin/Offices/SubmitOfficeToLender', { officeId, lenderId: gsky })).statusCode).toBe(403);
  });

  it('records a lender e-sign outcome with a one-time token (decision 0030)', async () => {
    const { email, officeId } = await enrolled();
    const ally = await lenderId('ally');
    await call(email, 'POST', '/api/Office/ApplyLender', { officeId, lenderIds: [ally] });
    const secret = h.settings.borrowerTokenSecret;
    const esign = (body: object, key = true) => h.call({ method: 'POST', url: '/api/Office/UpdateLenderESign', payload: body, key });
    const token = await issueLenderESignToken(h.database.db, secret, officeId, ally);

    expect((await esign({ officeId, lenderId: ally, token, event: 'Completed' }, false)).statusCode).toBe(401);
    expect((await esign({ officeId: DEMO.brightSmiles, lenderId: ally, token, event: 'Completed' })).statusCode).toBe(401);
    // One character of the signature changed, always to another: a token that already ended in 'AA' (1 in 1,024) made
    // the old 'AA' ending no change at all, and the test failed once in a full run.
    const tampered = `${token.slice(0, -2)}${token.at(-2) === 'A' ? 'B' : 'A'}${token.at(-1)}`;
    expect(tampered).not.toBe(token);
    expect((await esign({ officeId, lenderId: ally, token: tampered, event: 'Completed' })).statusCode).toBe(401);
    const expired = await issueLenderESignToken(h.database.db, secret, officeId, ally, -60);
    expect((await esign({ officeId, lenderId: ally, token: expired, event: 'Completed' })).statusCode).toBe(401);

    const accepted = await esign({ officeId, lenderId: ally, token, event: 'Completed' });
    expect(accepted.statusCode, accepted.body).toBe(202);
    expect(accepted.json()).toEqual({ success: true, message: 'The e-sign outcome was recorded.' });
    const [link] = await h.database.db.select().from(officeLenders).where(and(eq(officeLenders.officeId, officeId), eq(officeLenders.lenderId, ally)));
    expect(link).toMatchObject({ isEnrollmentCompleted: true, status: 'OfficeSubmitted' });
    const replay = await esign({ officeId, lenderId: ally, token, event: 'Declined' });
    expect(replay.statusCode).toBe(401);
    const [unchanged] = await h.database.db.select().from(officeLenders).where(and(eq(officeLenders.officeId, officeId), eq(officeLenders.lenderId, ally)));
    expect(unchanged).toEqual(link);
  });

  it('a declined e-sign cancels the application and the office may apply again', async () => {
    const { email, officeId } = await enrolled();
    const upg = await lenderId('upg');
    await call(email, 'POST', '/api/Office/ApplyLender', { officeId, lenderIds: [upg] });
    const token = await issueLenderESignToken(h.database.db, h.settings.borrowerTokenSecret, officeId, upg);
    expect((await h.call({ method: 'POST', url: '/api/Office/UpdateLenderESign', payload: { officeId, lenderId: upg, token, event: 'Declined' } })).statusCode).toBe(202);
    const lendersNow = (await call(email, 'GET', `/api/Office/GetLenders/${officeId}/false`)).json();
    expect(lendersNow[0]).toMatchObject({ status: 'Cancelled', showApply: true });
    const again = await call(email, 'POST', '/api/Office/ApplyLender', { officeId, lenderIds: [upg] });
    expect(again.json()[0]).toMatchObject({ status: 'OfficeSubmitted', showApply: false });
  });
});

describe('roles and office isolation', () => {
  it('support users cannot change the office (403), and nothing is written', async () => {
    const before = await officeRow(DEMO.brightSmiles);
    const response = await call('office.support@demo.test', 'POST', '/api/Office/UpsertOffice', profile(DEMO.brightSmiles, { name: 'Hacked' }));
    expect(response.statusCode).toBe(403);
    expect(await officeRow(DEMO.brightSmiles)).toEqual(before);
    const owners = await call('office.support@demo.test', 'POST', '/api/Office/UpsertOwners', { officeId: DEMO.brightSmiles, owners: [owner()] });
    expect(owners.statusCode).toBe(403);
  });

  it("the admin of offices 100 and 101 cannot touch office 102's records: 404 and nothing written", async () => {
    const as = 'office.admin@demo.test';
    const office = DEMO.pendingOffice;
    const before = { office: await officeRow(office), owners: await ownerRows(office), files: await fileRows(office) };
    const eventsBefore = await securityEventCount();
    const attempts = [
      await call(as, 'POST', '/api/Office/UpsertOffice', profile(office, { name: 'Taken over' })),
      await call(as, 'POST', '/api/Office/UpsertOwners', { officeId: office, owners: [owner()] }),
      await call(as, 'PUT', `/api/Office/SubmitOffice/${office}`),
      await call(as, 'PUT', '/api/Office/UpsertConfigItems', { officeId: office, items: [{ type: 'OfficeAlertTypes', name: 'NewApplication', value: as }] }),
      await call(as, 'POST', '/api/Office/ApplyLender', { officeId: office, lenderIds: [await lenderId('ally')] }),
      await call(as, 'POST', '/api/Office/SubmitOfficeToLender', { officeId: office, lenderId: await lenderId('gsky') }),
      await upload(as, '/api/Office/UpsertDocs', uploadBody({ officeId: office, files: [{ fileType: 'W9' }] }, [{ name: 'files', fileName: 'w9.pdf', contentType: 'application/pdf', data: SAMPLE.pdf }])),
      await upload(as, '/api/Office/UploadDoc', uploadBody({ officeId: office, fileType: 'W9' }, [{ name: 'file', fileName: 'w9.pdf', contentType: 'application/pdf', data: SAMPLE.pdf }])),
      await upload(as, '/api/Office/UpsertLandingPage', uploadBody({ officeId: office, code: 'takeover102' })),
    ];
    expect(attempts.map((r) => r.statusCode)).toEqual(attempts.map(() => 404));
    expect({ office: await officeRow(office), owners: await ownerRows(office), files: await fileRows(office) }).toEqual(before);
    const eventsAfter = await securityEventCount();
    expect(eventsAfter).toBe(eventsBefore + attempts.length);
  });

  it("102's own admin can work on it", async () => {
    const response = await call('pending@demo.test', 'GET', `/api/Office/GetOfficeInfo/${DEMO.pendingOffice}`);
    expect(response.statusCode).toBe(200);
    expect(response.json().owners[0].last4SSN).toMatch(/^\d{4}$/);
  });
});

describe('platform admin: offices', () => {
  let tag: string;
  const ids: number[] = [];
  beforeAll(async () => {
    tag = `zq${randomBytes(3).toString('hex')}`;
    for (const [name, city, status] of [[`${tag} Alpha Dental`, 'Waco', 'New'], [`${tag} Beta Ortho`, 'Tyler', 'Submitted'], [`${tag} Gamma Vision`, `${tag}ville`, 'Approved']] as const) {
      const { officeId } = await enrolled({ name, address: { ...ADDRESS, city } });
      await h.database.db.update(offices).set({ enrollmentStatus: status }).where(eq(offices.id, officeId));
      ids.push(officeId);
    }
    await call('admin@demo.test', 'POST', '/api/Office/UpsertOffice', profile(ids[1]!, { name: `${tag} Beta Ortho`, code: `${tag}_code` }));
  });
  const list = (as: string, body: object) => call(as, 'PUT', '/api/admin/Offices/GetOffices', body);

  it('searches by name, code or city, filters by enrollment status, sorts and pages', async () => {
    const all = await list('admin@demo.test', { search: tag, sortBy: 'name', sortDesc: false });
    expect(all.statusCode, all.body).toBe(200);
    const page = all.json();
    expect(page).toMatchObject({ currentPage: 1, nextPage: null, pageSize: 25, rowCount: 3 });
    expect(page.results.map((r: { id: number }) => r.id)).toEqual([ids[0], ids[1], ids[2]]);
    expect(page.results[0]).toMatchObject({ name: `${tag} Alpha Dental`, city: 'Waco', enrollmentStatus: 'New', primaryUserName: 'Pat Enroller', primaryUserEmail: expect.stringMatching(/@offices\.test$/) });

    const byCode = (await list('dfi@demo.test', { search: `${tag}_CODE` })).json();
    expect(byCode.results.map((r: { id: number }) => r.id)).toEqual([ids[1]]);
    const byCity = (await list('dfi@demo.test', { search: `${tag}VILLE` })).json();
    expect(byCity.results.map((r: { id: number }) => r.id)).toEqual([ids[2]]);
    const byId = (await list('dfi@demo.test', { search: String(ids[0]) })).json();
    expect(byId.results.map((r: { id: number }) => r.id)).toContain(ids[0]);

    const statuses = (await list('admin@demo.test', { search: tag, enrollmentStatuses: ['Submitted', 'Approved'], sortBy: 'name', sortDesc: true })).json();
    expect(statuses.results.map((r: { id: number }) => r.id)).toEqual([ids[2], ids[1]]);

    const paged = (await list('admin@demo.test', { search: tag, sortBy: 'id', page: 1, pageSize: 2 })).json();
    expect(paged).toMatchObject({ currentPage: 1, nextPage: 2, pageSize: 2, rowCount: 3 });
    const last = (await list('admin@demo.test', { search: tag, sortBy: 'id', page: 2, pageSize: 2 })).json();
    expect(last.results.map((r: { id: number }) => r.id)).toEqual([ids[2]]);
  });

  it('matches % and _ literally', async () => {
    expect((await list('admin@demo.test', { search: '%' })).json().rowCount).toBe(0);
  });

  it('is for platform admins only', async () => {
    expect((await list('office.admin@demo.test', { search: tag })).statusCode).toBe(403);
  });

  it('reads and edits the lender links of an office', async () => {
    const officeId = ids[0]!;
    const gsky = await lenderId('gsky');
    const saved = await call('dfi@demo.test', 'PUT', '/api/admin/Offices/UpsertLenders', {
      officeId,
      lenders: [{ lenderId: gsky, status: 'Completed', lenderOfficeId: 'GSKY-1', discountRate: 5.25, numOrder: 2, isReviewed: true, programUrl: 'https://gsky.example/p' }],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual([expect.objectContaining({ lenderId: gsky, code: 'gsky', status: 'Completed', lenderOfficeId: 'GSKY-1', discountRate: 5.25, numOrder: 2, isReviewed: true, isEnabled: true })]);
    const edit = await call('dfi@demo.test', 'PUT', '/api/admin/Offices/UpsertLenders', { officeId, lenders: [{ lenderId: gsky, isEnabled: false }] });
    expect(edit.json()[0]).toMatchObject({ status: 'Completed', discountRate: 5.25, isEnabled: false });
    const read = await call('admin@demo.test', 'GET', `/api/admin/Offices/GetLenders/${officeId}`);
    expect(read.json()).toEqual(edit.json());
    const script = await call('dfi@demo.test', 'PUT', '/api/admin/Offices/UpsertLenders', { officeId, lenders: [{ lenderId: gsky, programUrl: 'javascript:alert(1)' }] });
    expect(script.json().errors).toEqual({ 'lenders.0.programUrl': [MESSAGES.invalidFormat] });
    expect((await call('dfi@demo.test', 'PUT', '/api/admin/Offices/UpsertLenders', { officeId, lenders: [{ lenderId: 999999 }] })).statusCode).toBe(404);
    expect((await call('dfi@demo.test', 'GET', '/api/admin/Offices/GetLenders/2147483000')).statusCode).toBe(404);
    expect((await call('office.admin@demo.test', 'GET', `/api/admin/Offices/GetLenders/${DEMO.brightSmiles}`)).statusCode).toBe(403);
  });
});

describe('platform admin: ACH details', () => {
  it('df.admin saves the ACH provider, account, verification and debit status', async () => {
    const { officeId } = await enrolled();
    const response = await call('admin@demo.test', 'POST', `/api/admin/Ach/UpsertAchInfo?officeId=${officeId}`, {
      achProvider: 'sandbox', achAccountId: 'ba_123', achVerifyStatus: 'Verified', achDebitStatus: 'Authorized', bankAccountType: 1,
      routingNumber: '011000015', accountNumber: '44445555',
    });
    expect(response.statusCode, response.body).toBe(200);
    const office = response.json();
    expect(office).toMatchObject({ achProvider: 'sandbox', achAccountId: 'ba_123', achVerifyStatus: 'Verified', achDebitStatus: 'Authorized', bankAccountType: 1, routingNumberLast4: '0015', accountNumberLast4: '5555' });
    expect(office.achVerifiedAtUtc).toMatch(/Z$/);
    expect(response.body).not.toContain('44445555');
    const row = await officeRow(officeId);
    expect(row.achDebitAuthorizedAt).toBeInstanceOf(Date);
    expect(decryptPii(h.settings.piiKey, row.bankRoutingNumberEnc!)).toBe('011000015');

    const revoked = await call('admin@demo.test', 'POST', `/api/admin/Ach/UpsertAchInfo?officeId=${officeId}`, { achProvider: 'sandbox', achVerifyStatus: 'Failed', achDebitStatus: 'Revoked' });
    expect(revoked.json()).toMatchObject({ achAccountId: 'ba_123', achVerifyStatus: 'Failed', achVerifiedAtUtc: null, achDebitStatus: 'Revoked' });
  });

  it('the DFI admin and office users cannot (403), and nothing is written', async () => {
    const { email, officeId } = await enrolled();
    const before = await officeRow(officeId);
    const body = { achProvider: 'evil', achVerifyStatus: 'Verified', achDebitStatus: 'Authorized' };
    expect((await call('dfi@demo.test', 'POST', `/api/admin/Ach/UpsertAchInfo?officeId=${officeId}`, body)).statusCode).toBe(403);
    expect((await call(email, 'POST', `/api/admin/Ach/UpsertAchInfo?officeId=${officeId}`, body)).statusCode).toBe(403);
    expect(await officeRow(officeId)).toEqual(before);
  });

  it('answers 404 for an office that does not exist', async () => {
    const response = await call('admin@demo.test', 'POST', '/api/admin/Ach/UpsertAchInfo?officeId=2147483000', { achProvider: 'sandbox', achVerifyStatus: 'Pending', achDebitStatus: 'NotAuthorized' });
    expect(response.statusCode).toBe(404);
  });
});
