import { createHash } from 'node:crypto';
import { and, desc, eq, sql } from 'drizzle-orm';
import { creditTermsOf, disclose } from '../../../core/credit.ts';
import type { FastifyRequest } from 'fastify';
import type { components } from '../../../codegen/generated/api.ts';
import type { Db } from '../../db/index.ts';
import { applications, files, lenders, offers, offices } from '../../db/schema.ts';
import type { Caller } from '../../http/caller.ts';
import { HttpProblem } from '../../http/problem.ts';
import { agreementTitle, buildAgreement, pngSize, signAgreementPdf, type SignatureBox } from '../../esign/agreement.ts';
import { CONSENT_VERSION, consentText, sha256Hex } from '../../esign/consent.ts';
import { testDocumentCode, testDocumentPdf } from '../../esign/test-document.ts';
import type { ChainedEvent } from '../../esign/audit.ts';
import { eSignLinkEmail, eSignLinkSms } from '../../notify/messages.ts';
import { sendEmail, sendSms } from '../../notify/outbox.ts';
import type { Services } from '../../services.ts';
import { fieldError, lockApplication, type ApplicationRecord } from '../applications/records.ts';
import { documentLink } from '../files/links.ts';
import { moveApplication } from '../applications/moves.ts';
import { appendESignEvent, esignEvents } from './esign-events.ts';
import { kbaSummary } from './kba-records.ts';
import { borrowerLink, issueLinkToken } from './links.ts';
import { adapterOf, catalogueOf, lenderAppIdOf } from '../offices/office-lenders.ts';
import { journeyStateOf } from './state.ts';
import { clientOf } from '../../http/client.ts';
import { lenderStepPath, nextRoute } from './routing.ts';
import { requestLocale, speakerFor } from '../../descriptors/languages.ts';
import { normalName } from '../../../core/typed-name.ts';
import { SIGNING_OPEN } from '../../../core/signing-stages.ts';

type Schemas = components['schemas'];
type SubStatus = ApplicationRecord['contractSubStatus'];

export const AGREEMENT_KIND = 'LoanAgreement';
export const SIGNED_KIND = 'SignedLoanAgreement';
export const CONSENT_KIND = 'ESignConsent';

/** Sub-statuses the signing ceremony may overwrite as it moves forward (never backwards). */
const BEFORE_KBA: readonly SubStatus[] = ['NotApplicable', 'TermsPresented', 'ESignGenerated', 'ESignLinkSent'];

const notReady = () => HttpProblem.conflict('The loan documents are not ready yet: an offer must be selected and the documents generated (App_SubmitForESign).');

/** The consent in the language the borrower reads it in (their request's, decision 0216): its hash binds that text. */
async function consentFor(db: Db, app: ApplicationRecord, language: string | null): Promise<{ text: string; sha256: string; language: string }> {
  const [office] = await db.select({ name: offices.name }).from(offices).where(eq(offices.id, app.officeId));
  const [lender] = app.lenderId ? await db.select({ name: lenders.name, phone: lenders.phone }).from(lenders).where(eq(lenders.id, app.lenderId)) : [];
  const speak = speakerFor(language);
  const text = consentText({ lenderName: lender?.name ?? app.lenderName ?? speak.say('The lender'), lenderPhone: lender?.phone ?? null, officeName: office?.name ?? speak.say('the office'), email: app.email }, speak);
  return { text, sha256: sha256Hex(text), language: speak.locale };
}

/** The stored agreement of the current contract (unsigned or signed). */
async function agreementFile(db: Db, app: ApplicationRecord, kind: string) {
  if (!app.contractId) return undefined;
  const [row] = await db
    .select()
    .from(files)
    .where(and(eq(files.appId, app.id), eq(files.kind, kind), eq(files.description, app.contractId)))
    .orderBy(desc(files.createdAt))
    .limit(1);
  return row;
}

function isPlatformSigning(services: Services, app: ApplicationRecord): boolean {
  return adapterOf(catalogueOf(services), app.lenderCode).descriptor.journey.esign === 'platform';
}

