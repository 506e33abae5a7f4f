import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { applications, appLogs, files } from '../../server/db/schema.ts';
import { expireOffers } from '../../server/domain/applications/expiry.ts';
import { OFFERS_EXPIRED } from '../../server/domain/journey/offers.ts';
import { sendDueNotices } from '../../server/domain/notices/due.ts';
import { lenderCatalogue } from '../../server/lenders/registry.ts';
import { harness, type Harness } from '../support/harness.ts';
import { freshEmail, journeyOffice, json, outboxTo, prequalForm, type JourneyOffice } from './journey-fixtures.ts';

const DAY = 86_400_000;

/** Offers that run out untaken (issue 19, decision 0233). */
describe('offers that expire untaken', () => {
  let h: Harness;
  let office: JourneyOffice;
  const db = () => h.database.db;
  const submit = (form: Record<string, unknown>) => h.call({ method: 'POST', url: '/api/App/SubmitApp', payload: form, as: office.admin });
  const stageOf = async (appId: number) => (await db().select({ stage: applications.stage }).from(applications).where(eq(applications.id, appId)))[0]!.stage;
  const expirationOf = async (appId: number) => (await db().select({ at: applications.expiration }).from(applications).where(eq(applications.id, appId)))[0]!.at!;
  const expire = (appId: number) => db().update(applications).set({ expiration: new Date(Date.now() - 1000) }).where(eq(applications.id, appId));
  const offersOf = (appId: number) => h.call({ method: 'GET', url: `/api/App/GetOffers/${appId}`, borrowerOf: appId });
  const choose = async (appId: number) => {
    const offers = json<{ id: number }[]>(await offersOf(appId));
    return h.call({ method: 'POST', url: '/api/App/SelectOffer', payload: { appId, offerId: offers[0]!.id, agreeToTerms: true }, borrowerOf: appId });
  };

  beforeAll(async () => {
    h = await harness();
    office = await journeyOffice(h);
  });

  it('moves an application to Expired once its offers expired, once however many servers sweep, and says so in its log', async () => {
    const appId = json<{ id: number }>(await submit(prequalForm(office.officeId, { email: freshEmail() }))).id;
    const expiration = await expirationOf(appId);
    expect(expiration.getTime() - Date.now()).toBeGreaterThan(29 * DAY);
    await expireOffers(db());
    expect(await stageOf(appId)).toBe('NotApplicable');

    // Time passes: the offers' expiry is moved into the past (the tests share one database, so the sweep runs at the
    // real time and moves nothing else). Before a sweep reaches it, an offer chosen after the expiry is refused.
    await expire(appId);
    const tooLate = await choose(appId);
    expect(tooLate.statusCode).toBe(409);
    expect(json<{ detail: string }>(tooLate).detail).toBe(OFFERS_EXPIRED);

    await Promise.all([expireOffers(db()), expireOffers(db())]);
    expect(await stageOf(appId)).toBe('Expired');
    const lines = await db().select().from(appLogs).where(and(eq(appLogs.appId, appId), eq(appLogs.message, 'Offers expired')));
    expect(lines).toHaveLength(1);
    expect(lines[0]!.data).toMatchObject({ before: { stage: 'NotApplicable' }, after: { stage: 'Expired' } });

    // The office sees it expired and may submit it again.
    const app = json<{ stage: string; showResubmitButton: boolean; isExpired: boolean }>(await h.call({ method: 'GET', url: `/api/App/GetApp/${appId}/false`, as: office.admin }));
    expect(app).toMatchObject({ stage: 'Expired', showResubmitButton: true, isExpired: true });
  });

  it('expires a chosen offer the borrower never signed, and leaves a signed one alone', async () => {
    const chosen = json<{ id: number }>(await submit(prequalForm(office.officeId, { email: freshEmail() }))).id;
    expect((await choose(chosen)).statusCode).toBe(200);
    const signed = json<{ id: number }>(await submit(prequalForm(office.officeId, { email: freshEmail() }))).id;
    expect((await choose(signed)).statusCode).toBe(200);
    // The signing ceremony itself is the journey's tests' concern: here only its outcome.
    await db().update(applications).set({ stage: 'ReadyToFinalize', contractStatus: 'Signed' }).where(eq(applications.id, signed));
    await expire(chosen);
    await expire(signed);
    await expireOffers(db());
    expect(await stageOf(chosen)).toBe('Expired');
    expect(await stageOf(signed)).toBe('ReadyToFinalize');
  });

  it('still sends the notice of the lenders that declined when the others\' offers expired untaken', async () => {
    // Income 22,000: GreenSky declines, the others make offers.
    const email = freshEmail();
    const appId = json<{ id: number }>(await submit(prequalForm(office.officeId, { email, annualIncome: 22000 }))).id;
    await expire(appId);
    await expireOffers(db());
    expect(await stageOf(appId)).toBe('Expired');
    await sendDueNotices(db(), lenderCatalogue(h.settings), new Date(Date.now() + 26 * DAY));
    const notices = await db().select().from(files).where(and(eq(files.appId, appId), eq(files.kind, 'AdverseActionNotice')));
    expect(notices).toHaveLength(1);
    const sent = await outboxTo(h, email);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.body).toContain(`- GreenSky, ${lenderCatalogue(h.settings).get('gsky')!.descriptor.address}, (800) 555-0104.`);
  });

  it('names each lender that approved less than was asked once the offer expired untaken (a counteroffer)', async () => {
    // The sandbox approves the last name 'Counter' for $1,500 at most, whatever is asked.
    const email = freshEmail();
    const appId = json<{ id: number }>(await submit(prequalForm(office.officeId, { lastName: 'Counter', email, amount: 5000 }))).id;
    const offers = json<{ lenderName: string; amount: number; maxLine: number }[]>(await offersOf(appId));
    expect(offers.length).toBeGreaterThan(0);
    for (const offer of offers) expect(offer).toMatchObject({ amount: 1500, maxLine: 1500 });
    const countering = [...new Set(offers.map((o) => o.lenderName))];
    // While the offers can be taken, no notice is due for them.
    await sendDueNotices(db(), lenderCatalogue(h.settings));
    expect(await outboxTo(h, email)).toHaveLength(0);

    await expire(appId);
    await expireOffers(db());
    await sendDueNotices(db(), lenderCatalogue(h.settings));
    const sent = await outboxTo(h, email);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.body).toContain('none of them approved it as you asked');
    for (const name of countering) expect(sent[0]!.body).toContain(`- ${name}`);
    expect(sent[0]!.body).toContain('It approved $1,500.00 of the $5,000.00 you asked for. That offer was not taken.');
    expect(sent[0]!.body).toContain("Principal reason: Sandbox: the last name 'Counter' is approved for $1,500 at most.");
  });
});
