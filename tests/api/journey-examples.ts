import { rolePermissions } from '../../core/permissions.ts';
import { randomBytes, randomInt } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { InjectOptions } from 'fastify';
import { applicationLenders, lenders, linkTokens, officeLenders, offers, users } from '../../server/db/schema.ts';
import type { Caller } from '../../server/http/caller.ts';
import { runNow, type Services } from '../../server/services.ts';
import { downloadUrl, recordConsent, signAgreement, submitForESign, testDocument } from '../../server/domain/journey/esign.ts';
import { getQuiz, submitQuiz } from '../../server/domain/journey/kba.ts';
import { wordsFor } from '../../server/descriptors/languages.ts';
import { selectOffer } from '../../server/domain/journey/offers.ts';
import { submitApplication } from '../../server/domain/journey/prequal.ts';
import { sendApplication } from '../../server/domain/journey/send.ts';
import { tokenHash } from '../../server/identity/secrets.ts';
import type { Harness } from '../support/harness.ts';
import { testDocumentCodeIn } from '../support/pdf-text.ts';
import { freshEmail, kbaAnswers, prequalForm, signaturePng, signedCallback } from './journey-fixtures.ts';

/**
 * The rows the borrower-journey examples of the contract test act on (tests/api/examples.ts): one
 * application per state a journey call needs, made through the domain functions themselves, in the
 * published fixture office with three sandbox lenders.
 */
export interface JourneyExampleFixtures {
  officeId: number;
  /** Sent by link, not yet pre-qualified; `linkToken` opens it. */
  sentAppId: number;
  linkToken: string;
  /** Pre-qualified with offers; `offerId` is one of them. */
  offersAppId: number;
  offerId: number;
  /** Declined by every lender (the office submits it to a lender again). */
  declinedAppId: number;
  /** Under review at gsky; `callback` is gsky's signed approval. */
  pendingAppId: number;
  callback: { payload: string; headers: Record<string, string> };
  /** An offer selected (OfferSelected), remote signing enabled. */
  selectedAppId: number;
  /** Documents generated; `consentSha256` is the consent text shown. */
  documentsAppId: number;
  consentSha256: string;
  /** The code in its consent's test document. */
  documentCode: string;
  /** Consent given. */
  consentedAppId: number;
  /** A quiz open, with its right answers. */
  quizAppId: number;
  quizAnswers: { quizId: string; transactionId: string; answers: { questionId: string; choiceId: string }[] };
  /** Identity questions passed. */
  kbaPassedAppId: number;
  /** Signed. */
  signedAppId: number;
  /** The path of the short-lived link to its signed documents (App_GetDownloadUrl). */
  documentsLink: string;
  signaturePng: string;
  smsWebhookSecret: string;
  /** A mobile phone of this set's own that replies STOP (its opt-out is no other set's). */
  stopPhone: string;
}

export const JOURNEY_PLACEHOLDER: JourneyExampleFixtures = {
  officeId: 100, sentAppId: 1000, linkToken: 'x'.repeat(43), offersAppId: 1000, offerId: 1, declinedAppId: 1000, pendingAppId: 1000,
  callback: { payload: '{}', headers: { 'content-type': 'application/json' } }, selectedAppId: 1000, documentsAppId: 1000, consentSha256: '0'.repeat(64), documentCode: '0000', consentedAppId: 1000,
  quizAppId: 1000, quizAnswers: { quizId: 'q', transactionId: 't', answers: [{ questionId: 'street', choiceId: 'c' }] }, kbaPassedAppId: 1000,
  signedAppId: 1000, documentsLink: '/api/Files/GetContentByLink/fl1.placeholder-token', signaturePng: 'data:image/png;base64,', smsWebhookSecret: 'x'.repeat(20), stopPhone: '+15125550166',
};

const EXAMPLE_SMS_SECRET = 'example-sms-webhook-secret';