/** Generates and stores the agreement of the selected offer (once per contract); its event carries the hash and the signature box. */
async function generateDocuments(services: Services, tx: Db, app: ApplicationRecord, caller: Caller, client: { ip: string | null; userAgent: string | null }) {
  const existing = await agreementFile(tx, app, AGREEMENT_KIND);
  if (existing) return existing;
  const adapter = adapterOf(catalogueOf(services), app.lenderCode);
  const [offer] = await tx.select().from(offers).where(and(eq(offers.appId, app.id), eq(offers.isSelected, true)));
  if (!offer || !app.contractId) throw notReady();
  const [office] = await tx.select().from(offices).where(eq(offices.id, app.officeId));
  const [lender] = await tx.select({ name: lenders.name, phone: lenders.phone }).from(lenders).where(eq(lenders.id, offer.lenderId));
  const session = await adapter.esignDocuments({ appId: app.id, lenderAppId: await lenderAppIdOf(tx, app.id, app.lenderId), contractId: app.contractId, lenderAppUrl: app.lenderAppUrl });
  const address = (parts: (string | null | undefined)[]) => parts.filter(Boolean).join(', ') || null;
  const terms = creditTermsOf({ productType: offer.productType, amountCents: offer.amount ?? app.amount, feeCents: offer.originationFee, apr: offer.apr, term: offer.term, promoTerm: offer.promoTerm });
  // No agreement without the federal disclosure: a plan the calculation cannot disclose is not signed here.
  if (!terms) throw notReady();
  const disclosure = disclose(terms);
  // The borrower's language (decision 0235): the one they chose, which follows them into every message.
  const speak = speakerFor(app.language);
  const { bytes, signatureBox } = await buildAgreement({
    appId: app.id,
    contractId: app.contractId,
    generatedAt: new Date(),
    lender: { name: lender?.name ?? app.lenderName ?? adapter.descriptor.name, phone: lender?.phone ?? null },
    office: { name: office!.name, phone: office!.phone, address: address([office!.streetAddress, office!.suiteNo, office!.city, office!.state && office!.zipCode ? `${office!.state} ${office!.zipCode}` : office!.state]) },
    borrower: {
      name: `${app.firstName} ${app.lastName}`,
      address: address([app.streetAddress, app.suiteNo, app.city, app.state && app.zipCode ? `${app.state} ${app.zipCode}` : null]),
      email: app.email,
      mobilePhone: app.mobilePhone,
    },
    serviceDate: app.serviceDate,
    offer: { productName: offer.productName ?? offer.productCode, noteApr: offer.apr ?? 0, originationFee: offer.originationFee ?? 0, messages: offer.messages },
    disclosure,
    clauses: session.clauses,
  }, speak);
  const sha256 = sha256Hex(bytes);
  const [file] = await tx
    .insert(files)
    .values({
      officeId: app.officeId, appId: app.id, kind: AGREEMENT_KIND, fileName: `loan-agreement-${app.id}.pdf`, description: app.contractId,
      contentType: 'application/pdf', sizeBytes: bytes.length, sha256, bytes,
    })
    .returning();
  await appendESignEvent(tx, app, caller, client, 'documents-generated', {
    documentSha256: sha256, fileId: file!.id, title: agreementTitle({ lender: { name: lender?.name ?? adapter.descriptor.name, phone: null } }, speak),
    sigPage: signatureBox.page, sigX: signatureBox.x, sigY: signatureBox.y, sigWidth: signatureBox.width, sigHeight: signatureBox.height,
  });
  return file!;
}

