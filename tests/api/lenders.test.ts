import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { rmSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { applicationLenders, applications, lenders, officeLenders } from '../../server/db/schema.ts';
import { insertApplication } from './apps-fixtures.ts';
import { harness, type Harness } from '../support/harness.ts';
import { journeyOffice, json, lenderFolder, linkLender, logLines, prequalForm, serverWith, signedCallback, type JourneyOffice } from './journey-fixtures.ts';

type AppResult = { id: number; stage: string; decisionStatus: string; isOfferMatch: boolean; nextRoute: string | null; lenders: { code: string; status: string; adverseActionReason: string | null; offerCount: number }[] };
type Offer = { id: number; lenderCode: string; productCode: string; amount: number };

/** Lender adapters, the waterfall's timeouts, lender callbacks and a ninth lender by one file (issue 5, item 4). */
describe('lenders', () => {
  let h: Harness;
  let office: JourneyOffice;
  const folders: string[] = [];
  const servers: FastifyInstance[] = [];

  const prequalify = async (overrides: Record<string, unknown> = {}, as = office.admin) => {
    const response = await h.call({ method: 'POST', url: '/api/App/SubmitApp', payload: prequalForm(office.officeId, overrides), as });
    expect(response.statusCode, response.body).toBe(200);
    return json<AppResult>(response);
  };
  /** An application sent by link to the office, so that its borrower can submit it on another server. */
  const sentApp = async (officeId = office.officeId) => {
    const response = await h.call({ method: 'POST', url: '/api/App/SendApp', payload: { officeId, firstName: 'Pat', lastName: 'Applicant', amount: 4800, email: `pat.${Date.now()}.${Math.random().toString(36).slice(2, 8)}@gmail.com` }, as: office.admin });
    return json<{ appId: number }>(response).appId;
  };
  const lenderAppId = async (appId: number, code: string) =>
    (await h.database.db.execute<{ lender_app_id: string }>(sql`select al.lender_app_id from application_lenders al join lenders l on l.id = al.lender_id where al.app_id = ${appId} and l.code = ${code}`)).rows[0]!.lender_app_id;

  beforeAll(async () => {
    h = await harness();
    office = await journeyOffice(h);
  });
  afterAll(async () => {
    for (const server of servers) await server.close();
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  });

  describe('the callback of a lender (HMAC-signed, idempotent)', () => {
    it('turns a review into offers when the lender approves, once, whatever the retries', async () => {
      const result = await prequalify({ lastName: 'Pending' });
      expect(result.stage).toBe('Review');
      const body = {
        lenderCode: 'gsky', appId: result.id, lenderAppId: await lenderAppId(result.id, 'gsky'), eventType: 'Decision', decisionStatus: 'Approved',
        occurredAtUtc: new Date().toISOString(), data: { reviewer: 'sandbox' },
      };
      const request = signedCallback(h.settings, body);
      const first = await h.call(request);
      expect(first.statusCode, first.body).toBe(200);
      expect(json(first)).toMatchObject({ success: true, message: 'Processed.' });
      const app = json<{ stage: string; statusChip: string; isOfferMatch: boolean; offers: Offer[] }>(await h.call({ method: 'GET', url: `/api/App/GetApp/${result.id}/false`, as: office.admin }));
      expect(app).toMatchObject({ stage: 'NotApplicable', statusChip: 'OffersAvailable', isOfferMatch: true });
      expect(app.offers.every((o) => o.lenderCode === 'gsky')).toBe(true);
      expect(app.offers.length).toBeGreaterThan(0);

      // A replay of the same signed request (or a lender's retry) changes nothing and says so.
      const replay = await h.call(request);
      expect(replay.statusCode).toBe(200);
      expect(json(replay)).toMatchObject({ success: true, message: 'This callback was already processed.' });
      const callbacks = (await logLines(h, result.id)).filter((l) => l.message === 'Lender callback: Decision');
      expect(callbacks).toHaveLength(1);
      const count = await h.database.db.execute<{ n: number }>(sql`select count(*)::int as n from offers where app_id = ${result.id}`);
      expect(count.rows[0]!.n).toBe(app.offers.length);
    });

    it('takes the decision of a lender asked and not answered yet, with the id it names; told again after the choice, it changes nothing', async () => {
      // The lender answered 202 and the waterfall still waits for it (or a restart cut the wait off): its row is Pending, with no id.
      const result = await prequalify({ lastName: 'Pending' });
      const [gsky] = await h.database.db.select({ id: lenders.id }).from(lenders).where(eq(lenders.code, 'gsky'));
      await h.database.db.update(applicationLenders).set({ status: 'Pending', lenderAppId: null }).where(and(eq(applicationLenders.appId, result.id), eq(applicationLenders.lenderId, gsky!.id)));
      const decision = (extra: Record<string, unknown>) => signedCallback(h.settings, {
        lenderCode: 'gsky', appId: result.id, lenderAppId: 'GSKY-LATE-1', eventType: 'Decision', decisionStatus: 'Approved', occurredAtUtc: new Date().toISOString(), data: extra,
      });
      const first = await h.call(decision({ attempt: 1 }));
      expect(first.statusCode, first.body).toBe(200);
      expect(await lenderAppId(result.id, 'gsky')).toBe('GSKY-LATE-1');
      const offers = json<Offer[]>(await h.call({ method: 'GET', url: `/api/App/GetOffers/${result.id}`, as: office.admin }));
      const chosen = offers.find((o) => o.lenderCode === 'gsky')!;
      const selected = await h.call({ method: 'POST', url: '/api/App/SelectOffer', payload: { appId: result.id, offerId: chosen.id, agreeToTerms: true }, borrowerOf: result.id });
      expect(selected.statusCode, selected.body).toBe(200);
      const again = await h.call(decision({ attempt: 2 }));
      expect(again.statusCode, again.body).toBe(200);
      expect(json(again)).toMatchObject({ success: true, message: 'This decision was already recorded.' });
      // Another decision after the choice is still refused, and a lender's id other than the one taken.
      const declined = await h.call(signedCallback(h.settings, { lenderCode: 'gsky', appId: result.id, lenderAppId: 'GSKY-LATE-1', eventType: 'Decision', decisionStatus: 'Declined', occurredAtUtc: new Date().toISOString() }));
      expect([declined.statusCode, json<{ detail: string }>(declined).detail]).toEqual([409, 'A decision cannot change an application whose offer is already selected.']);
      expect((await h.call(signedCallback(h.settings, { lenderCode: 'gsky', appId: result.id, lenderAppId: 'GSKY-OTHER', eventType: 'Decision', decisionStatus: 'Approved', occurredAtUtc: new Date().toISOString() }))).statusCode).toBe(409);
    });

    it('refuses a bad signature, another lender\'s key, an old or future timestamp, and a missing signature', async () => {
      const result = await prequalify({ lastName: 'Pending' });
      const body = { lenderCode: 'ally', appId: result.id, lenderAppId: await lenderAppId(result.id, 'ally'), eventType: 'Decision', decisionStatus: 'Approved', occurredAtUtc: new Date().toISOString() };
      const good = signedCallback(h.settings, body);
      const cases = [
        { ...good, headers: { ...good.headers, 'x-lender-signature': `sha256=${'0'.repeat(64)}` } },
        signedCallback(h.settings, body, { key: Buffer.alloc(32, 7) }),
        signedCallback(h.settings, { ...body, lenderCode: 'gsky' }, { key: (await import('../../core/lenders/callback-signature.ts')).lenderCallbackKey(h.settings, 'ally') }),
        signedCallback(h.settings, body, { timestamp: Math.floor(Date.now() / 1000) - 301 }),
        signedCallback(h.settings, body, { timestamp: Math.floor(Date.now() / 1000) + 400 }),
        // The body changed after signing.
        { ...good, payload: JSON.stringify({ ...body, decisionStatus: 'Declined' }) },
      ];
      const refused = async () => (await h.database.db.execute<{ n: number }>(sql`select count(*)::int as n from security_events where kind = 'lender-callback-refused' and (detail ->> 'appId')::int = ${result.id}`)).rows[0]!.n;
      for (const request of cases) {
        const response = await h.call(request);
        expect(response.statusCode, response.body).toBe(401);
      }
      // Each refusal is kept for the security audit, with the lender it claimed and why.
      expect(await refused()).toBe(cases.length);
      const unsigned = await h.call({ method: 'POST', url: '/api/App/ProcessLenderCallback', payload: body });
      expect([400, 401]).toContain(unsigned.statusCode);
      expect((await h.database.db.select({ stage: applications.stage }).from(applications).where(eq(applications.id, result.id)))[0]!.stage).toBe('Review');
      // Signed right, but not the lender's id of this application.
      const wrongId = await h.call(signedCallback(h.settings, { ...body, lenderAppId: 'ALLY-NOT-MINE' }));
      expect(wrongId.statusCode).toBe(409);
    });

    it("records the lender's funding as the contract's status (the office's payout Processing), and a refund that names no order on the log, each once", async () => {
      const appId = await insertApplication(h.database.db, { officeId: office.officeId, stage: 'SubmittedForFunding', lenderCode: 'ally' });
      const callback = (eventType: string, extra: Record<string, unknown>) =>
        signedCallback(h.settings, { lenderCode: 'ally', appId, lenderAppId: `ALLY-A${appId}`, eventType, occurredAtUtc: new Date().toISOString(), ...extra });
      const funding = callback('Funding', { contractStatus: 'Funded', data: { fundingId: 'F-1', amountCents: 400_000 } });
      expect(json(await h.call(funding))).toMatchObject({ message: 'Processed.' });
      expect(json(await h.call(funding))).toMatchObject({ message: 'This callback was already processed.' });
      expect(json(await h.call(callback('Refund', { data: { refundId: 'R-1', amountCents: 10_000 } })))).toMatchObject({ message: 'Recorded: the callback names no refund of the portal (data.orderKey).' });
      const [row] = await h.database.db.select({ contractStatus: applications.contractStatus, stage: applications.stage, fundingStatus: applications.fundingStatus }).from(applications).where(eq(applications.id, appId));
      expect(row).toEqual({ contractStatus: 'Funded', stage: 'SubmittedForFunding', fundingStatus: 'Processing' });
      expect((await logLines(h, appId)).filter((l) => l.kind === 'Event' && l.message.startsWith('Lender callback:')).map((l) => l.message)).toEqual(['Lender callback: Funding', 'Lender callback: Refund']);
    });

    it("moves a lender-hosted signing (covered) to ReadyToFinalize on the lender's Signed status", async () => {
      const own = await journeyOffice(h, ['covered', 'cleargage', 'gsky']);
      const response = await h.call({ method: 'POST', url: '/api/App/SubmitApp', payload: prequalForm(own.officeId), as: own.admin });
      const result = json<AppResult>(response);
      const offers = json<Offer[]>(await h.call({ method: 'GET', url: `/api/App/GetOffers/${result.id}`, as: own.admin }));
      const covered = offers.find((o) => o.lenderCode === 'covered')!;
      const selected = await h.call({ method: 'POST', url: '/api/App/SelectOffer', payload: { appId: result.id, offerId: covered.id, agreeToTerms: true }, borrowerOf: result.id });
      expect(json<{ nextRoute: string }>(selected).nextRoute).toBe('/app/covered/offers/congrats');
      const esign = json<{ hostedBy: string; eSignUrl: string }>(await h.call({ method: 'POST', url: `/api/App/SubmitForESign?id=${result.id}`, borrowerOf: result.id }));
      expect(esign.hostedBy).toBe('lender');
      expect(esign.eSignUrl).toMatch(new RegExp(`^${h.settings.publicUrl}/sandbox/lenders/covered/applications/COVERED-\\w+/sign$`));
      const signed = await h.call(signedCallback(h.settings, {
        lenderCode: 'covered', appId: result.id, lenderAppId: await lenderAppId(result.id, 'covered'), eventType: 'ContractStatus', contractStatus: 'Signed',
        contractSubStatus: 'AgreementPresented', occurredAtUtc: new Date().toISOString(),
      }));
      expect(signed.statusCode, signed.body).toBe(200);
      const app = json<{ stage: string; contractStatus: string; statusChip: string }>(await h.call({ method: 'GET', url: `/api/App/GetApp/${result.id}/false`, as: own.admin }));
      expect(app).toMatchObject({ stage: 'ReadyToFinalize', contractStatus: 'Signed', statusChip: 'ActionRequired' });
      // Another lender cannot move the contract.
      const other = await h.call(signedCallback(h.settings, {
        lenderCode: 'gsky', appId: result.id, lenderAppId: await lenderAppId(result.id, 'gsky'), eventType: 'ContractStatus', contractStatus: 'Cancelled', occurredAtUtc: new Date().toISOString(),
      }));
      expect(other.statusCode).toBe(409);
    });
  });

  describe('the waterfall', () => {
    it('does not wait for a slow lender beyond the timeout: the others answer, the slow one is TimedOut', async () => {
      // Each bound below is what waiting would cost, not a speed: the machine's load cannot make it pass or fail.
      const SLOW_MS = 5000;
      const folder = lenderFolder((code, doc) => {
        if (code === 'gsky') (doc.sandbox as Record<string, unknown>).latencyMs = SLOW_MS;
        if (code === 'lusa') (doc.sandbox as Record<string, unknown>).failureRate = 1;
      });
      folders.push(folder);
      const slow = await serverWith(h, { lendersDir: folder, lenderTimeoutMs: 600 });
      servers.push(slow);
      const appId = await sentApp();
      const token = await h.borrowerToken(appId);
      const started = performance.now();
      const response = await slow.inject({ method: 'POST', url: '/api/App/SubmitApp', payload: prequalForm(office.officeId, { id: appId }), headers: { 'x-api-key': 'test-api-key-1', 'x-borrower-token': token, 'idempotency-key': randomUUID() } });
      const elapsed = performance.now() - started;
      expect(response.statusCode, response.body).toBe(200);
      const result = json<AppResult>(response);
      expect(elapsed).toBeLessThan(SLOW_MS);
      expect(result.lenders.find((l) => l.code === 'gsky')).toMatchObject({ status: 'TimedOut', offerCount: 0 });
      expect(result.lenders.find((l) => l.code === 'lusa')).toMatchObject({ status: 'Error', offerCount: 0 });
      expect(result.lenders.filter((l) => l.status === 'Approved').length).toBeGreaterThanOrEqual(3);
      expect(result.isOfferMatch).toBe(true);
      const [row] = (await h.database.db.execute<{ latency_ms: number }>(sql`select al.latency_ms from application_lenders al join lenders l on l.id = al.lender_id where al.app_id = ${appId} and l.code = 'gsky'`)).rows;
      // The time the portal gave the lender (its timeout), not the lender's answer.
      expect(row!.latency_ms).toBeGreaterThanOrEqual(550);
      expect(row!.latency_ms).toBeLessThan(SLOW_MS);
    });

    it('asks the lenders in parallel: six lenders of 1.5 s answer in less than 2 × 1.5 s', async () => {
      // Any lender asked after another's answer would make it take twice a lender's time, however fast the machine.
      const LATENCY_MS = 1500;
      const folder = lenderFolder((_code, doc) => {
        (doc.sandbox as Record<string, unknown>).latencyMs = LATENCY_MS;
      });
      folders.push(folder);
      const server = await serverWith(h, { lendersDir: folder });
      servers.push(server);
      const appId = await sentApp();
      const started = performance.now();
      const response = await server.inject({ method: 'POST', url: '/api/App/SubmitApp', payload: prequalForm(office.officeId, { id: appId }), headers: { 'x-api-key': 'test-api-key-1', 'x-borrower-token': await h.borrowerToken(appId), 'idempotency-key': randomUUID() } });
      const elapsed = performance.now() - started;
      expect(response.statusCode, response.body).toBe(200);
      expect(json<AppResult>(response).lenders).toHaveLength(6);
      expect(elapsed).toBeGreaterThanOrEqual(LATENCY_MS);
      expect(elapsed).toBeLessThan(2 * LATENCY_MS);
    });

    it('submits to more lenders on the office\'s request, and only to its active lenders', async () => {
      const own = await journeyOffice(h, ['ally']);
      const first = json<AppResult>(await h.call({ method: 'POST', url: '/api/App/SubmitApp', payload: prequalForm(own.officeId, { amount: 39000, annualIncome: 200000 }), as: own.admin }));
      expect(first.stage).toBe('NotApplicable');
      await h.database.db.execute(sql`update applications set stage = 'Declined', is_offer_match = false where id = ${first.id}`);
      expect((await h.call({ method: 'POST', url: '/api/App/SubmitToLender', payload: { appId: first.id, lenderCodes: ['gsky'] }, as: own.admin })).statusCode).toBe(400);
      await linkLender(h, own.officeId, 'gsky');
      const more = await h.call({ method: 'POST', url: '/api/App/SubmitToLender', payload: { appId: first.id, lenderCodes: ['gsky'] }, as: own.admin });
      expect(more.statusCode, more.body).toBe(200);
      const result = json<AppResult>(more);
      expect(result.lenders.map((l) => l.code).sort()).toEqual(['ally', 'gsky']);
      expect(result).toMatchObject({ stage: 'NotApplicable', isOfferMatch: true });
      expect((await h.call({ method: 'POST', url: '/api/App/SubmitToLender', payload: { appId: first.id, lenderCodes: ['gsky'] }, as: own.tpa })).statusCode).toBe(403);
    });
  });

  describe('the selected lender', () => {
    it("answers the lender's view of the application, and moves only the presentational sub-statuses", async () => {
      const result = await prequalify();
      const offers = json<Offer[]>(await h.call({ method: 'GET', url: `/api/App/GetOffers/${result.id}`, as: office.admin }));
      expect((await h.call({ method: 'GET', url: `/api/App/GetLenderApp/${result.id}`, as: office.admin })).statusCode).toBe(409);
      const gsky = offers.find((o) => o.lenderCode === 'gsky')!;
      await h.call({ method: 'POST', url: '/api/App/SelectOffer', payload: { appId: result.id, offerId: gsky.id, agreeToTerms: true }, borrowerOf: result.id });
      const view = json<{ lenderCode: string; decisionStatus: string; offers: Offer[]; creditCardPlans: { planCode: string; promoTerm: number }[]; disposition: { decision: string } }>(
        await h.call({ method: 'GET', url: `/api/App/GetLenderApp/${result.id}`, borrowerOf: result.id }),
      );
      expect(view).toMatchObject({ lenderCode: 'gsky', decisionStatus: 'Approved', disposition: { decision: 'Approved' } });
      expect(view.offers.every((o) => o.lenderCode === 'gsky')).toBe(true);
      expect(view.creditCardPlans.map((p) => p.planCode)).toEqual(['GS-PROMO12']);

      const move = (contractSubStatus: string, as?: string) =>
        h.call({ method: 'PUT', url: '/api/App/UpdateContractStatus', payload: { appId: result.id, contractSubStatus }, ...(as ? { as } : { borrowerOf: result.id }) });
      expect((await move('TermsPresented')).statusCode).toBe(200);
      for (const refused of ['KBAPassed', 'ESignGenerated', 'FundsReleased', 'AgreementPresented']) {
        expect((await move(refused)).statusCode, refused).toBe(409);
      }
      const setStatus = await h.call({ method: 'PUT', url: '/api/App/UpdateContractStatus', payload: { appId: result.id, contractSubStatus: 'TermsPresented', contractStatus: 'Signed' }, as: office.admin });
      expect(setStatus.statusCode).toBe(409);
    });
  });

  describe('a ninth lender is one JSON file', () => {
    const zeta = (base: Record<string, unknown>) => ({
      ...base,
      code: 'zeta',
      name: 'Zeta Health Credit',
      phone: '(800) 555-0199',
      address: '1 Zeta Plaza, Denver, CO 80202',
      routes: [
        { name: 'offers-id', path: 'offers/:id?', step: 'offers', layout: 'office', access: { borrower: true }, screen: 'lender-offers' },
        { name: 'offers-select', path: 'offers/select', step: 'select', layout: 'office', access: { borrower: true }, screen: 'lender-select' },
        { name: 'welcome-id', path: 'welcome/:id?', step: 'congrats', layout: 'office', access: { borrower: true }, screen: 'lender-congrats' },
        { name: 'sign-id', path: 'sign/:id?', step: 'sign', layout: 'esign', access: { borrower: true }, screen: 'lender-sign' },
      ],
      journey: { steps: ['offers', 'select', 'congrats', 'sign'], esign: 'platform', consent: 'sign', kba: 'sign', sign: 'sign' },
      eligibility: { states: ['*'], amount: { min: 25, max: 20000 }, creditCheck: 'soft' },
      sandbox: {
        latencyMs: 10, failureRate: 0, lineToIncome: 0.2, offerDays: 30,
        rules: [{ when: { '==': [{ var: 'lastNameLower' }, 'decline'] }, decision: 'Declined', reason: 'Sandbox decline' }],
        products: [{ code: 'ZETA-INST18', name: '18-Month Plan', type: 'Installment', term: 18, apr: 11.5, minAmount: 25, maxAmount: 20000 }],
      },
    });

    it('creates the lender row from the file at start, asks it like the others, and routes its own flow', async () => {
      const base = (await import('../../screens/lenders/ally.json', { with: { type: 'json' } })).default as Record<string, unknown>;
      const folder = lenderFolder(() => undefined, [zeta(base)]);
      folders.push(folder);
      const server = await serverWith(h, { lendersDir: folder });
      servers.push(server);
      const [row] = await h.database.db.select().from(lenders).where(eq(lenders.code, 'zeta'));
      expect(row).toMatchObject({ name: 'Zeta Health Credit', phone: '(800) 555-0199', isActive: true });
      try {
        const own = await journeyOffice(h, ['ally']);
        await linkLender(h, own.officeId, 'zeta');
        const appId = json<{ appId: number }>(await h.call({ method: 'POST', url: '/api/App/SendApp', payload: { officeId: own.officeId, firstName: 'Zed', lastName: 'Ninth', amount: 1500, email: `zed.${own.tag}@gmail.com` }, as: own.admin })).appId;
        const headers = { 'x-api-key': 'test-api-key-1', 'x-borrower-token': await h.borrowerToken(appId) };
        const submitted = await server.inject({ method: 'POST', url: '/api/App/SubmitApp', payload: prequalForm(own.officeId, { id: appId, firstName: 'Zed', lastName: 'Ninth', amount: 1500 }), headers: { ...headers, 'idempotency-key': randomUUID() } });
        expect(submitted.statusCode, submitted.body).toBe(200);
        expect(json<AppResult>(submitted).lenders.find((l) => l.code === 'zeta')).toMatchObject({ status: 'Approved', offerCount: 1 });
        const offers = json<Offer[]>(await server.inject({ method: 'GET', url: `/api/App/GetOffers/${appId}?amount=1000`, headers }));
        const offer = offers.find((o) => o.lenderCode === 'zeta')!;
        expect(offer).toMatchObject({ productCode: 'ZETA-INST18', amount: 1000 });
        const selected = await server.inject({ method: 'POST', url: '/api/App/SelectOffer', payload: { appId, offerId: offer.id, agreeToTerms: true }, headers: { ...headers, 'idempotency-key': randomUUID() } });
        expect(json<{ nextRoute: string; lenderName: string }>(selected)).toMatchObject({ nextRoute: `/app/zeta/welcome/${appId}`, lenderName: 'Zeta Health Credit' });
        const esign = json<{ eSignUrl: string }>(await server.inject({ method: 'POST', url: `/api/App/SubmitForESign?id=${appId}`, headers }));
        expect(esign.eSignUrl).toBe(`${h.settings.publicUrl}/#/app/zeta/sign/${appId}`);
      } finally {
        // The row goes again, so that the other files' lender lists stay the eight lenders.
        await h.database.db.execute(sql`delete from applications where id in (select distinct o.app_id from offers o join lenders l on l.id = o.lender_id where l.code = 'zeta')`);
        await h.database.db.execute(sql`delete from applications where id in (select al.app_id from application_lenders al join lenders l on l.id = al.lender_id where l.code = 'zeta')`);
        await h.database.db.delete(officeLenders).where(eq(officeLenders.lenderId, row!.id));
        await h.database.db.delete(lenders).where(eq(lenders.code, 'zeta'));
      }
    });

    it('refuses a lender file that breaks the meta-schema or names a step without a route', async () => {
      const { parseLenderFile } = await import('../../core/lenders/descriptor.ts');
      const base = (await import('../../screens/lenders/ally.json', { with: { type: 'json' } })).default as Record<string, unknown>;
      const good = zeta(base);
      expect(() => parseLenderFile('/x/zeta.json', JSON.stringify(good))).not.toThrow();
      expect(() => parseLenderFile('/x/other.json', JSON.stringify(good))).toThrow(/must be named zeta.json/);
      expect(() => parseLenderFile('/x/zeta.json', JSON.stringify({ ...good, journey: { ...good.journey, steps: ['offers', 'pay'] } }))).toThrow(/journey step 'pay' has no route/);
      expect(() => parseLenderFile('/x/zeta.json', JSON.stringify({ ...good, sandbox: { ...good.sandbox, failureRate: 2 } }))).toThrow(/lender.schema.json/);
      const counterOnDecline = { when: true, decision: 'Declined', approvedAmount: 1000 };
      expect(() => parseLenderFile('/x/zeta.json', JSON.stringify({ ...good, sandbox: { ...good.sandbox, rules: [counterOnDecline] } }))).toThrow(/approvedAmount goes with the decision Approved/);
    });
  });
});
