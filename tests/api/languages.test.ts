import { beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { pageText, testDocumentCodeIn } from '../support/pdf-text.ts';
import { harness, type Harness } from '../support/harness.ts';
import { languageFor } from '../../server/descriptors/languages.ts';
import { freshEmail, freshPhone, journeyOffice, json, outboxTo as outboxOf, prequalForm, type JourneyOffice } from './journey-fixtures.ts';

const SPANISH = { 'accept-language': 'es-US,es;q=0.9' };
const spanishOf = (english: string) => languageFor('es').texts[english] ?? english;
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/**
 * The server writes to a borrower in their language (issue 19, decision 0216): the link, its message and later
 * messages in the language staff chose for the patient; problem details, the passcode, the ESIGN consent and the
 * identity questions in the language of the page that asks; the consent recorded with its language.
 */
describe('the server in Spanish', () => {
  let h: Harness;
  let office: JourneyOffice;
  const outboxTo = (recipient: string) => outboxOf(h, recipient);
  const languageOf = async (appId: number) => (await h.database.db.execute<{ language: string | null }>(sql`select language from applications where id = ${appId}`)).rows[0]!.language;

  beforeAll(async () => {
    h = await harness();
    office = await journeyOffice(h);
  });

  it("sends the link in the patient's language, which opens the borrower's pages in it and stays with the application", async () => {
    const email = freshEmail('lucia');
    const phone = freshPhone();
    const sent = await h.call({ method: 'POST', url: '/api/App/SendApp', payload: { officeId: office.officeId, firstName: 'Lucia', lastName: 'Reyes', amount: 4500, email, mobilePhone: phone, language: 'es' }, as: office.admin });
    expect(sent.statusCode, sent.body).toBe(200);
    const { appId } = json<{ appId: number }>(sent);
    const [mail] = await outboxTo(email);
    const [text] = await outboxTo(phone);
    expect(mail!.subject).toMatch(/^Journey Dental .+: su solicitud de financiamiento$/);
    expect(mail!.body).toContain('Hola, Lucia:');
    expect(mail!.body).toContain('aproximadamente $4,500.00');
    expect(mail!.links[0]).toMatchObject({ label: 'Comenzar mi solicitud' });
    expect(mail!.links[0]!.url).toMatch(new RegExp(`/#/app/auth/${appId}\\?t=[A-Za-z0-9_-]{43}&lang=es$`));
    expect(text!.body).toContain('Responda STOP para no recibir más mensajes.');
    expect(await languageOf(appId)).toBe('es');
    // The form's credit report authorization names each of the office's lenders, listed as each language lists them.
    const info = async (headers: Record<string, string> = {}) => json<{ lenderNames: string }>(await h.call({ method: 'GET', url: `/api/App/GetSendAppInfo/${appId}`, borrowerOf: appId, headers })).lenderNames;
    expect(await info(SPANISH)).toBe('Ally Lending, GreenSky, LendingPoint, Lending USA, PowerPay y Upgrade');
    expect(await info()).toBe('Ally Lending, GreenSky, LendingPoint, Lending USA, PowerPay, and Upgrade');

    // A language the product does not offer is refused with the field named, nothing sent.
    const other = await h.call({ method: 'POST', url: '/api/App/SendApp', payload: { officeId: office.officeId, firstName: 'Lucia', lastName: 'Reyes', amount: 4500, email: freshEmail('x'), language: 'fr' }, as: office.admin });
    expect(other.statusCode).toBe(400);
    expect(Object.keys(json<{ errors: Record<string, string[]> }>(other).errors)).toEqual(['language']);
  });

  it('answers problem details in the language of the request', async () => {
    const form = prequalForm(office.officeId, { firstName: '' });
    const spanish = await h.call({ method: 'POST', url: '/api/App/SubmitApp', payload: form, as: office.admin, headers: SPANISH });
    expect(spanish.statusCode).toBe(400);
    const english = await h.call({ method: 'POST', url: '/api/App/SubmitApp', payload: form, as: office.admin });
    const minimum = 'This field must be a minimum of {limit} characters.';
    expect(json<{ errors: Record<string, string[]> }>(english).errors.firstName).toContain(minimum.replace('{limit}', '1'));
    // The message translated first, its {limit} filled after.
    expect(json<{ errors: Record<string, string[]> }>(spanish).errors.firstName).toContain(spanishOf(minimum).replace('{limit}', '1'));
    expect(spanishOf(minimum)).not.toBe(minimum);
  });

  it('texts the passcode in the language of the page that asked, and keeps it as the borrower’s', async () => {
    const phone = freshPhone();
    const sent = await h.call({ method: 'POST', url: '/api/App/SendApp', payload: { officeId: office.officeId, firstName: 'Ana', lastName: 'Diaz', amount: 1200, mobilePhone: phone }, as: office.admin });
    const { appId } = json<{ appId: number }>(sent);
    expect(await languageOf(appId)).toBeNull();
    const asked = await h.call({ method: 'POST', url: '/api/Otp/SendOtp', payload: { appId, channel: 'Sms' }, borrowerOf: appId, headers: SPANISH });
    expect(asked.statusCode, asked.body).toBe(200);
    const texts = await outboxTo(phone);
    expect(texts.at(-1)!.body).toMatch(/^Su código de acceso es \d{6}\. Vence en \d+ min\./);
    expect(await languageOf(appId)).toBe('es');
  });

  it('shows the ESIGN consent and the identity questions in Spanish, and records the language consented in', async () => {
    const submitted = await h.call({ method: 'POST', url: '/api/App/SubmitApp', payload: prequalForm(office.officeId), as: office.admin, headers: SPANISH });
    expect(submitted.statusCode, submitted.body).toBe(200);
    const appId = json<{ id: number }>(submitted).id;
    expect(await languageOf(appId)).toBe('es');
    const [submittedLog] = (await h.database.db.execute<{ data: { authorized: string[]; language: string } }>(sql`select data from app_logs where app_id = ${appId} and message like 'Submitted to %'`)).rows;
    expect(submittedLog!.data).toMatchObject({ authorized: ['Ally Lending', 'GreenSky', 'LendingPoint', 'Lending USA', 'PowerPay', 'Upgrade'], language: 'es' });
    const offers = json<{ id: number; lenderCode: string }[]>(await h.call({ method: 'GET', url: `/api/App/GetOffers/${appId}`, borrowerOf: appId }));
    const ally = offers.find((o) => o.lenderCode === 'ally')!;
    expect((await h.call({ method: 'POST', url: '/api/App/SelectOffer', payload: { appId, offerId: ally.id, agreeToTerms: true }, borrowerOf: appId })).statusCode).toBe(200);
    const opened = json<{ consentText: string; consentSha256: string }>(await h.call({ method: 'POST', url: `/api/App/SubmitForESign?id=${appId}`, borrowerOf: appId, headers: SPANISH }));
    expect(opened.consentText).toMatch(/^CONSENTIMIENTO PARA REGISTROS Y FIRMAS ELECTRÓNICOS\nVersión /);
    expect(opened.consentText).toContain('Las copias en papel son gratuitas');
    expect(opened.consentSha256).toBe(sha256(opened.consentText));
    // The English text is another text: consenting to it from a Spanish page is refused (it was not shown).
    const english = json<{ consentSha256: string }>(await h.call({ method: 'POST', url: `/api/App/SubmitForESign?id=${appId}`, borrowerOf: appId }));
    expect(english.consentSha256).not.toBe(opened.consentSha256);
    // The test document is in Spanish too.
    const testDocument = (await h.call({ method: 'GET', url: `/api/App/GetESignTestDocument/${appId}`, borrowerOf: appId, headers: SPANISH })).rawPayload;
    expect(await pageText(testDocument, 0)).toContain('Documento de prueba');
    const documentCode = await testDocumentCodeIn(testDocument);
    expect((await h.call({ method: 'POST', url: '/api/App/ESignConsent', payload: { appId, agreeToESign: true, consentSha256: english.consentSha256, documentCode }, borrowerOf: appId, headers: SPANISH })).statusCode).toBe(409);
    const consent = await h.call({ method: 'POST', url: '/api/App/ESignConsent', payload: { appId, agreeToESign: true, consentSha256: opened.consentSha256, documentCode }, borrowerOf: appId, headers: SPANISH });
    expect(consent.statusCode, consent.body).toBe(200);
    const [event] = (await h.database.db.execute<{ data: Record<string, unknown> }>(sql`select data->'esign' as data from app_logs where app_id = ${appId} and data->'esign'->>'type' = 'consented'`)).rows;
    expect(event!.data).toMatchObject({ data: { consentLanguage: 'es', consentSha256: opened.consentSha256, testDocument: 'code entered' } });
    // The loan agreement is written in the borrower's language too (decision 0235), its federal disclosure included.
    const agreement = await pageText((await h.call({ method: 'GET', url: `/api/App/GetLoanAgreement/${appId}`, borrowerOf: appId })).rawPayload, 0);
    for (const words of ['Contrato de préstamo al consumidor de Ally Lending', 'Divulgaciones federales', 'Tasa de porcentaje anual', 'Calendario de pagos']) expect(agreement).toContain(words);

    // The consent, kept as the borrower read it, is among their documents; the office cannot list them as the borrower.
    const documents = json<{ kind: string; sha256: string; url: string }[]>(await h.call({ method: 'GET', url: `/api/App/GetMyDocuments/${appId}`, borrowerOf: appId }));
    expect(documents).toEqual([expect.objectContaining({ kind: 'ESignConsent', sha256: opened.consentSha256 })]);
    const kept = await h.call({ method: 'GET', url: new URL(documents[0]!.url).pathname, key: false });
    expect(kept.statusCode).toBe(200);
    expect(kept.body).toBe(opened.consentText);
    expect((await h.call({ method: 'GET', url: `/api/App/GetMyDocuments/${appId}`, as: office.admin })).statusCode).toBe(403);

    const quiz = json<{ questions: { text: string }[] }>(await h.call({ method: 'GET', url: `/api/App/GetKBA/${appId}`, borrowerOf: appId, headers: SPANISH }));
    expect(quiz.questions.map((q) => q.text)).toContain('¿En qué año nació?');
  });
});