/** The ceremony's state as esign-result answers it. */
async function esignResult(services: Services, appId: number, language: string | null): Promise<Schemas['EsignResult']> {
  const { db, settings } = services;
  const [app] = await db.select().from(applications).where(eq(applications.id, appId));
  if (!app) throw new HttpProblem(404, 'The application could not be found.');
  const catalogue = catalogueOf(services);
  const adapter = adapterOf(catalogue, app.lenderCode);
  const journey = adapter.descriptor.journey;
  const events = await esignEvents(db, app.id, app.contractId);
  const consent = await consentFor(db, app, language);
  const kba = await kbaSummary(db, app.id);
  const first = (type: string) => events.find((e) => e.type === type);
  const documentSha256 = first('documents-generated')?.data.documentSha256;
  const step = journey.esign === 'platform' && app.lenderCode ? lenderStepPath(catalogue, app.lenderCode, journey.consent!, app.id) : null;
  return {
    appId: app.id,
    eSignUrl: journey.esign === 'lender' ? (app.lenderAppUrl ? `${app.lenderAppUrl}/sign` : null) : step ? `${settings.publicUrl}/#${step}` : null,
    hostedBy: journey.esign,
    contractSubStatus: app.contractSubStatus,
    consentVersion: CONSENT_VERSION,
    consentText: consent.text,
    consentSha256: consent.sha256,
    consentedAtUtc: first('consented')?.at ?? null,
    kbaStatus: kba.status,
    documentSha256: typeof documentSha256 === 'string' ? documentSha256 : null,
    signedAtUtc: first('signed')?.at ?? null,
    nextRoute: nextRoute(catalogue, await journeyStateOf(db, app)),
  };
}

/**
 * App_SubmitForESign: generates the loan documents of the selected offer (once per contract) and
 * opens the signing ceremony: stage SigningRequired, sub-status ESignGenerated. Lender-hosted
 * signing sends the borrower to the lender instead (ESignLinkSent). The borrower calling it is the
 * 'opened' event of the audit trail (its first call).
 */
export async function submitForESign(services: Services, caller: Caller, appId: number, request: FastifyRequest): Promise<Schemas['EsignResult']> {
  const client = clientOf(request);
  await services.db.transaction(async (tx) => {
    const app = await lockApplication(tx, appId);
    if (!SIGNING_OPEN.has(app.stage) || app.contractStatus === 'Signed' || !app.contractId) throw notReady();
    if (!isPlatformSigning(services, app)) {
      if (app.stage !== 'SigningRequired') {
        await moveApplication(tx, app, caller, { stage: 'SigningRequired', contractSubStatus: 'ESignLinkSent', statusText: `Signing on ${app.lenderName ?? 'the lender'}'s site` }, 'Sent to the lender to sign');
      }
      return;
    }
    await generateDocuments(services, tx, app, caller, client);
    const change: Partial<typeof applications.$inferInsert> = {};
    if (app.stage !== 'SigningRequired') change.stage = 'SigningRequired';
    if (BEFORE_KBA.includes(app.contractSubStatus) && app.contractSubStatus !== 'ESignLinkSent') change.contractSubStatus = 'ESignGenerated';
    if (Object.keys(change).length) await moveApplication(tx, app, caller, { ...change, statusText: 'Loan documents ready to sign' }, 'Loan documents ready to sign');
    // The first time the borrower opens the documents is the 'opened' time of the certificate.
    if (caller.kind === 'borrower' && !(await esignEvents(tx, app.id, app.contractId)).some((e) => e.type === 'opened')) {
      await appendESignEvent(tx, app, caller, client, 'opened');
      await tx.update(applications).set({ statusText: 'Borrower opened the loan documents', updatedAt: sql`now()` }).where(eq(applications.id, app.id));
    }
  });
  return esignResult(services, appId, requestLocale(request));
}

/** App_GetESignTestDocument: the test document of the consent, in the borrower's language, with the ceremony's code. */
export async function testDocument(services: Services, appId: number, request: FastifyRequest): Promise<{ bytes: Buffer; fileName: string }> {
  const app = await services.db.transaction(async (tx) => (await openCeremony(services, tx, appId)).app);
  const bytes = await testDocumentPdf(testDocumentCode(services.settings.borrowerTokenSecret, app.id, app.contractId!), speakerFor(requestLocale(request)));
  return { bytes, fileName: `test-document-${app.id}.pdf` };
}

async function openCeremony(services: Services, tx: Db, appId: number): Promise<{ app: ApplicationRecord; events: ChainedEvent[] }> {
  const app = await lockApplication(tx, appId);
  if (app.stage !== 'SigningRequired' || !app.contractId || !isPlatformSigning(services, app)) throw notReady();
  const events = await esignEvents(tx, app.id, app.contractId);
  if (!events.some((e) => e.type === 'documents-generated')) throw notReady();
  return { app, events };
}

