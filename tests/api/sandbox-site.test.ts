import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { applicationLenders, lenders } from '../../server/db/schema.ts';
import { harness, type Harness } from '../support/harness.ts';
import { journeyOffice, json, logLines, prequalForm, serverWith, type JourneyOffice } from './journey-fixtures.ts';

type Application = { id: number; stage: string; contractStatus: string | null; lenderAppUrl: string | null; nextRoute: string | null; isOfferMatch: boolean };

/**
 * The sandbox lenders' own site (issue 16, decision 0191): a lender-hosted flow ends on real pages of this server
 * (/sandbox/lenders/{code}/…) instead of an address that does not exist. Signing there and the sandbox underwriter's
 * decision reach the application as the lender's signed callbacks do, and the borrower is sent back to the portal.
 */
describe("the sandbox lenders' site", () => {
  let h: Harness;
  let office: JourneyOffice;
  let origin: string;
  const page = (url: string, method: 'GET' | 'POST' = 'GET', form?: Record<string, string>, headers: Record<string, string> = {}) =>
    h.app.inject({
      method,
      url: url.startsWith('http') ? new URL(url).pathname : url,
      ...(form ? { payload: new URLSearchParams(form).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers } } : { headers }),
    });
  const getApp = async (appId: number) => json<Application>(await h.call({ method: 'GET', url: `/api/App/GetApp/${appId}/false`, as: office.admin }));
  const prequalified = async (overrides: Record<string, unknown> = {}) => {
    const form = prequalForm(office.officeId, overrides);
    const response = await h.call({ method: 'POST', url: '/api/App/SubmitApp', payload: form, as: office.admin });
    expect(response.statusCode, response.body).toBe(200);
    return { form, appId: json<{ id: number }>(response).id };
  };
  const lenderAppIdOf = async (appId: number, code: string) => {
    const [row] = await h.database.db
      .select({ lenderAppId: applicationLenders.lenderAppId })
      .from(applicationLenders)
      .innerJoin(lenders, eq(lenders.id, applicationLenders.lenderId))
      .where(and(eq(applicationLenders.appId, appId), eq(lenders.code, code)));
    return row!.lenderAppId!;
  };

  beforeAll(async () => {
    h = await harness();
    office = await journeyOffice(h);
    origin = new URL(h.settings.publicUrl).origin;
  });

  it('hosts the signing of a lender that signs on its own site, then sends the borrower back to the portal', async () => {
    const { form, appId } = await prequalified();
    const offers = json<{ id: number; lenderCode: string }[]>(await h.call({ method: 'GET', url: `/api/App/GetOffers/${appId}`, borrowerOf: appId }));
    const chosen = offers.find((o) => o.lenderCode === 'upg')!;
    const selected = json<Application>(await h.call({ method: 'POST', url: '/api/App/SelectOffer', payload: { appId, offerId: chosen.id, agreeToTerms: true }, borrowerOf: appId }));
    const lenderAppId = await lenderAppIdOf(appId, 'upg');
    expect(selected.lenderAppUrl).toBe(`${h.settings.publicUrl}/sandbox/lenders/upg/applications/${lenderAppId}`);
    expect(selected.nextRoute).toBe(selected.lenderAppUrl);

    // The lender's page of the application: its decision, its offers, and its signing.
    const application = await page(selected.lenderAppUrl!);
    expect(application.statusCode).toBe(200);
    expect(application.headers['content-type']).toMatch(/^text\/html/);
    expect(application.headers['content-security-policy']).toContain("default-src 'none'");
    expect(application.body).toContain('Upgrade');
    expect(application.body).toContain(`Hello ${form.firstName as string}. You are approved`);
    expect(application.body).toContain(`href="${selected.lenderAppUrl}/sign"`);
    const ceremony = json<{ hostedBy: string; eSignUrl: string }>(await h.call({ method: 'POST', url: `/api/App/SubmitForESign?id=${appId}`, borrowerOf: appId }));
    expect(ceremony).toMatchObject({ hostedBy: 'lender', eSignUrl: `${selected.lenderAppUrl}/sign` });
    expect((await getApp(appId)).stage).toBe('SigningRequired');

    const signUrl = ceremony.eSignUrl;
    const sign = await page(signUrl);
    expect(sign.statusCode).toBe(200);
    expect(sign.body).toContain('Type your full name');
    const fullName = `${form.firstName as string} ${form.lastName as string}`;
    // Only from its own page: a form posted from elsewhere is refused.
    expect((await page(signUrl, 'POST', { typedName: fullName, agree: 'yes' })).statusCode).toBe(403);
    expect((await page(signUrl, 'POST', { typedName: fullName, agree: 'yes' }, { origin: 'https://elsewhere.test' })).statusCode).toBe(403);
    expect((await page(signUrl, 'POST', { typedName: fullName, agree: 'yes' }, { 'sec-fetch-site': 'cross-site', origin: 'null' })).statusCode).toBe(403);
    // What a browser sends from the page itself under the no-referrer policy: Origin null, Sec-Fetch-Site same-origin.
    const fromPage = { 'sec-fetch-site': 'same-origin', origin: 'null' };
    expect((await page(signUrl, 'POST', { typedName: 'Someone Else', agree: 'yes' }, fromPage)).statusCode).toBe(400);
    const wrong = await page(signUrl, 'POST', { typedName: 'Someone Else', agree: 'yes' }, { origin });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.body).toContain('Type your first and last name as they are on your application.');
    expect((await getApp(appId)).stage).toBe('SigningRequired');

    const signed = await page(signUrl, 'POST', { typedName: ` ${fullName.toUpperCase()} `, agree: 'yes' }, { origin });
    expect(signed.statusCode).toBe(303);
    expect(signed.headers.location).toBe(`${h.settings.publicUrl}/#/app/borrower/${appId}`);
    expect(await getApp(appId)).toMatchObject({ stage: 'ReadyToFinalize', contractStatus: 'Signed' });
    const callbacks = async () => (await logLines(h, appId)).filter((l) => l.kind === 'Event' && l.message === 'Lender callback: ContractStatus').length;
    expect(await callbacks()).toBe(1);
    // A second press finds it signed: back to the portal, no second callback.
    expect((await page(signUrl, 'POST', { typedName: fullName, agree: 'yes' }, { origin })).statusCode).toBe(303);
    expect(await callbacks()).toBe(1);
    expect((await page(selected.lenderAppUrl!)).body).toContain('Your loan agreement is signed.');
  });

  it("lets the sandbox underwriter decide a review, which gives the borrower the lender's offers", async () => {
    const { appId } = await prequalified({ lastName: 'Pending' });
    expect((await getApp(appId)).stage).toBe('Review');
    const lenderAppId = await lenderAppIdOf(appId, 'ally');
    const decision = `/sandbox/lenders/ally/applications/${lenderAppId}/decision`;
    const shown = await page(decision);
    expect(shown.statusCode).toBe(200);
    expect(shown.body).toContain('Approve');
    expect((await page(decision, 'POST', { decision: 'Approved' })).statusCode).toBe(403);
    const approved = await page(decision, 'POST', { decision: 'Approved' }, { origin });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.body).toContain('You are approved');
    expect(await getApp(appId)).toMatchObject({ stage: 'NotApplicable', isOfferMatch: true, nextRoute: '/app/prequal/match' });
    // Decided once: the page no longer offers the decision.
    expect((await page(decision, 'POST', { decision: 'Declined' }, { origin })).statusCode).toBe(409);
  });

  it('knows only the applications a lender answered, and exists in demo mode only', async () => {
    expect((await page('/sandbox/lenders/upg/applications/UPG-NOSUCH')).statusCode).toBe(404);
    expect((await page('/sandbox/lenders/nosuch/applications/X-1')).statusCode).toBe(404);
    const { appId } = await prequalified();
    const lenderAppId = await lenderAppIdOf(appId, 'ally');
    // Nothing to sign before an offer of this lender is chosen (and ally signs on the portal anyway).
    expect((await page(`/sandbox/lenders/ally/applications/${lenderAppId}/sign`)).statusCode).toBe(409);
    const production = await serverWith(h, { mode: 'production' });
    expect((await production.inject({ method: 'GET', url: `/sandbox/lenders/ally/applications/${lenderAppId}` })).statusCode).toBe(404);
    await production.close();
  });
});