export async function journeyExampleFixtures(h: Harness, officeId: number, adminEmail: string): Promise<JourneyExampleFixtures> {
  const db = h.database.db;
  // The examples' webhook call needs a secret; the shared server gets one (tests that need none build their own server).
  h.settings.notify.smsWebhookSecret ??= EXAMPLE_SMS_SECRET;
  const services: Services = { settings: h.settings, db, database: h.database, log: h.app.log, afterCommit: runNow };
  const ids = await db.select({ id: lenders.id, code: lenders.code }).from(lenders).where(inArray(lenders.code, ['ally', 'gsky', 'lpoint']));
  await db
    .insert(officeLenders)
    .values(ids.map((l, i) => ({ officeId, lenderId: l.id, status: 'Completed' as const, numOrder: 10 + i, isEnrollmentCompleted: true, discountRate: 5 })))
    .onConflictDoUpdate({ target: [officeLenders.officeId, officeLenders.lenderId], set: { status: 'Completed', isEnabled: true } });
  const [admin] = await db.select({ id: users.id }).from(users).where(eq(users.email, adminEmail));
  const staff: Caller = { kind: 'staff', userId: admin!.id, email: adminEmail, role: 'admin', userRole: null, offices: new Map([[officeId, 'admin']]), permissions: new Map([[officeId, rolePermissions('admin')]]), disabledOffices: new Set() };
  const request = { ip: '198.51.100.7', headers: { 'user-agent': 'ExampleFixtures/1.0' } } as unknown as FastifyRequest;
  const borrower = (appId: number): Caller => ({ kind: 'borrower', appId });

  const sent = await sendApplication(services, staff, { officeId, firstName: 'Sid', lastName: 'Sent', amount: 2500, email: freshEmail('sid'), enableRemoteSign: true });
  // Unique per call: the contract test and the fuzzer each make their own fixtures in the one database.
  const linkToken = `example-link-token-${randomBytes(12).toString('hex')}`;
  await db.insert(linkTokens).values({ tokenHash: tokenHash(linkToken), appId: sent.appId!, expiresAt: new Date(Date.now() + 3_600_000) });

  const prequalified = async (overrides: Record<string, unknown> = {}) => {
    const form = prequalForm(officeId, overrides);
    const result = await submitApplication(services, staff, form as never);
    return { form, appId: result.id };
  };
  const firstOffer = async (appId: number, code = 'ally') =>
    (await db.select({ id: offers.id }).from(offers).innerJoin(lenders, eq(lenders.id, offers.lenderId)).where(and(eq(offers.appId, appId), eq(lenders.code, code))).limit(1))[0]!.id;
  const selected = async (enableRemoteSign = false) => {
    const { form, appId } = await prequalified({ enableRemoteSign });
    await selectOffer(services, borrower(appId), { appId, offerId: await firstOffer(appId), agreeToTerms: true });
    return { form, appId };
  };
  const withDocuments = async () => {
    const app = await selected();
    const ceremony = await submitForESign(services, borrower(app.appId), app.appId, request);
    const documentCode = await testDocumentCodeIn((await testDocument(services, app.appId, request)).bytes);
    return { ...app, consentSha256: ceremony.consentSha256, documentCode };
  };
  const consented = async () => {
    const app = await withDocuments();
    await recordConsent(services, borrower(app.appId), { appId: app.appId, agreeToESign: true, consentSha256: app.consentSha256, documentCode: app.documentCode }, request);
    return app;
  };
  const withQuiz = async () => {
    const app = await consented();
    const quiz = await getQuiz(services, borrower(app.appId), app.appId, wordsFor(null));
    return { ...app, answers: kbaAnswers(quiz, app.form) };
  };
  const kbaPassed = async () => {
    const app = await withQuiz();
    await submitQuiz(services, borrower(app.appId), { appId: app.appId, ...app.answers }, request);
    return app;
  };
  const png = await signaturePng('Example');

  const offersApp = await prequalified();
  const declined = await prequalified({ lastName: 'Decline' });
  const pending = await prequalified({ lastName: 'Pending' });
  const [gskyAnswer] = await db
    .select({ lender_app_id: applicationLenders.lenderAppId })
    .from(applicationLenders)
    .innerJoin(lenders, eq(lenders.id, applicationLenders.lenderId))
    .where(and(eq(applicationLenders.appId, pending.appId), eq(lenders.code, 'gsky')));
  const callback = signedCallback(h.settings, {
    lenderCode: 'gsky', appId: pending.appId, lenderAppId: gskyAnswer!.lender_app_id, eventType: 'Decision', decisionStatus: 'Approved', occurredAtUtc: new Date().toISOString(),
  });
  const selectedApp = await selected(true);
  const documents = await withDocuments();
  const consentedApp = await consented();
  const quizApp = await withQuiz();
  const passed = await kbaPassed();
  const signed = await kbaPassed();
  await signAgreement(services, borrower(signed.appId), { appId: signed.appId, typedName: 'Pat Applicant', signaturePng: png, agreeToTerms: true }, request);
  return {
    officeId,
    sentAppId: sent.appId!,
    linkToken,
    offersAppId: offersApp.appId,
    offerId: await firstOffer(offersApp.appId, 'gsky'),
    declinedAppId: declined.appId,
    pendingAppId: pending.appId,
    callback: { payload: callback.payload, headers: callback.headers },
    selectedAppId: selectedApp.appId,
    documentsAppId: documents.appId,
    consentSha256: documents.consentSha256,
    documentCode: documents.documentCode,
    consentedAppId: consentedApp.appId,
    quizAppId: quizApp.appId,
    quizAnswers: quizApp.answers,
    kbaPassedAppId: passed.appId,
    signedAppId: signed.appId,
    documentsLink: (await downloadUrl(services, signed.appId)).url.slice(h.settings.publicUrl.length),
    signaturePng: png,
    smsWebhookSecret: h.settings.notify.smsWebhookSecret!,
    stopPhone: `+1512555${String(randomInt(10_000)).padStart(4, '0')}`,
  };
}