/** App_ESignConsent: the ESIGN consent, recorded with the SHA-256 of the text shown (once per contract). */
export async function recordConsent(services: Services, caller: Caller, body: Schemas['EsignConsent'], request: FastifyRequest): Promise<Schemas['EsignResult']> {
  await services.db.transaction(async (tx) => {
    const { app, events } = await openCeremony(services, tx, body.appId);
    if (events.some((e) => e.type === 'consented')) return;
    const consent = await consentFor(tx, app, requestLocale(request));
    if (body.consentSha256.toLowerCase() !== consent.sha256) throw HttpProblem.conflict('The consent text changed since it was shown: show it again (App_SubmitForESign) and consent to that text.');
    if (body.documentCode !== testDocumentCode(services.settings.borrowerTokenSecret, app.id, app.contractId!)) throw fieldError('documentCode', 'testDocumentMismatch');
    // What was agreed to: the version, the language and the hash of the text shown (issue 19, consent records), and that
    // the borrower opened the test document (decision 0234).
    await appendESignEvent(tx, app, caller, clientOf(request), 'consented', { consentVersion: CONSENT_VERSION, consentLanguage: consent.language, consentSha256: consent.sha256, testDocument: 'code entered' });
    // The text agreed to, kept with the application as the borrower read it (decision 0220).
    const bytes = Buffer.from(consent.text, 'utf8');
    await tx.insert(files).values({
      officeId: app.officeId, appId: app.id, kind: CONSENT_KIND, fileName: `esign-consent-${app.id}.txt`, description: `${CONSENT_VERSION} (${consent.language})`,
      contentType: 'text/plain; charset=utf-8', sizeBytes: bytes.length, sha256: consent.sha256, bytes,
    });
    await tx.update(applications).set({ statusText: 'Borrower consented to electronic signing', updatedAt: sql`now()` }).where(eq(applications.id, app.id));
  });
  return esignResult(services, body.appId, requestLocale(request));
}

/**
 * App_GetLoanAgreement: the signed agreement once signed, else the agreement to sign. The borrower
 * reading it after passing the identity questions is the 'document-viewed' event (AgreementPresented).
 */
export async function loanAgreement(services: Services, caller: Caller, appId: number, request: FastifyRequest): Promise<{ bytes: Buffer; fileName: string }> {
  const { db } = services;
  const [app] = await db.select().from(applications).where(eq(applications.id, appId));
  if (!app) throw new HttpProblem(404, 'The application could not be found.');
  const signed = await agreementFile(db, app, SIGNED_KIND);
  if (signed) return { bytes: signed.bytes, fileName: signed.fileName };
  const unsigned = await agreementFile(db, app, AGREEMENT_KIND);
  if (!unsigned) throw notReady();
  if (caller.kind === 'borrower' && app.stage === 'SigningRequired') {
    await db.transaction(async (tx) => {
      const locked = await lockApplication(tx, appId);
      const kba = await kbaSummary(tx, appId);
      if (kba.status !== 'Passed') return;
      const events = await esignEvents(tx, appId, locked.contractId);
      if (!events.some((e) => e.type === 'document-viewed')) await appendESignEvent(tx, locked, caller, clientOf(request), 'document-viewed', { documentSha256: unsigned.sha256 });
      if (locked.contractSubStatus === 'KBAPassed') {
        await moveApplication(tx, locked, caller, { contractSubStatus: 'AgreementPresented', statusText: 'Borrower is reading the loan agreement' }, 'Loan agreement presented');
      }
    });
  }
  return { bytes: unsigned.bytes, fileName: unsigned.fileName };
}

const SIGNATURE_MAX_BYTES = 200 * 1024;
const SIGNATURE_MAX = { width: 1600, height: 600 };

