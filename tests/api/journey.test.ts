import type { components } from '../../codegen/generated/api.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import { createHash } from 'node:crypto';
import { verifyChain, type ChainedEvent } from '../../server/esign/audit.ts';
import { creditTermsOf, disclose } from '../../core/credit.ts';
import { harness, type Harness } from '../support/harness.ts';
import { pageText, testDocumentCodeIn } from '../support/pdf-text.ts';
import { journeyOffice, json, kbaAnswers, logLines, prequalForm, signaturePng, type JourneyOffice } from './journey-fixtures.ts';

type AppResult = { id: number; stage: string; decisionStatus: string; isOfferMatch: boolean; nextRoute: string | null; lenders: { code: string; status: string; adverseActionReason: string | null; offerCount: number }[] };
type Offer = components['schemas']['Offer'];
type Application = { id: number; stage: string; statusChip: string; contractSubStatus: string; contractStatus: string | null; statusText: string; lenderCode: string | null; nextRoute: string | null; amount: number; last4SSN: string; dobDateTime: string; lenderAppUrl: string | null; disclosure: components['schemas']['Disclosure'] | null };
type Quiz = { quizId: string; transactionId: string; status: string; questions: { id: string; text: string; choices: { id: string; text: string }[] }[] };

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

/**
 * Pre-qualification, the waterfall, offers, selection, identity questions and e-sign through HTTP
 * (issue 5, items 3–9), in an office of its own with six sandbox lenders.
 */
