import { timingSafeEqual } from 'node:crypto';
import type { Handlers } from '../../http/handler-types.ts';
import { HttpProblem } from '../../http/problem.ts';
import { outboxEntries, optOutList, requireOutboxReader } from '../../notify/dev-outbox.ts';
import { receiveSmsReply } from '../../notify/optouts.ts';
import { contentDisposition } from '../files/content.ts';
import { downloadUrl, loanAgreement, recordConsent, sendESignLink, signAgreement, submitForESign, testDocument } from './esign.ts';
import { getQuiz, submitQuiz } from './kba.ts';
import { lenderApplication, processCallback, updateContractStatus } from './lender-calls.ts';
import { applicationWithRoute, getAppWithRoute } from './application-read.ts';
import { offerList, selectOffer } from './offers.ts';
import { submitApplication, submitToLenders, validateBorrower } from './prequal.ts';
import { exchangeLinkToken, isPersonalEmail, resendLink, sendAppInfo, sendAppLogList, sendApplication } from './send.ts';
import { languageFor, requestLocale, wordsFor } from '../../descriptors/languages.ts';
import { startApplication } from './self-start.ts';
import { myDocuments } from './documents.ts';
import { recordShown } from '../../descriptors/shown.ts';

type JourneyOperations =
  | 'App_SendApp' | 'App_ResendLink' | 'App_StartApp' | 'App_GetSendAppInfo' | 'App_GetSendAppLogs' | 'App_CheckBorrowerEmail' | 'Otp_ExchangeLinkToken'
  | 'App_ValidateBorrower' | 'App_SubmitApp' | 'App_SubmitToLender' | 'App_GetApp' | 'App_GetOffers' | 'App_SelectOffer'
  | 'App_SubmitForESign' | 'App_GetESignTestDocument' | 'App_ESignConsent' | 'App_GetKBA' | 'App_SubmitKBA' | 'App_GetLoanAgreement' | 'App_SignAgreement'
  | 'App_GetDownloadUrl' | 'App_GetMyDocuments' | 'App_SendESignLink' | 'App_GetLenderApp' | 'App_ProcessLenderCallback' | 'App_UpdateContractStatus'
  | 'Notify_ReceiveSms' | 'dev_outbox';

const sameSecret = (given: unknown, expected: string | undefined) => {
  if (typeof given !== 'string' || !expected) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

/** The borrower journey (issue 5; docs/decisions/0100-0119). App_GetApp replaces the plain read to add nextRoute. */
export const journeyHandlers: Pick<Handlers, JourneyOperations> = {
  // Sending and the borrower's way in.
  async App_SendApp({ body, caller, services }) {
    return { status: 200, body: await sendApplication(services, caller, body) };
  },
  async App_ResendLink({ body, caller, services }) {
    return { status: 200, body: await resendLink(services, caller, body.appId) };
  },
  async App_StartApp({ body, caller, services, request }) {
    return { status: 200, body: await startApplication(services, caller, body, request) };
  },
  async App_GetSendAppInfo({ params, services, request }) {
    return { status: 200, body: await sendAppInfo(services, params.id, languageFor(request.headers['accept-language'])) };
  },
  async App_GetSendAppLogs({ body, services }) {
    return { status: 200, body: await sendAppLogList(services.db, body) };
  },
  async App_CheckBorrowerEmail({ body, services }) {
    return { status: 200, body: { isAcceptable: await isPersonalEmail(services.db, body.officeId, body.email) } };
  },
  async Otp_ExchangeLinkToken({ body, services }) {
    return { status: 200, body: await exchangeLinkToken(services, body) };
  },

  // Pre-qualification and the lenders' answers.
  async App_ValidateBorrower({ body, services }) {
    return { status: 200, body: await validateBorrower(services, body) };
  },
  async App_SubmitApp({ body, caller, services, request }) {
    const result = await submitApplication(services, caller, body, requestLocale(request));
    // On the office's device the patient reads the office's tab: its pages are the ones they were shown (decision 0289).
    if (caller.kind !== 'borrower') await recordShown(services.db, result.id, request);
    return { status: 200, body: result };
  },
  async App_SubmitToLender({ body, caller, services }) {
    return { status: 200, body: await submitToLenders(services, caller, body) };
  },
  async App_GetApp({ params, caller, services }) {
    return { status: 200, body: await getAppWithRoute(services, caller, params.id, params.refreshStatus) };
  },
  async App_GetOffers({ params, query, services }) {
    return { status: 200, body: await offerList(services, params.id, query.amount) };
  },
  async App_SelectOffer({ body, caller, services }) {
    await selectOffer(services, caller, body);
    return { status: 200, body: await applicationWithRoute(services, body.appId) };
  },

  // E-sign: documents, consent, identity questions, signature.
  async App_SubmitForESign({ query, caller, services, request }) {
    return { status: 200, body: await submitForESign(services, caller, query.id, request) };
  },
  async App_GetESignTestDocument({ params, services, request }) {
    const { bytes, fileName } = await testDocument(services, params.id, request);
    return { status: 200, body: bytes, headers: { 'content-type': 'application/pdf', 'content-disposition': contentDisposition('attachment', fileName) } };
  },
  async App_ESignConsent({ body, caller, services, request }) {
    return { status: 200, body: await recordConsent(services, caller, body, request) };
  },
  async App_GetKBA({ params, caller, services, request }) {
    return { status: 200, body: await getQuiz(services, caller, params.id, wordsFor(request.headers['accept-language'])) };
  },
  async App_SubmitKBA({ body, caller, services, request }) {
    return { status: 200, body: await submitQuiz(services, caller, body, request) };
  },
  async App_GetLoanAgreement({ params, caller, services, request }) {
    const { bytes, fileName } = await loanAgreement(services, caller, params.id, request);
    return { status: 200, body: bytes, headers: { 'content-type': 'application/pdf', 'content-disposition': contentDisposition('attachment', fileName) } };
  },
  async App_SignAgreement({ body, caller, services, request }) {
    await signAgreement(services, caller, body, request);
    return { status: 200, body: await applicationWithRoute(services, body.appId) };
  },
  async App_GetDownloadUrl({ params, services }) {
    return { status: 200, body: await downloadUrl(services, params.id) };
  },
  async App_GetMyDocuments({ params, services }) {
    return { status: 200, body: await myDocuments(services, params.id) };
  },
  async App_SendESignLink({ body, caller, services, request }) {
    return { status: 200, body: await sendESignLink(services, caller, body, request) };
  },

  // The lender's side.
  async App_GetLenderApp({ params, services }) {
    return { status: 200, body: await lenderApplication(services, params.id) };
  },
  async App_ProcessLenderCallback({ body, services, request }) {
    return processCallback(services, body, request);
  },
  async App_UpdateContractStatus({ body, caller, services }) {
    return { status: 200, body: await updateContractStatus(services, caller, body) };
  },

  // Messages.
  async Notify_ReceiveSms({ body, services, request }) {
    if (!sameSecret(request.headers['x-sms-webhook-secret'], services.settings.notify.smsWebhookSecret)) {
      throw new HttpProblem(401, 'The webhook secret is missing or not valid.');
    }
    return { status: 200, body: { success: true, outcome: await receiveSmsReply(services.db, body) } };
  },
  async dev_outbox({ query, caller, services, request }) {
    if (services.settings.mode !== 'demo') throw new HttpProblem(404, 'This page could not be found');
    requireOutboxReader(request, caller);
    const [messages, optOuts] = await Promise.all([outboxEntries(services.db, query), optOutList(services.db)]);
    return { status: 200, body: { messages, optOuts } };
  },
};