function signatureImage(dataUrl: string): Buffer {
  const match = /^data:image\/png;base64,([A-Za-z0-9+/=\s]+)$/.exec(dataUrl);
  if (!match) throw HttpProblem.field('signaturePng', 'The signature must be a PNG image (data:image/png;base64,...).');
  const bytes = Buffer.from(match[1]!, 'base64');
  if (bytes.length > SIGNATURE_MAX_BYTES) throw HttpProblem.field('signaturePng', `The signature image exceeds ${SIGNATURE_MAX_BYTES / 1024} KB.`);
  const size = pngSize(bytes);
  if (!size) throw HttpProblem.field('signaturePng', 'The signature must be a PNG image (data:image/png;base64,...).');
  if (size.width > SIGNATURE_MAX.width || size.height > SIGNATURE_MAX.height || size.width < 20 || size.height < 10) {
    throw HttpProblem.field('signaturePng', `The signature image must be between 20 x 10 and ${SIGNATURE_MAX.width} x ${SIGNATURE_MAX.height} pixels.`);
  }
  return bytes;
}

/**
 * App_SignAgreement: after the ESIGN consent and passed identity questions, the typed name (it must
 * be the applicant's) and the drawn signature complete the agreement. The signed PDF — signature in
 * its box, the certificate page with the hash-chained audit trail appended — is stored with the
 * application's files (the office downloads it with Files_GetContent); the stage moves to
 * ReadyToFinalize and the contract status to Signed.
 */
export async function signAgreement(services: Services, caller: Caller, body: Schemas['SignAgreement'], request: FastifyRequest): Promise<void> {
  const client = clientOf(request);
  const png = signatureImage(body.signaturePng);
  await services.db.transaction(async (tx) => {
    const { app, events } = await openCeremony(services, tx, body.appId);
    if (app.contractStatus === 'Signed') throw HttpProblem.conflict('The agreement is already signed.');
    if (!events.some((e) => e.type === 'consented')) throw HttpProblem.conflict('The ESIGN consent comes first (App_ESignConsent).');
    if ((await kbaSummary(tx, app.id)).status !== 'Passed') throw HttpProblem.conflict('The identity questions must be passed first (App_GetKBA, App_SubmitKBA).');
    if (normalName(body.typedName) !== normalName(`${app.firstName} ${app.lastName}`)) {
      throw HttpProblem.field('typedName', 'The typed name must be the name on the application.');
    }
    const unsigned = await agreementFile(tx, app, AGREEMENT_KIND);
    if (!unsigned) throw notReady();
    const generated = events.find((e) => e.type === 'documents-generated')!;
    const box: SignatureBox = {
      page: Number(generated.data.sigPage), x: Number(generated.data.sigX), y: Number(generated.data.sigY),
      width: Number(generated.data.sigWidth), height: Number(generated.data.sigHeight),
    };
    const consent = events.find((e) => e.type === 'consented')!;
    const signedEvent = await appendESignEvent(tx, app, caller, client, 'signed', {
      typedName: body.typedName.trim(), signatureSha256: createHash('sha256').update(png).digest('hex'), documentSha256: unsigned.sha256,
    });
    const signedAt = new Date(signedEvent.at);
    const bytes = await signAgreementPdf({
      unsigned: unsigned.bytes,
      signatureBox: box,
      signaturePng: png,
      typedName: body.typedName.trim(),
      signedAt,
      certificate: {
        title: String(generated.data.title ?? 'Loan agreement'),
        contractId: app.contractId!,
        appId: app.id,
        documentSha256: unsigned.sha256,
        consentVersion: String(consent.data.consentVersion),
        consentSha256: String(consent.data.consentSha256),
        signer: { name: body.typedName.trim(), email: app.email, mobilePhone: app.mobilePhone },
        events: [...events, signedEvent],
      },
    }, speakerFor(app.language));
    const sha256 = sha256Hex(bytes);
    const [file] = await tx
      .insert(files)
      .values({
        officeId: app.officeId, appId: app.id, kind: SIGNED_KIND, fileName: `loan-agreement-${app.id}-signed.pdf`, description: app.contractId,
        contentType: 'application/pdf', sizeBytes: bytes.length, sha256, bytes,
      })
      .returning({ id: files.id });
    await appendESignEvent(tx, app, caller, client, 'completed', { signedDocumentSha256: sha256, fileId: file!.id });
    await moveApplication(
      tx,
      app,
      caller,
      {
        stage: 'ReadyToFinalize',
        contractStatus: 'Signed',
        contractSubStatus: app.contractSubStatus === 'KBAPassed' ? 'AgreementPresented' : app.contractSubStatus,
        statusText: 'Signed: ready to finalize',
      },
      'Loan agreement signed',
      { fileId: file!.id, signedDocumentSha256: sha256 },
    );
  });
}

