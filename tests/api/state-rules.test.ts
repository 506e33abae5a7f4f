import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { applicationLenders, appLogs, applications, lenders, offices } from '../../server/db/schema.ts';
import { harness, type Harness } from '../support/harness.ts';
import { journeyOffice, json, prequalForm, type JourneyOffice } from './journey-fixtures.ts';

/**
 * State rules and lender eligibility as data (issue 19, decision 0213): screens/states.json and each lender file's
 * `eligibility`, applied by App_SubmitApp's waterfall and by what staff may do in a patient-only state.
 */
describe('state rules and lender eligibility', () => {
  let h: Harness;
  let office: JourneyOffice;
  const db = () => h.database.db;
  const submit = (form: Record<string, unknown>, as = office.admin) => h.call({ method: 'POST', url: '/api/App/SubmitApp', payload: form, as });
  const askedLenders = async (appId: number) =>
    (await db().select({ code: lenders.code }).from(applicationLenders).innerJoin(lenders, eq(lenders.id, applicationLenders.lenderId)).where(eq(applicationLenders.appId, appId)))
      .map((r) => r.code)
      .sort();
  const yearsAgo = (years: number, days = 0) => {
    const d = new Date();
    d.setUTCFullYear(d.getUTCFullYear() - years);
    d.setUTCDate(d.getUTCDate() + days);
    return `${String(d.getUTCMonth() + 1).padStart(2, '0')}/${String(d.getUTCDate()).padStart(2, '0')}/${d.getUTCFullYear()}`;
  };

  beforeAll(async () => {
    h = await harness();
    office = await journeyOffice(h);
  });

  it('never sends a borrower to a lender that does not lend in their state, and says so in the log', async () => {
    const response = await submit(prequalForm(office.officeId, { address: { streetAddress: '1 Main St', city: 'Charleston', state: 'WV', zipCode: '25301' } }));
    expect(response.statusCode, response.body).toBe(200);
    const appId = json<{ id: number }>(response).id;
    // Ally Lending's file leaves out VT and WV.
    expect(await askedLenders(appId)).toEqual(['gsky', 'lpoint', 'lusa', 'powerpay', 'upg']);
    const logs = await db().select().from(appLogs).where(eq(appLogs.appId, appId));
    expect(logs.map((l) => l.message)).toContain('Not sent to Ally Lending: it does not lend in WV');
    // The same borrower in Texas goes to all six.
    const texan = json<{ id: number }>(await submit(prequalForm(office.officeId)));
    expect(await askedLenders(texan.id)).toEqual(['ally', 'gsky', 'lpoint', 'lusa', 'powerpay', 'upg']);
  });

  it("applies the state's age of majority: at 18 in Alabama no lender may be asked, and nothing is written", async () => {
    const before = (await db().select({ id: applications.id }).from(applications).where(eq(applications.officeId, office.officeId))).length;
    const response = await submit(prequalForm(office.officeId, { dob: yearsAgo(18, -10), address: { streetAddress: '1 Main St', city: 'Mobile', state: 'AL', zipCode: '36602' } }));
    expect(response.statusCode).toBe(409);
    expect(response.headers['content-type']).toContain('application/problem+json');
    const detail = json<{ detail: string }>(response).detail;
    for (const name of ['Ally Lending', 'GreenSky', 'Upgrade']) expect(detail).toContain(`${name} lends from age 19 in AL`);
    expect((await db().select({ id: applications.id }).from(applications).where(eq(applications.officeId, office.officeId))).length).toBe(before);
    // At 19 they may.
    expect((await submit(prequalForm(office.officeId, { dob: yearsAgo(19, -10), address: { streetAddress: '1 Main St', city: 'Mobile', state: 'AL', zipCode: '36602' } }))).statusCode).toBe(200);
  });

  it("asks only lenders whose amount range holds the request", async () => {
    // Lending USA and Upgrade finance from $1,000.
    const response = await submit(prequalForm(office.officeId, { amount: 600 }));
    expect(response.statusCode, response.body).toBe(200);
    expect(await askedLenders(json<{ id: number }>(response).id)).toEqual(['ally', 'gsky', 'lpoint', 'powerpay']);
  });

  describe('a patient-only state (New York)', () => {
    let ny: JourneyOffice;
    beforeAll(async () => {
      ny = await journeyOffice(h);
      await db().update(offices).set({ state: 'NY', city: 'Albany', zipCode: '12207' }).where(eq(offices.id, ny.officeId));
    });

    it('refuses an application filled in by staff, new or again, and tells staff what to do instead', async () => {
      const response = await submit(prequalForm(ny.officeId, { address: { streetAddress: '1 State St', city: 'Albany', state: 'NY', zipCode: '12207' } }), ny.admin);
      expect(response.statusCode).toBe(403);
      expect(json<{ detail: string }>(response).detail).toBe('In NY, the patient fills in the application: send the patient the application link (text or e-mail).');
      expect(await db().select().from(applications).where(eq(applications.officeId, ny.officeId))).toEqual([]);
    });

    it("tells the office's staff, so the office device's 'On this device' is not offered", async () => {
      const me = json<{ patientOnlyApplication: boolean }>(await h.call({ method: 'POST', url: '/api/Users/GetUserInfo', payload: {}, as: ny.admin }));
      expect(me.patientOnlyApplication).toBe(true);
      const texan = json<{ patientOnlyApplication: boolean }>(await h.call({ method: 'POST', url: '/api/Users/GetUserInfo', payload: {}, as: office.admin }));
      expect(texan.patientOnlyApplication).toBe(false);
    });
  });
});
