import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { files, lenders, officeLenders, offices, officeSettings, userOffices, users } from '../../server/db/schema.ts';
import { harness, type Harness } from '../support/harness.ts';
import { jpegHeader, pngOf } from '../support/images.ts';
import { SAMPLE, uploadBody } from '../support/multipart.ts';
import { DEMO } from './examples.ts';

/**
 * An office's settings (alerts, terms, promo terms) and landing page, and the public pages (landing, multi landing,
 * locator), through the HTTP API. Every test works on offices and users it creates, and only reads the demo data.
 */

let h: Harness;
const call: Harness['request'] = (...args) => h.request(...args);

const MESSAGES = {
  required: 'This field is required.',
  email: 'This field must be a valid e-mail address.',
  notAllowedValue: 'This field must be one of the allowed values.',
  unknownField: 'This field is not allowed.',
  code: 'Can only contain alphabets, numbers and underscore with no spaces.',
  invalidFormat: 'This field is not in the expected format.',
  logoTooLarge: 'The image is larger than 200 × 60 pixels.',
  onlyImages: 'Only PNG or JPEG files are accepted.',
};

const tag = () => randomBytes(4).toString('hex');

/** An office of our own with its admin (and, on request, a support and a sales user), published or not. */
async function officeOf(options: { approved?: boolean; active?: boolean; code?: string | null; city?: string; zip?: string; lenders?: string[] } = {}) {
  const db = h.database.db;
  const id = tag();
  const approved = options.approved ?? true;
  const [office] = await db
    .insert(offices)
    .values({
      name: `Settings Test Dental ${id}`, phone: '(512) 555-0150', streetAddress: '500 Test Ave', city: options.city ?? 'Austin', state: 'TX',
      zipCode: options.zip ?? '78701', enrollmentStatus: approved ? 'Approved' : 'Submitted', isApproved: approved, isEnrollmentCompleted: true,
      isActive: options.active ?? true, code: options.code === undefined ? `settings_${id}` : options.code,
    })
    .returning({ id: offices.id, code: offices.code });
  const people: Record<'admin' | 'support' | 'sales', string> = { admin: `settings-admin-${id}@demo.test`, support: `settings-support-${id}@demo.test`, sales: `settings-sales-${id}@demo.test` };
  for (const [role, email] of Object.entries(people) as ['admin' | 'support' | 'sales', string][]) {
    const [user] = await db.insert(users).values({ email, firstName: 'Sam', lastName: 'Tester', role }).returning({ id: users.id });
    await db.insert(userOffices).values({ userId: user!.id, officeId: office!.id, role, isPrimary: role === 'admin' });
  }
  for (const [order, code] of (options.lenders ?? []).entries()) {
    const [lender] = await db.select({ id: lenders.id }).from(lenders).where(eq(lenders.code, code));
    await db.insert(officeLenders).values({ officeId: office!.id, lenderId: lender!.id, status: 'Completed', numOrder: order + 1 });
  }
  return { officeId: office!.id, code: office!.code!, ...people };
}