/**
 * App_GetDownloadUrl: a link that opens the signed agreement without credentials until it expires (Files_GetContentByLink,
 * decision 0166): its token, which the borrower's pages download the file with, and the whole address. The access layer has already checked that the caller may read this application.
 */
export async function downloadUrl(services: Services, appId: number): Promise<Schemas['DownloadUrl']> {
  const [app] = await services.db.select().from(applications).where(eq(applications.id, appId));
  if (!app) throw new HttpProblem(404, 'The application could not be found.');
  const signed = await agreementFile(services.db, app, SIGNED_KIND);
  if (!signed) throw HttpProblem.conflict('The loan documents are not signed yet.');
  return documentLink(services.settings.borrowerTokenSecret, services.settings.publicUrl, signed.id);
}

/**
 * App_SendESignLink: for an application sent with 'Enable Remote Sign', the office sends the borrower
 * a single-use link to sign remotely (sub-status ESignLinkSent). The documents are generated first.
 */
export async function sendESignLink(services: Services, caller: Caller, body: Schemas['SendEsignLink'], request: FastifyRequest): Promise<Schemas['SuccessResult']> {
  const { settings } = services;
  const client = clientOf(request);
  const sent = await services.db.transaction(async (tx) => {
    const app = await lockApplication(tx, body.appId);
    if (!app.enableRemoteSign) throw HttpProblem.conflict("Remote signing was not enabled for this application ('Enable Remote Sign').");
    if (!SIGNING_OPEN.has(app.stage) || app.contractStatus === 'Signed' || !app.contractId) throw notReady();
    const [office] = await tx.select({ name: offices.name }).from(offices).where(eq(offices.id, app.officeId));
    const hours = settings.linkTokenTtlHours;
    const channels: string[] = [];
    if (isPlatformSigning(services, app)) await generateDocuments(services, tx, app, caller, client);
    if (app.email && (!body.channel || body.channel === 'Email')) {
      const url = borrowerLink(settings.publicUrl, app.id, await issueLinkToken(tx, app.id, hours), app.language);
      await sendEmail(tx, eSignLinkEmail({ to: app.email, firstName: app.firstName, officeName: office!.name, lenderName: app.lenderName ?? 'your lender', url, hours }, speakerFor(app.language)));
      channels.push('e-mail');
    }
    if (app.mobilePhone && (!body.channel || body.channel === 'Sms')) {
      const url = borrowerLink(settings.publicUrl, app.id, await issueLinkToken(tx, app.id, hours), app.language);
      const queued = await sendSms(tx, eSignLinkSms({ to: app.mobilePhone, officeName: office!.name, url }, speakerFor(app.language)));
      if (queued.queued) channels.push('text');
    }
    if (channels.length === 0) {
      throw HttpProblem.conflict(body.channel === 'Sms' && app.mobilePhone ? 'This mobile phone opted out of text messages (it replied STOP). Send the link by e-mail.' : 'The application has no contact on file for this channel.');
    }
    if (isPlatformSigning(services, app)) await appendESignEvent(tx, app, caller, client, 'link-sent', { channels: channels.join(',') });
    const change: Partial<typeof applications.$inferInsert> = { statusText: `Signing link sent by ${channels.join(' and ')}` };
    if (app.stage !== 'SigningRequired') change.stage = 'SigningRequired';
    if (BEFORE_KBA.includes(app.contractSubStatus)) change.contractSubStatus = 'ESignLinkSent';
    await moveApplication(tx, app, caller, change, `Signing link sent by ${channels.join(' and ')}`, { channels });
    return channels;
  });
  return { success: true, message: `The signing link was sent by ${sent.join(' and ')}.` };
}