describe('the borrower journey', () => {
  let h: Harness;
  let office: JourneyOffice;
  const submit = (form: Record<string, unknown>, options: { as?: string; borrowerOf?: number; key?: string } = {}) =>
    h.call({
      method: 'POST',
      url: '/api/App/SubmitApp',
      payload: form,
      ...(options.borrowerOf ? { borrowerOf: options.borrowerOf } : { as: options.as ?? office.admin }),
      headers: options.key ? { 'idempotency-key': options.key } : {},
    });
  const asBorrower = (appId: number, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, headers: Record<string, string> = {}) =>
    h.call({ method, url, payload, borrowerOf: appId, headers });
  /** The code of the consent's test document, read from the PDF the borrower opens. */
  const documentCode = async (appId: number) => testDocumentCodeIn((await asBorrower(appId, 'GET', `/api/App/GetESignTestDocument/${appId}`)).rawPayload);
  const getApp = async (appId: number, as = office.admin) => json<Application>(await h.call({ method: 'GET', url: `/api/App/GetApp/${appId}/false`, as }));

  /** A new application on the office device, pre-qualified. */
  const prequalified = async (overrides: Record<string, unknown> = {}) => {
    const form = prequalForm(office.officeId, overrides);
    const response = await submit(form);
    expect(response.statusCode, response.body).toBe(200);
    return { form, result: json<AppResult>(response) };
  };
  const offersOf = async (appId: number, amount?: number) =>
    json<Offer[]>(await asBorrower(appId, 'GET', `/api/App/GetOffers/${appId}${amount === undefined ? '' : `?amount=${amount}`}`));
  const select = (appId: number, offerId: number, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
    asBorrower(appId, 'POST', '/api/App/SelectOffer', { appId, offerId, agreeToTerms: true, ...extra }, headers);
  const selected = async (code: string, overrides: Record<string, unknown> = {}) => {
    const { form, result } = await prequalified(overrides);
    const offer = (await offersOf(result.id)).find((o) => o.lenderCode === code)!;
    expect(offer, `an offer of ${code}`).toBeDefined();
    const response = await select(result.id, offer.id);
    expect(response.statusCode, response.body).toBe(200);
    return { form, appId: result.id, offer, app: json<Application>(response) };
  };

  beforeAll(async () => {
    h = await harness();
    office = await journeyOffice(h);
  });

  describe('pre-qualification', () => {
    it('validates the borrower rules of spec §5 with their messages', async () => {
      const validate = (overrides: Record<string, unknown>) =>
        h.call({ method: 'POST', url: '/api/App/ValidateBorrower', payload: prequalForm(office.officeId, overrides), as: office.admin });
      const ok = await validate({});
      expect(ok.statusCode, ok.body).toBe(200);
      expect(json(ok)).toEqual({ isValid: true, isSSNMismatch: false });
      const today = new Date();
      const seventeen = `${String(today.getUTCMonth() + 1).padStart(2, '0')}/${String(today.getUTCDate()).padStart(2, '0')}/${today.getUTCFullYear() - 17}`;
      const cases: [Record<string, unknown>, string, string][] = [
        [{ firstName: 'P4t' }, 'firstName', 'Names can only contain alphabets, spaces, hyphens and apostrophes.'],
        [{ lastName: 'A'.repeat(26) }, 'lastName', 'This field exceeds 25 characters.'],
        [{ mobilePhone: undefined, homePhone: undefined }, '$', 'Please enter a home or mobile phone.'],
        [{ mobilePhone: '(___) ___-____' }, '$', 'Please enter a home or mobile phone.'],
        [{ address: { streetAddress: '1 Main St', city: 'Austin', state: 'TX', zipCode: '7870' } }, 'address.zipCode', 'This field must be a 5-digit ZIP code, such as 78701 or 78701-1234.'],
        [{ dob: seventeen }, 'dob', 'You are under 18.'],
        [{ ssn: '12-345' }, 'ssn', 'This field must be a 9-digit Social Security number, such as 123-45-6789.'],
        [{ annualIncome: 'lots' }, 'annualIncome', 'This field must be numeric.'],
        [{ employmentStatus: 'Astronaut' }, 'employmentStatus', 'This field must be one of the allowed values.'],
        [{ residenceStatus: undefined }, 'residenceStatus', 'This field is required.'],
        [{ amount: 40001 }, 'amount', 'This field must have a maximum value of 40000'],
        [{ agreeToTerms: false }, 'agreeToTerms', 'Must be checked.'],
        [{ agreeToESign: false }, 'agreeToESign', 'Must be checked.'],
        [{ email: `x@${new URL(office.website).hostname.replace(/^www\./, '')}` }, 'email', "The email address must be the borrower's personal email address."],
      ];
      for (const [overrides, field, text] of cases) {
        const response = await validate(overrides);
        expect(response.statusCode, `${JSON.stringify(overrides)}: ${response.body}`).toBe(400);
        expect(json<{ errors: Record<string, string[]> }>(response).errors[field], JSON.stringify(overrides)).toContain(text);
      }
      const past = await validate({ serviceDate: '01/02/2020' });
      expect(json<{ errors: Record<string, string[]> }>(past).errors.serviceDate![0]).toMatch(/^Date cannot be before/);
    });

    it('asks every lender of the office at once: an income of 30,000+ and an amount up to 10,000 get offers from at least three', async () => {
      for (const amount of [100, 2500, 10000]) {
        const { result } = await prequalified({ annualIncome: 30000, amount });
        // Lending USA and Upgrade finance from $1,000: a smaller request is not sent to them (decision 0213).
        expect(result.lenders).toHaveLength(amount >= 1000 ? 6 : 4);
        const offering = result.lenders.filter((l) => l.status === 'Approved' && l.offerCount > 0);
        expect(offering.length, `amount ${amount}: ${JSON.stringify(result.lenders)}`).toBeGreaterThanOrEqual(3);
        expect(result).toMatchObject({ stage: 'NotApplicable', decisionStatus: 'Approved', isOfferMatch: true, nextRoute: '/app/prequal/match' });
      }
    });

    it('keeps each answer per lender and the personal data encrypted; the office sees Offers Available', async () => {
      const { form, result } = await prequalified({ ssn: '900-55-1234', dob: '07/04/1980' });
      const rows = (await h.database.db.execute<{ code: string; status: string; lender_app_id: string | null; latency_ms: number | null }>(sql`
        select l.code, al.status, al.lender_app_id, al.latency_ms from application_lenders al join lenders l on l.id = al.lender_id where al.app_id = ${result.id}`)).rows;
      expect(rows.map((r) => r.code).sort()).toEqual(['ally', 'gsky', 'lpoint', 'lusa', 'powerpay', 'upg']);
      expect(rows.every((r) => r.lender_app_id && r.latency_ms !== null)).toBe(true);
      const [row] = (await h.database.db.execute<{ ssn_enc: string; dob_enc: string; last4_ssn: string }>(sql`select ssn_enc, dob_enc, last4_ssn from applications where id = ${result.id}`)).rows;
      expect(row!.ssn_enc).not.toContain('900551234');
      expect(row!.ssn_enc.startsWith('v1.')).toBe(true);
      expect(row!.dob_enc).not.toContain('1980');
      expect(row!.last4_ssn).toBe('1234');
      const app = await getApp(result.id);
      expect(app).toMatchObject({ stage: 'NotApplicable', statusChip: 'OffersAvailable', last4SSN: '1234', dobDateTime: '**/**/1980' });
      expect(JSON.stringify(app)).not.toContain('900-55');
      const decisions = (await logLines(h, result.id)).filter((l) => l.kind === 'Decision');
      expect(decisions).toHaveLength(6);
      expect(form.ssn).toBe('900-55-1234');
    });

    it("declines the last name 'Decline' at every lender, with adverse-action reasons: the nomatch page", async () => {
      const { result } = await prequalified({ lastName: 'Decline' });
      expect(result).toMatchObject({ stage: 'Declined', decisionStatus: 'Declined', isOfferMatch: false, nextRoute: '/app/prequal/nomatch' });
      expect(result.lenders.every((l) => l.status === 'Declined' && l.offerCount === 0 && l.adverseActionReason)).toBe(true);
      const app = await getApp(result.id);
      expect(app).toMatchObject({ stage: 'Declined', statusChip: 'Inactive' });
      expect(await offersOf(result.id)).toEqual([]);
    });

    it("sends the last name 'Pending' to review: no offers yet, Action Required for the office", async () => {
      const { result } = await prequalified({ lastName: 'Pending' });
      expect(result).toMatchObject({ stage: 'Review', decisionStatus: 'PendingReview', isOfferMatch: false });
      expect(result.lenders.every((l) => l.status === 'PendingReview')).toBe(true);
      expect((await getApp(result.id)).statusChip).toBe('ActionRequired');
    });

    it("pre-qualifies the borrower's own application (sent by link) with the borrower token, and refuses a second submission", async () => {
      const sent = json<{ appId: number }>(await h.call({ method: 'POST', url: '/api/App/SendApp', payload: { officeId: office.officeId, firstName: 'Lee', lastName: 'Link', amount: 2000, email: `lee.${office.tag}@gmail.com` }, as: office.admin }));
      const form = prequalForm(office.officeId, { id: sent.appId, firstName: 'Lee', lastName: 'Link' });
      const response = await submit(form, { borrowerOf: sent.appId });
      expect(response.statusCode, response.body).toBe(200);
      expect(json<AppResult>(response)).toMatchObject({ id: sent.appId, isOfferMatch: true });
      const again = await submit(form, { borrowerOf: sent.appId });
      expect(again.statusCode).toBe(409);
      // A borrower cannot start a new application (id 0 is for the office).
      expect((await submit(prequalForm(office.officeId), { borrowerOf: sent.appId })).statusCode).toBe(403);
    });

    it('submits once for a repeated Idempotency-Key: one application, one waterfall', async () => {
      const form = prequalForm(office.officeId, { lastName: 'Idempotent' });
      const key = `submit-${office.tag}-1`;
      const first = await submit(form, { key });
      const second = await submit(form, { key });
      expect(first.statusCode).toBe(200);
      expect(json(second)).toEqual(json(first));
      const count = await h.database.db.execute<{ n: number }>(sql`select count(*)::int as n from applications where email = ${String(form.email)}`);
      expect(count.rows[0]!.n).toBe(1);
      const submitted = (await logLines(h, json<AppResult>(first).id)).filter((l) => l.message.startsWith('Submitted to'));
      expect(submitted).toHaveLength(1);
    });
  });

  describe('offers and the selection', () => {
    it('prices the offers again for another amount within the line, and refuses more than the approved amount', async () => {
      const { result } = await prequalified({ amount: 6000 });
      const offers = await offersOf(result.id);
      const cheaper = await offersOf(result.id, 3000);
      const installment = offers.find((o) => o.productCode === 'ALLY-INST24')!;
      const again = cheaper.find((o) => o.id === installment.id)!;
      expect(again.amount).toBe(3000);
      expect(again.monthlyPayment).toBeLessThan(installment.monthlyPayment!);
      expect(again.apr).toBe(installment.apr);
      const max = Math.max(...offers.map((o) => o.maxLine ?? 0));
      const tooMuch = await asBorrower(result.id, 'GET', `/api/App/GetOffers/${result.id}?amount=${max + 100}`);
      expect(tooMuch.statusCode).toBe(400);
      expect(json<{ errors: Record<string, string[]> }>(tooMuch).errors.amount).toEqual(['Loan amount cannot exceed the approved amount.']);
      const small = await offersOf(result.id, 150);
      expect(small.find((o) => o.productCode === 'ALLY-PROMO12')).toMatchObject({ isVisible: false });
    });

    it('gives each offer its Truth in Lending figures at the amount shown: a deferred-interest plan says what is charged if not paid in time', async () => {
      const { result } = await prequalified({ amount: 6000 });
      const at3000 = await offersOf(result.id, 3000);
      const promo = at3000.find((o) => o.productCode === 'ALLY-PROMO12')!;
      const installment = at3000.find((o) => o.productCode === 'ALLY-INST24')!;
      const expected = disclose(creditTermsOf({ productType: promo.productType, amountCents: 300_000, feeCents: 0, apr: promo.apr, term: promo.term, promoTerm: promo.promoTerm })!);
      expect(promo.disclosure).toMatchObject({ apr: expected.apr, promotion: { months: 12, monthlyPayment: 250, interestIfUnpaid: expected.promotion!.interestIfUnpaidCents / 100 } });
      expect(promo.disclosure!.promotion!.interestIfUnpaid).toBeGreaterThan(0);
      expect(installment.disclosure).toMatchObject({ promotion: null, amountFinanced: 3000 });
      // The chosen plan's disclosure on the application is the one its offer showed.
      expect((await select(result.id, promo.id, { amount: 3000 })).statusCode).toBe(200);
      expect((await getApp(result.id)).disclosure).toEqual(promo.disclosure);
    });

    it('selects an offer only with the confirmation checkbox, once per Idempotency-Key, and sends each flow to its next step', async () => {
      const { result } = await prequalified();
      const offers = await offersOf(result.id);
      const ally = offers.find((o) => o.lenderCode === 'ally')!;
      const unchecked = await select(result.id, ally.id, { agreeToTerms: false });
      expect(unchecked.statusCode).toBe(400);
      expect(json<{ errors: Record<string, string[]> }>(unchecked).errors.agreeToTerms).toEqual(['Must be checked.']);

      const key = { 'idempotency-key': `select-${result.id}` };
      const first = await select(result.id, ally.id, {}, key);
      const second = await select(result.id, ally.id, {}, key);
      expect(first.statusCode, first.body).toBe(200);
      expect(json(second)).toEqual(json(first));
      expect((await logLines(h, result.id)).filter((l) => l.kind === 'Event' && l.message === 'Offer selected')).toHaveLength(1);
      expect(json<Application>(first)).toMatchObject({ stage: 'OfferSelected', contractSubStatus: 'TermsPresented', lenderCode: 'ally', statusChip: 'OffersAvailable', nextRoute: '/app/ally/offers/congrats' });

      // Choosing another lender before signing replaces the choice.
      const gsky = offers.find((o) => o.lenderCode === 'gsky')!;
      expect(json<Application>(await select(result.id, gsky.id)).nextRoute).toBe('/app/gsky/offers/congrats');
      const upg = offers.find((o) => o.lenderCode === 'upg')!;
      const handedOff = json<Application>(await select(result.id, upg.id));
      expect(handedOff.nextRoute).toBe(handedOff.lenderAppUrl);
      // The lender's own page, served by the sandbox lenders' site of this server (decision 0191).
      expect(handedOff.nextRoute).toMatch(new RegExp(`^${h.settings.publicUrl}/sandbox/lenders/upg/applications/UPG-`));
      expect((await offersOf(result.id)).filter((o) => o.isSelected).map((o) => o.id)).toEqual([upg.id]);
    });
  });

  describe('identity questions and e-sign', () => {
    const esign = (appId: number) => asBorrower(appId, 'POST', `/api/App/SubmitForESign?id=${appId}`);

    it('walks ally: documents, ESIGN consent, identity questions, signature; the office downloads the signed PDF with its certificate', async () => {
      const { form, appId } = await selected('ally');
      const opened = await esign(appId);
      expect(opened.statusCode, opened.body).toBe(200);
      const ceremony = json<{ eSignUrl: string; hostedBy: string; contractSubStatus: string; consentText: string; consentSha256: string; documentSha256: string; nextRoute: string }>(opened);
      expect(ceremony).toMatchObject({ hostedBy: 'platform', contractSubStatus: 'ESignGenerated', nextRoute: `/app/ally/esign/${appId}` });
      expect(ceremony.eSignUrl).toBe(`${h.settings.publicUrl}/#/app/ally/esign/${appId}`);
      for (const phrase of ['paper', 'free of charge', 'withdraw', 'applies to this loan application', 'update them', 'Hardware and software']) {
        expect(ceremony.consentText).toContain(phrase);
      }
      expect(ceremony.consentSha256).toBe(sha256(ceremony.consentText));
      expect((await getApp(appId)).stage).toBe('SigningRequired');

      // Before the consent: no identity questions, no signature.
      expect((await asBorrower(appId, 'GET', `/api/App/GetKBA/${appId}`)).statusCode).toBe(409);
      // The test document (15 USC 7001(c)(1)(C)(ii)): the borrower's only, a PDF with the code that shows they opened it.
      expect((await h.call({ method: 'GET', url: `/api/App/GetESignTestDocument/${appId}`, as: office.admin })).statusCode).toBe(403);
      const testDocument = await asBorrower(appId, 'GET', `/api/App/GetESignTestDocument/${appId}`);
      expect(testDocument.headers['content-type']).toBe('application/pdf');
      const code = await testDocumentCodeIn(testDocument.rawPayload);
      expect(await documentCode(appId), 'the same code for the same ceremony').toBe(code);
      const stale = await asBorrower(appId, 'POST', '/api/App/ESignConsent', { appId, agreeToESign: true, consentSha256: sha256('another text'), documentCode: code });
      expect(stale.statusCode).toBe(409);
      const noCode = await asBorrower(appId, 'POST', '/api/App/ESignConsent', { appId, agreeToESign: true, consentSha256: ceremony.consentSha256 });
      expect(json<{ errors: Record<string, string[]> }>(noCode).errors.documentCode).toEqual(['This field is required.']);
      const wrong = await asBorrower(appId, 'POST', '/api/App/ESignConsent', { appId, agreeToESign: true, consentSha256: ceremony.consentSha256, documentCode: code === '0000' ? '0001' : '0000' });
      expect(wrong.statusCode).toBe(400);
      expect(json<{ errors: Record<string, string[]> }>(wrong).errors.documentCode).toEqual(['This is not the code in the test document. Open it again and type the code it shows.']);
      const consent = await asBorrower(appId, 'POST', '/api/App/ESignConsent', { appId, agreeToESign: true, consentSha256: ceremony.consentSha256, documentCode: code }, { 'user-agent': 'JourneyTest/1.0' });
      expect(consent.statusCode, consent.body).toBe(200);
      expect(json<{ consentedAtUtc: string }>(consent).consentedAtUtc).toBeTruthy();

      // Staff may not see the questions (borrower only).
      expect((await h.call({ method: 'GET', url: `/api/App/GetKBA/${appId}`, as: office.admin })).statusCode).toBe(403);
      const quiz = json<Quiz>(await asBorrower(appId, 'GET', `/api/App/GetKBA/${appId}`));
      expect(quiz.questions).toHaveLength(4);
      expect(JSON.stringify(quiz)).not.toContain('answer');
      const office1 = await getApp(appId);
      expect(office1).toMatchObject({ contractSubStatus: 'KBAPending', statusText: 'Borrower is answering the identity questions' });
      const stored = (await h.database.db.execute<{ answer_hashes: Record<string, string> }>(sql`select answer_hashes from kba_quizzes where quiz_id = ${quiz.quizId}`)).rows[0]!;
      expect(Object.values(stored.answer_hashes).every((v) => /^[0-9a-f]{64}$/.test(v))).toBe(true);

      const key = { 'idempotency-key': `kba-${appId}` };
      const passed = await asBorrower(appId, 'POST', '/api/App/SubmitKBA', { appId, ...kbaAnswers(quiz, form) }, key);
      const repeat = await asBorrower(appId, 'POST', '/api/App/SubmitKBA', { appId, ...kbaAnswers(quiz, form) }, key);
      expect(passed.statusCode, passed.body).toBe(200);
      expect(json(repeat)).toEqual(json(passed));
      expect(json(passed)).toMatchObject({ status: 'Passed', contractSubStatus: 'KBAPassed', quiz: null });
      expect(json<Application>(await asBorrower(appId, 'GET', `/api/App/GetApp/${appId}/false`)).nextRoute).toBe(`/app/ally/sign/${appId}`);

      // The agreement to sign, with the offer's terms.
      const unsigned = await asBorrower(appId, 'GET', `/api/App/GetLoanAgreement/${appId}`);
      expect(unsigned.statusCode).toBe(200);
      expect(unsigned.headers['content-type']).toBe('application/pdf');
      expect(unsigned.headers['content-disposition']).toBe(`attachment; filename="loan-agreement-${appId}.pdf"`);
      const unsignedPdf = unsigned.rawPayload;
      expect(sha256(unsignedPdf)).toBe(json<{ documentSha256: string }>(await esign(appId)).documentSha256);
      const terms = await pageText(unsignedPdf, 0);
      // The PDF's federal box states what App_GetApp discloses: the one credit calculation (decision 0211).
      const { disclosure } = await getApp(appId);
      expect(disclosure).not.toBeNull();
      const dollars = (n: number) => `$${n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
      expect(terms).toContain('Annual percentage rate');
      expect(terms).toContain(`${disclosure!.apr.toFixed(3)}%`);
      for (const [label, amount] of [['Finance charge', disclosure!.financeCharge], ['Amount financed', disclosure!.amountFinanced], ['Total of payments', disclosure!.totalOfPayments]] as const) {
        expect(terms).toContain(label);
        expect(terms).toContain(dollars(amount));
      }
      expect(terms).toContain(`Payment schedule: ${disclosure!.payments[0]!.count} monthly payment`);
      expect((await getApp(appId)).contractSubStatus).toBe('AgreementPresented');

      const wrongName = await asBorrower(appId, 'POST', '/api/App/SignAgreement', { appId, typedName: 'Someone Else', signaturePng: await signaturePng(), agreeToTerms: true });
      expect(wrongName.statusCode).toBe(400);
      expect(json<{ errors: Record<string, string[]> }>(wrongName).errors.typedName).toBeDefined();
      const notPng = await asBorrower(appId, 'POST', '/api/App/SignAgreement', { appId, typedName: 'Pat Applicant', signaturePng: `data:image/png;base64,${Buffer.from('GIF89a not a png at all').toString('base64')}`, agreeToTerms: true });
      expect(notPng.statusCode).toBe(400);
      expect(json<{ errors: Record<string, string[]> }>(notPng).errors.signaturePng).toBeDefined();

      const signed = await asBorrower(appId, 'POST', '/api/App/SignAgreement', { appId, typedName: ' pat  applicant ', signaturePng: await signaturePng('Pat'), agreeToTerms: true }, { 'user-agent': 'JourneyTest/1.0' });
      expect(signed.statusCode, signed.body).toBe(200);
      expect(json<Application>(signed)).toMatchObject({ stage: 'ReadyToFinalize', contractStatus: 'Signed', statusChip: 'ActionRequired', nextRoute: null });
      expect((await asBorrower(appId, 'POST', '/api/App/SignAgreement', { appId, typedName: 'Pat Applicant', signaturePng: await signaturePng(), agreeToTerms: true })).statusCode).toBe(409);

      // The office: the stage, the files, the signed PDF.
      expect(await getApp(appId, office.support)).toMatchObject({ stage: 'ReadyToFinalize', statusChip: 'ActionRequired', statusText: 'Signed: ready to finalize' });
      const filesList = json<{ id: string; fileName: string; fileType: string }[]>(await h.call({ method: 'PUT', url: `/api/App/GetAppFiles?appId=${appId}`, as: office.support }));
      // What the empty list promises the office (screens/pages/app-id-files.json): the agreement, its signed copy, the consent.
      expect(filesList.map((f) => f.fileType).sort()).toEqual(['ESignConsent', 'LoanAgreement', 'SignedLoanAgreement']);
      const signedFile = filesList.find((f) => f.fileType === 'SignedLoanAgreement')!;
      expect(signedFile.fileName).toBe(`loan-agreement-${appId}-signed.pdf`);
      const download = await h.call({ method: 'GET', url: `/api/Files/GetContent/${signedFile.id}`, as: office.support });
      expect(download.statusCode).toBe(200);
      expect(download.headers['content-disposition']).toBe(`attachment; filename="loan-agreement-${appId}-signed.pdf"`);
      const signedPdf = download.rawPayload;
      const unsignedDoc = await PDFDocument.load(unsignedPdf);
      const signedDoc = await PDFDocument.load(signedPdf);
      expect(signedDoc.getPageCount()).toBeGreaterThan(unsignedDoc.getPageCount());
      expect(signedDoc.getKeywords()).toContain(`document-sha256=${sha256(unsignedPdf)}`);
      expect(signedDoc.getKeywords()).toContain(`consent-sha256=${ceremony.consentSha256}`);
      let certificate = '';
      for (let page = unsignedDoc.getPageCount(); page < signedDoc.getPageCount(); page++) certificate += await pageText(signedPdf, page);
      expect(certificate).toContain('Certificate of Completion');
      expect(certificate).toContain(sha256(unsignedPdf));
      expect(certificate).toContain(ceremony.consentSha256);
      expect(certificate).toContain('JourneyTest/1.0');
      for (const label of ['Opened', 'Consented', 'Signed']) expect(certificate).toContain(label);

      // The audit trail is a hash chain, and its last hash is the one printed in the PDF.
      const events = (await logLines(h, appId)).filter((l) => l.data && 'esign' in l.data).map((l) => (l.data as { esign: ChainedEvent }).esign);
      const ceremonyEvents = events.filter((e) => e.contractId === events[events.length - 1]!.contractId);
      expect(ceremonyEvents.map((e) => e.type)).toEqual(['documents-generated', 'opened', 'consented', 'kba-passed', 'document-viewed', 'signed', 'completed']);
      expect(verifyChain(ceremonyEvents)).toBe(true);
      const signedEvent = ceremonyEvents.find((e) => e.type === 'signed')!;
      expect(signedDoc.getKeywords()).toContain(`audit-chain=${signedEvent.hash}`);
      expect(certificate).toContain(signedEvent.hash);
      const tampered = ceremonyEvents.map((e) => (e.type === 'consented' ? { ...e, at: '2020-01-01T00:00:00.000Z' } : e));
      expect(verifyChain(tampered)).toBe(false);
      const completed = ceremonyEvents.find((e) => e.type === 'completed')!;
      expect(completed.data.signedDocumentSha256).toBe(sha256(signedPdf));

      // The borrower reads the signed one too.
      const mine = await asBorrower(appId, 'GET', `/api/App/GetLoanAgreement/${appId}`);
      expect(sha256(mine.rawPayload)).toBe(sha256(signedPdf));
      // 'Open my documents': a short-lived link that a browser opens as a page, with no credential at all (decision 0166).
      for (const asker of [() => asBorrower(appId, 'GET', `/api/App/GetDownloadUrl/${appId}`), () => h.call({ method: 'GET', url: `/api/App/GetDownloadUrl/${appId}`, as: office.support })]) {
        const link = json<{ url: string; token: string; expiresAtUtc: string }>(await asker());
        expect(link.url).toBe(`${h.settings.publicUrl}/api/Files/GetContentByLink/${link.token}`);
        expect(Date.parse(link.expiresAtUtc) - Date.now()).toBeGreaterThan(14 * 60_000);
        expect(Date.parse(link.expiresAtUtc) - Date.now()).toBeLessThanOrEqual(15 * 60_000);
        const opened = await h.call({ method: 'GET', url: link.url.slice(h.settings.publicUrl.length), key: false });
        expect(opened.statusCode).toBe(200);
        expect(opened.headers['content-disposition']).toBe(`inline; filename="loan-agreement-${appId}-signed.pdf"`);
        expect(opened.headers['cache-control']).toBe('no-store');
        expect(sha256(opened.rawPayload)).toBe(sha256(signedPdf));
        const altered = link.url.slice(h.settings.publicUrl.length).replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
        expect((await h.call({ method: 'GET', url: altered, key: false })).statusCode).toBe(404);
      }
      // Every step left a line for the office.
      const contract = (await logLines(h, appId)).filter((l) => l.kind === 'Contract').map((l) => (l.data as { contractSubStatus: string }).contractSubStatus);
      expect(contract).toEqual(expect.arrayContaining(['TermsPresented', 'ESignGenerated', 'KBAPending', 'KBAPassed', 'AgreementPresented']));
    });

    it('walks gsky (agreement, then cta), and the office sees each step without reloading anything but the row', async () => {
      const { form, appId, app } = await selected('gsky');
      expect(app.nextRoute).toBe('/app/gsky/offers/congrats');
      const ceremony = json<{ consentSha256: string; nextRoute: string }>(await esign(appId));
      expect(ceremony.nextRoute).toBe(`/app/gsky/agmt/${appId}`);
      await asBorrower(appId, 'POST', '/api/App/ESignConsent', { appId, agreeToESign: true, consentSha256: ceremony.consentSha256, documentCode: await documentCode(appId) });
      const quiz = json<Quiz>(await asBorrower(appId, 'GET', `/api/App/GetKBA/${appId}`));
      const row = async () => {
        const list = json<{ results: { id: number; stage: string; statusChip: string }[] }>(await h.call({ method: 'PUT', url: '/api/App/GetOfficeApps', payload: { officeId: office.officeId, search: String(appId) }, as: office.admin }));
        return list.results.find((r) => r.id === appId);
      };
      expect(await row()).toMatchObject({ stage: 'SigningRequired', statusChip: 'OffersAvailable' });
      expect((await asBorrower(appId, 'POST', '/api/App/SubmitKBA', { appId, ...kbaAnswers(quiz, form) })).statusCode).toBe(200);
      const signed = await asBorrower(appId, 'POST', '/api/App/SignAgreement', { appId, typedName: 'Pat Applicant', signaturePng: await signaturePng(), agreeToTerms: true });
      expect(json<Application>(signed).nextRoute).toBe(`/app/gsky/cta/${appId}`);
      expect(await row()).toMatchObject({ stage: 'ReadyToFinalize', statusChip: 'ActionRequired' });
    });

    it('gives two attempts at the identity questions, then KBAFailed: the office must act', async () => {
      const { form, appId } = await selected('lpoint');
      const ceremony = json<{ consentSha256: string }>(await esign(appId));
      await asBorrower(appId, 'POST', '/api/App/ESignConsent', { appId, agreeToESign: true, consentSha256: ceremony.consentSha256, documentCode: await documentCode(appId) });
      const quiz = json<Quiz>(await asBorrower(appId, 'GET', `/api/App/GetKBA/${appId}`));
      // The same open quiz is answered again when asked twice.
      expect(json<Quiz>(await asBorrower(appId, 'GET', `/api/App/GetKBA/${appId}`)).quizId).toBe(quiz.quizId);
      const first = json<{ status: string; attemptsRemaining: number; quiz: Quiz }>(await asBorrower(appId, 'POST', '/api/App/SubmitKBA', { appId, ...kbaAnswers(quiz, form, true) }));
      expect(first).toMatchObject({ status: 'Pending', contractSubStatus: 'KBAPending', attemptsRemaining: 1 });
      expect(first.quiz.quizId).not.toBe(quiz.quizId);
      // The first quiz cannot be answered again.
      expect((await asBorrower(appId, 'POST', '/api/App/SubmitKBA', { appId, ...kbaAnswers(quiz, form) })).statusCode).toBe(409);
      const second = json<{ status: string; attemptsRemaining: number }>(await asBorrower(appId, 'POST', '/api/App/SubmitKBA', { appId, ...kbaAnswers(first.quiz, form, true) }));
      expect(second).toMatchObject({ status: 'Failed', contractSubStatus: 'KBAFailed', attemptsRemaining: 0, quiz: null });
      expect((await asBorrower(appId, 'GET', `/api/App/GetKBA/${appId}`)).statusCode).toBe(409);
      expect(await getApp(appId)).toMatchObject({ stage: 'NeedsAttention', contractSubStatus: 'KBAFailed', statusChip: 'ActionRequired', nextRoute: null });
      expect((await asBorrower(appId, 'POST', '/api/App/SignAgreement', { appId, typedName: 'Pat Applicant', signaturePng: await signaturePng(), agreeToTerms: true })).statusCode).toBe(409);
    });

    it('sends the remote-sign link when Enable Remote Sign was chosen, and not otherwise', async () => {
      const { appId } = await selected('powerpay');
      const send = () => h.call({ method: 'PUT', url: '/api/App/SendESignLink', payload: { appId }, as: office.admin });
      expect((await send()).statusCode).toBe(409);
      await h.database.db.execute(sql`update applications set enable_remote_sign = true where id = ${appId}`);
      const response = await send();
      expect(response.statusCode, response.body).toBe(200);
      const app = await getApp(appId);
      expect(app).toMatchObject({ stage: 'SigningRequired', contractSubStatus: 'ESignLinkSent' });
      const [row] = (await h.database.db.execute<{ email: string }>(sql`select email from applications where id = ${appId}`)).rows;
      const mail = (await h.database.db.execute<{ subject: string; links: { url: string }[] }>(sql`select subject, links from outbox where recipient = ${row!.email} order by id desc limit 1`)).rows[0]!;
      expect(mail.subject).toContain('ready to sign');
      expect(mail.links[0]!.url).toContain(`/#/app/auth/${appId}?t=`);
    });
  });
});