type Request = InjectOptions & { url: string };
export interface JourneyExample {
  operationId: string;
  as?: string;
  borrowerOf?: number;
  request: Request;
}

/** One valid call of every borrower-journey operation, on the rows above, in an order where none undoes another's state. */
export function journeyExamples(f: JourneyExampleFixtures, owner: string): JourneyExample[] {
  const post = (url: string, payload: object): Request => ({ method: 'POST', url, payload });
  const put = (url: string, payload: object): Request => ({ method: 'PUT', url, payload });
  const get = (url: string): Request => ({ method: 'GET', url });
  return [
    { operationId: 'App_SendApp', as: owner, request: post('/api/App/SendApp', { officeId: f.officeId, firstName: 'Ella', lastName: 'Example', email: 'ella.example@gmail.com', mobilePhone: '(512) 555-0177', amount: 1800, serviceDate: null, enableRemoteSign: false }) },
    { operationId: 'App_GetSendAppInfo', borrowerOf: f.sentAppId, request: get(`/api/App/GetSendAppInfo/${f.sentAppId}`) },
    { operationId: 'App_GetSendAppLogs', as: owner, request: put('/api/App/GetSendAppLogs', { officeId: f.officeId, page: 1, pageSize: 10, sortBy: 'createdAtUtc', sortDesc: true }) },
    { operationId: 'App_CheckBorrowerEmail', as: owner, request: put('/api/App/CheckBorrowerEmail', { officeId: f.officeId, email: 'jordan.lee@icloud.com' }) },
    { operationId: 'Otp_ExchangeLinkToken', request: post('/api/Otp/ExchangeLinkToken', { appId: f.sentAppId, token: f.linkToken }) },
    { operationId: 'App_ValidateBorrower', borrowerOf: f.sentAppId, request: post('/api/App/ValidateBorrower', prequalForm(f.officeId, { id: f.sentAppId, firstName: 'Sid', lastName: 'Sent' })) },
    { operationId: 'App_SubmitApp', as: owner, request: post('/api/App/SubmitApp', prequalForm(f.officeId, { firstName: 'Nina', lastName: 'New' })) },
    { operationId: 'App_SubmitToLender', as: owner, request: post('/api/App/SubmitToLender', { appId: f.declinedAppId, lenderCodes: ['ally'] }) },
    { operationId: 'App_GetOffers', borrowerOf: f.offersAppId, request: get(`/api/App/GetOffers/${f.offersAppId}?amount=4000`) },
    { operationId: 'App_SelectOffer', borrowerOf: f.offersAppId, request: post('/api/App/SelectOffer', { appId: f.offersAppId, offerId: f.offerId, amount: 4000, agreeToTerms: true }) },
    { operationId: 'App_GetLenderApp', as: owner, request: get(`/api/App/GetLenderApp/${f.offersAppId}`) },
    { operationId: 'App_UpdateContractStatus', borrowerOf: f.offersAppId, request: put('/api/App/UpdateContractStatus', { appId: f.offersAppId, contractSubStatus: 'TermsPresented' }) },
    { operationId: 'App_ProcessLenderCallback', request: { method: 'POST', url: '/api/App/ProcessLenderCallback', payload: f.callback.payload, headers: f.callback.headers } },
    { operationId: 'App_SendESignLink', as: owner, request: put('/api/App/SendESignLink', { appId: f.selectedAppId, channel: 'Email' }) },
    { operationId: 'App_SubmitForESign', borrowerOf: f.selectedAppId, request: { method: 'POST', url: `/api/App/SubmitForESign?id=${f.selectedAppId}` } },
    { operationId: 'App_GetESignTestDocument', borrowerOf: f.documentsAppId, request: get(`/api/App/GetESignTestDocument/${f.documentsAppId}`) },
    { operationId: 'App_ESignConsent', borrowerOf: f.documentsAppId, request: post('/api/App/ESignConsent', { appId: f.documentsAppId, agreeToESign: true, consentSha256: f.consentSha256, documentCode: f.documentCode }) },
    { operationId: 'App_GetKBA', borrowerOf: f.consentedAppId, request: get(`/api/App/GetKBA/${f.consentedAppId}`) },
    { operationId: 'App_SubmitKBA', borrowerOf: f.quizAppId, request: post('/api/App/SubmitKBA', { appId: f.quizAppId, ...f.quizAnswers }) },
    { operationId: 'App_GetLoanAgreement', borrowerOf: f.kbaPassedAppId, request: get(`/api/App/GetLoanAgreement/${f.kbaPassedAppId}`) },
    { operationId: 'App_SignAgreement', borrowerOf: f.kbaPassedAppId, request: post('/api/App/SignAgreement', { appId: f.kbaPassedAppId, typedName: 'Pat Applicant', signaturePng: f.signaturePng, agreeToTerms: true }) },
    { operationId: 'App_GetDownloadUrl', as: owner, request: get(`/api/App/GetDownloadUrl/${f.signedAppId}`) },
    { operationId: 'App_GetMyDocuments', borrowerOf: f.signedAppId, request: get(`/api/App/GetMyDocuments/${f.signedAppId}`) },
    { operationId: 'Files_GetContentByLink', request: get(f.documentsLink) },
    { operationId: 'Notify_ReceiveSms', request: { method: 'POST', url: '/api/Notify/ReceiveSms', payload: { from: f.stopPhone, text: 'STOP' }, headers: { 'x-sms-webhook-secret': f.smsWebhookSecret } } },
    { operationId: 'dev_outbox', request: get('/api/dev/outbox?limit=5') },
  ];
}