type Setting = { id?: number; type: string; name: string; label: string; value: string | null; isEnabled: boolean; officeId: number };
const settingsOf = async (as: string, officeId: number) => {
  const response = await call(as, 'GET', `/api/Office/GetConfigItems/${officeId}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().items as Setting[];
};
const savedRows = (officeId: number) => h.database.db.select().from(officeSettings).where(eq(officeSettings.officeId, officeId)).orderBy(officeSettings.id);
const upsert = (as: string, officeId: number, items: object[]) => call(as, 'PUT', '/api/Office/UpsertConfigItems', { officeId, items });

beforeAll(async () => {
  h = await harness();
});

describe('office settings: alerts, terms and promo terms', () => {
  it('lists every setting the office can set, each with the words people see, off until the office saves it', async () => {
    const { officeId, admin } = await officeOf();
    const items = await settingsOf(admin, officeId);
    const byType = (type: string) => items.filter((item) => item.type === type);
    expect(byType('OfficeAlertTypes').map((item) => [item.name, item.label])).toEqual([
      ['NewApplication', 'New application'], ['OfferSelected', 'Offer selected'], ['DocumentsSigned', 'Documents signed'],
      ['ApplicationFunded', 'Application funded'], ['RefundUpdate', 'Refund update'],
    ]);
    expect(byType('Terms').map((item) => item.label)).toEqual(['12 months', '24 months', '36 months', '48 months', '60 months']);
    expect(byType('PromoTerms').map((item) => item.name)).toEqual(['6', '12', '18', '24']);
    expect(items.map((item) => item.type)).toEqual([...byType('OfficeAlertTypes'), ...byType('Terms'), ...byType('PromoTerms')].map((item) => item.type));
    expect(items.every((item) => item.id === undefined && item.isEnabled === false && item.value === null && item.officeId === officeId)).toBe(true);
    // The demo office's saved alerts come with their ids and recipients.
    const demo = await settingsOf('office.admin@demo.test', DEMO.brightSmiles);
    expect(demo.find((item) => item.name === 'NewApplication')).toMatchObject({ id: expect.any(Number), isEnabled: true, value: expect.stringContaining('@') });
  });

  it('saves an alert, a term and a promo term each on its own row, and answers the whole list', async () => {
    const { officeId, admin } = await officeOf();
    const alert = await upsert(admin, officeId, [{ type: 'OfficeAlertTypes', name: 'OfferSelected', value: 'front.desk@clinic.example', isEnabled: true }]);
    expect(alert.statusCode, alert.body).toBe(200);
    const term = await upsert(admin, officeId, [{ type: 'Terms', name: '36', isEnabled: true }]);
    expect(term.statusCode, term.body).toBe(200);
    const promo = await upsert(admin, officeId, [{ type: 'PromoTerms', name: '12', isEnabled: true }]);
    const items = promo.json().items as Setting[];
    const on = items.filter((item) => item.isEnabled).map((item) => [item.type, item.name, item.value]);
    expect(on).toEqual([['OfficeAlertTypes', 'OfferSelected', 'front.desk@clinic.example'], ['Terms', '36', null], ['PromoTerms', '12', null]]);
    // A term and a promo term of the same months stay apart.
    expect(items.find((item) => item.type === 'Terms' && item.name === '12')).toMatchObject({ isEnabled: false });
    expect((await savedRows(officeId)).map((row) => [row.type, row.name, row.isEnabled])).toEqual([['OfficeAlertTypes', 'OfferSelected', true], ['Terms', '36', true], ['PromoTerms', '12', true]]);

    // By id or by type and name, changing only what is given.
    const saved = items.find((item) => item.name === 'OfferSelected')!;
    await upsert(admin, officeId, [{ id: saved.id, type: 'OfficeAlertTypes', name: 'OfferSelected', isEnabled: false }]);
    await upsert(admin, officeId, [{ type: 'Terms', name: '36', isEnabled: false }]);
    const after = await settingsOf(admin, officeId);
    expect(after.find((item) => item.id === saved.id)).toMatchObject({ value: 'front.desk@clinic.example', isEnabled: false });
    expect(after.find((item) => item.type === 'Terms' && item.name === '36')).toMatchObject({ isEnabled: false });
    expect(await savedRows(officeId)).toHaveLength(3);
  });

  it("refuses bad input in the catalogue's words at the item's field, and keeps nothing of a refused request", async () => {
    const { officeId, admin } = await officeOf();
    const refused = async (items: object[], errors: Record<string, string[]>) => {
      const response = await upsert(admin, officeId, items);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(response.json().errors).toEqual(errors);
    };
    await refused([{ type: 'OfficeAlertTypes', name: 'NewApplication', value: 'not an address', isEnabled: true }], { 'items.0.value': [MESSAGES.email] });
    await refused([{ type: 'OfficeAlertTypes', name: 'NewApplication', value: `${'a'.repeat(95)}@x.example`, isEnabled: true }], { 'items.0.value': ['This field exceeds 100 characters.'] });
    await refused([{ type: 'OfficeAlertTypes', name: 'NewApplication', isEnabled: true }], { 'items.0.value': [MESSAGES.required] });
    await refused([{ type: 'Terms', name: '36', value: '5000', isEnabled: true }], { 'items.0.value': [MESSAGES.unknownField] });
    await refused([{ type: 'Terms', name: '37', isEnabled: true }], { 'items.0.name': [MESSAGES.notAllowedValue] });
    await refused([{ type: 'feature-flag', name: 'sendAppSms', value: 'false' }], { 'items.0.type': [MESSAGES.notAllowedValue] });
    // The good first item is not kept either.
    await refused(
      [{ type: 'Terms', name: '24', isEnabled: true }, { type: 'OfficeAlertTypes', name: 'RefundUpdate', isEnabled: true }],
      { 'items.1.value': [MESSAGES.required] },
    );
    expect(await savedRows(officeId)).toEqual([]);
    // An alert that is on keeps its address: clearing it is refused too.
    await upsert(admin, officeId, [{ type: 'OfficeAlertTypes', name: 'RefundUpdate', value: 'refunds@clinic.example', isEnabled: true }]);
    await refused([{ type: 'OfficeAlertTypes', name: 'RefundUpdate', value: null }], { 'items.0.value': [MESSAGES.required] });
  });

  it("answers 404 for another office's settings (its id, or its setting's id), and changes nothing", async () => {
    const mine = await officeOf();
    const theirs = await officeOf();
    await upsert(theirs.admin, theirs.officeId, [{ type: 'OfficeAlertTypes', name: 'NewApplication', value: 'theirs@clinic.example', isEnabled: true }]);
    const [their] = await savedRows(theirs.officeId);
    expect((await call(mine.admin, 'GET', `/api/Office/GetConfigItems/${theirs.officeId}`)).statusCode).toBe(404);
    expect((await upsert(mine.admin, theirs.officeId, [{ type: 'OfficeAlertTypes', name: 'NewApplication', value: 'evil@attacker.test' }])).statusCode).toBe(404);
    const byId = await upsert(mine.admin, mine.officeId, [{ id: their!.id, type: 'OfficeAlertTypes', name: 'NewApplication', value: 'evil@attacker.test' }]);
    expect(byId.statusCode).toBe(404);
    expect(await savedRows(theirs.officeId)).toEqual([their]);
    expect(await savedRows(mine.officeId)).toEqual([]);
  });

  it('lets every role of the office read its settings, and only its admin change them', async () => {
    const { officeId, support, sales } = await officeOf();
    for (const as of [support, sales]) {
      expect((await call(as, 'GET', `/api/Office/GetConfigItems/${officeId}`)).statusCode, as).toBe(200);
      expect((await upsert(as, officeId, [{ type: 'Terms', name: '12', isEnabled: true }])).statusCode, as).toBe(403);
    }
    expect(await savedRows(officeId)).toEqual([]);
  });
});

describe('landing page', () => {
  const upload = (as: string, model: object, parts: Parameters<typeof uploadBody>[1] = []) => {
    const body = uploadBody(model, parts);
    return h.call({ method: 'POST', url: '/api/Office/UpsertLandingPage', as, payload: body.payload, headers: body.headers });
  };
  const logo = (data: Buffer, contentType = 'image/png') => ({ name: 'logo', fileName: 'logo.png', contentType, data });
  const picture = (data: Buffer) => ({ name: 'picture', fileName: 'office.png', contentType: 'image/png', data });
  const officeRow = async (id: number) => (await h.database.db.select().from(offices).where(eq(offices.id, id)))[0]!;
  const fileRows = (officeId: number) => h.database.db.select({ id: files.id, kind: files.kind }).from(files).where(eq(files.officeId, officeId));
  const publicPage = (code: string) => h.call({ method: 'GET', url: `/api/Office/GetLandingPage/${code}` });

  it('saves code, text, map, images and the lenders shown; the public page shows them', async () => {
    const { officeId, code, admin } = await officeOf({ lenders: ['ally', 'gsky', 'upg'] });
    const model = { officeId, code, description: 'Smiles on Congress.', showMaps: true, mapsUrl: 'https://maps.example/congress', lenders: ['upg', 'ally'] };
    const response = await upload(admin, model, [logo(pngOf(200, 60)), picture(pngOf(1200, 800))]);
    expect(response.statusCode, response.body).toBe(200);
    const own = response.json();
    expect(own).toMatchObject({ code, description: 'Smiles on Congress.', showMaps: true, mapsUrl: 'https://maps.example/congress', isPublished: true, lenderCodes: ['ally', 'upg'] });
    // Published: the office's own view links its images where an <img> can open them (decision 0161).
    const row = await officeRow(officeId);
    expect(own.office.logoUrl).toBe(`/api/Files/GetPublicContent/${row.logoFileId}`);
    expect(own.pictureUrl).toBe(`/api/Files/GetPublicContent/${row.pictureFileId}`);

    const page = (await publicPage(code)).json();
    expect(page).toMatchObject({ description: 'Smiles on Congress.', showMaps: true, mapsUrl: 'https://maps.example/congress', pictureUrl: own.pictureUrl });
    expect(page.office.logoUrl).toBe(own.office.logoUrl);
    expect(page.lenders.map((l: { code: string; name: string }) => [l.code, l.name])).toEqual([['ally', 'Ally Lending'], ['upg', 'Upgrade']]);
    const image = await h.call({ method: 'GET', url: page.office.logoUrl, key: false });
    expect(image.statusCode).toBe(200);
    expect(image.rawPayload.equals(pngOf(200, 60))).toBe(true);
  });

  it('treats the model as the whole page: texts left out are cleared, lenders and images left out stay', async () => {
    const { officeId, code, admin } = await officeOf({ lenders: ['ally', 'gsky'] });
    await upload(admin, { officeId, code, description: 'First.', showMaps: true, mapsUrl: 'https://maps.example/a', lenders: ['gsky'] }, [logo(pngOf(10, 10))]);
    const second = (await upload(admin, { officeId, code })).json();
    expect(second).toMatchObject({ description: null, showMaps: false, mapsUrl: null, lenderCodes: ['gsky'] });
    expect(second.office.logoUrl).not.toBeNull();
    const none = (await upload(admin, { officeId, code, lenders: [] })).json();
    expect(none.lenders).toEqual([]);
    expect((await publicPage(code)).json().lenders).toEqual([]);
  });

  it('refuses a logo larger than 200 × 60 pixels, read from its bytes, whatever the file claims; the picture may be large', async () => {
    const { officeId, code, admin } = await officeOf();
    for (const image of [logo(pngOf(201, 60)), logo(pngOf(200, 61)), logo(jpegHeader(400, 120), 'image/png')]) {
      const response = await upload(admin, { officeId, code, description: 'Kept?' }, [image, picture(pngOf(10, 10))]);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().errors).toEqual({ logo: [MESSAGES.logoTooLarge] });
    }
    expect(await fileRows(officeId)).toEqual([]);
    expect((await officeRow(officeId)).landingDescription).toBeNull();
    const fits = await upload(admin, { officeId, code }, [logo(jpegHeader(200, 60), 'image/jpeg'), picture(pngOf(2400, 1600))]);
    expect(fits.statusCode, fits.body).toBe(200);
    expect((await fileRows(officeId)).map((f) => f.kind).sort()).toEqual(['LandingLogo', 'LandingPicture']);
  });

  it('refuses what is not a PNG or JPEG image, or one whose size cannot be read', async () => {
    const { officeId, code, admin } = await officeOf();
    const pdf = await upload(admin, { officeId, code }, [logo(SAMPLE.pdf)]);
    expect(pdf.json().errors).toEqual({ logo: [MESSAGES.onlyImages] });
    const html = await upload(admin, { officeId, code }, [picture(SAMPLE.html)]);
    expect(html.json().errors).toEqual({ picture: [MESSAGES.onlyImages] });
    const cut = await upload(admin, { officeId, code }, [logo(pngOf(20, 20).subarray(0, 20))]);
    expect(cut.json().errors).toEqual({ logo: ['The image could not be read.'] });
    expect(await fileRows(officeId)).toEqual([]);
  });

  it('checks the code, the map address with maps shown, and the lenders, and writes nothing then', async () => {
    const { officeId, code, admin } = await officeOf({ lenders: ['ally'] });
    const bad = async (model: object, errors: Record<string, string[]>) => {
      const response = await upload(admin, { officeId, code, ...model }, [logo(pngOf(10, 10))]);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().errors).toEqual(errors);
    };
    await bad({ code: 'no spaces!' }, { code: [MESSAGES.code] });
    await bad({ showMaps: true }, { mapsUrl: [MESSAGES.required] });
    await bad({ showMaps: true, mapsUrl: 'javascript:alert(1)' }, { mapsUrl: [MESSAGES.invalidFormat] });
    await bad({ lenders: ['ally', 'lpoint'] }, { lenders: [MESSAGES.notAllowedValue] });
    expect(await fileRows(officeId)).toEqual([]);
    const [link] = await h.database.db.select().from(officeLenders).where(eq(officeLenders.officeId, officeId));
    expect(link!.showOnLanding).toBe(true);
  });

  it('answers 409 for a code another office uses (any letter case) and writes nothing', async () => {
    const { officeId, admin } = await officeOf({ code: null });
    const response = await upload(admin, { officeId, code: DEMO.brightSmilesCode.toUpperCase() }, [logo(pngOf(10, 10))]);
    expect(response.statusCode).toBe(409);
    const row = await officeRow(officeId);
    expect([row.code, row.logoFileId]).toEqual([null, null]);
    expect(await fileRows(officeId)).toEqual([]);
  });

  it('replaces and removes images, deleting the files they no longer use', async () => {
    const { officeId, code, admin } = await officeOf();
    const first = (await upload(admin, { officeId, code }, [logo(pngOf(10, 10))])).json();
    const firstLogo = first.office.logoUrl.split('/').pop();
    const second = (await upload(admin, { officeId, code }, [logo(jpegHeader(20, 20), 'image/jpeg')])).json();
    expect(second.office.logoUrl).not.toBe(first.office.logoUrl);
    expect((await fileRows(officeId)).map((f) => f.id)).not.toContain(firstLogo);
    const removed = await upload(admin, { officeId, code, removeLogo: true });
    expect(removed.json().office.logoUrl).toBeNull();
    expect(await fileRows(officeId)).toEqual([]);
  });

  it('serves the logo and picture of a published page to anyone, and nothing else (decision 0031)', async () => {
    const { officeId, code, admin } = await officeOf({ approved: false });
    await upload(admin, { officeId, code, description: 'Public.' }, [logo(pngOf(10, 10)), picture(pngOf(30, 20))]);
    const document = await h.call({
      method: 'POST', url: '/api/Office/UploadDoc', as: admin,
      ...(({ payload, headers }) => ({ payload, headers }))(uploadBody({ officeId, fileType: 'W9' }, [{ name: 'file', fileName: 'w9.pdf', contentType: 'application/pdf', data: SAMPLE.pdf }])),
    });
    expect(document.statusCode, document.body).toBe(200);
    const row = await officeRow(officeId);
    const anonymous = (id: string) => h.call({ method: 'GET', url: `/api/Files/GetPublicContent/${id}`, key: false });
    // Not approved yet: the page and its images are not public.
    expect((await anonymous(row.logoFileId!)).statusCode).toBe(404);
    await h.database.db.update(offices).set({ isApproved: true, enrollmentStatus: 'Approved' }).where(eq(offices.id, officeId));
    const page = (await publicPage(code)).json();
    expect(page.office.logoUrl).toBe(`/api/Files/GetPublicContent/${row.logoFileId}`);
    expect(page.pictureUrl).toBe(`/api/Files/GetPublicContent/${row.pictureFileId}`);
    const image = await h.call({ method: 'GET', url: page.office.logoUrl, key: false });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.headers['content-disposition']).toBe('inline; filename="logo.png"');
    expect((await anonymous(row.pictureFileId!)).statusCode).toBe(200);
    expect((await anonymous(document.json().id)).statusCode).toBe(404);
    await h.database.db.update(offices).set({ isActive: false }).where(eq(offices.id, officeId));
    expect((await anonymous(row.logoFileId!)).statusCode).toBe(404);
  });

  it("gives a page not published yet its staff image addresses, and no public page", async () => {
    const { officeId, code, admin } = await officeOf({ approved: false });
    const own = (await upload(admin, { officeId, code }, [logo(pngOf(10, 10))])).json();
    expect(own.isPublished).toBe(false);
    expect(own.office.logoUrl).toMatch(/^\/api\/Files\/GetContent\//);
    expect((await publicPage(code)).statusCode).toBe(404);
  });

  it("refuses another office's landing page, and support and sales users, writing nothing", async () => {
    const mine = await officeOf();
    const theirs = await officeOf();
    const before = await officeRow(theirs.officeId);
    expect((await call(mine.admin, 'GET', `/api/Office/GetOfficeLandingPage/${theirs.officeId}`)).statusCode).toBe(404);
    expect((await upload(mine.admin, { officeId: theirs.officeId, code: theirs.code, description: 'Taken over' }, [logo(pngOf(10, 10))])).statusCode).toBe(404);
    for (const as of [theirs.support, theirs.sales]) {
      expect((await call(as, 'GET', `/api/Office/GetOfficeLandingPage/${theirs.officeId}`)).statusCode, as).toBe(403);
      expect((await upload(as, { officeId: theirs.officeId, code: theirs.code, description: 'Not mine to change' })).statusCode, as).toBe(403);
    }
    expect(await officeRow(theirs.officeId)).toEqual(before);
    expect(await fileRows(theirs.officeId)).toEqual([]);
  });
});

describe('public pages', () => {
  it('answers 404 problem details for a landing or group code no published office has', async () => {
    for (const url of ['/api/Office/GetLandingPage/nosuch', '/api/Office/GetMultiLandingPage/nosuch', `/api/Office/GetMultiLandingPage/${DEMO.brightSmilesCode}`]) {
      const response = await h.call({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(response.json().detail).toBe('This page could not be found');
    }
  });

  it('locator: finds approved, active offices with a page by zip or city, and no other', async () => {
    const city = `Zq${tag()}ville`;
    const zip = `0${String(Math.floor(Math.random() * 9000) + 1000)}`;
    const shown = await officeOf({ city, zip });
    const hidden = [
      await officeOf({ city, zip, approved: false }),
      await officeOf({ city, zip, active: false }),
      await officeOf({ city, zip, code: null }),
    ];
    const found = async (body: object) => {
      const response = await h.call({ method: 'POST', url: '/api/Office/SearchOffices', payload: body });
      expect(response.statusCode, response.body).toBe(200);
      return response.json() as { items: { id: number; name: string; phone: string; address: { city: string; zipCode: string }; landingPageCode: string }[]; count: number };
    };
    const byCity = await found({ search: city.toLowerCase() });
    expect(byCity.items.map((item) => item.id)).toEqual([shown.officeId]);
    expect(byCity.items[0]).toMatchObject({ phone: '(512) 555-0150', address: { city, zipCode: zip }, landingPageCode: shown.code });
    const byZip = await found({ zipCode: zip });
    expect(byZip.items.map((item) => item.id)).toEqual([shown.officeId]);
    expect((await found({ search: zip })).items.map((item) => item.id)).toEqual([shown.officeId]);
    for (const office of hidden) expect(byZip.items.map((item) => item.id)).not.toContain(office.officeId);
  });
});
