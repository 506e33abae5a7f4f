import { afterEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { ROOT } from '../../core/contract/documents.ts';
import { fill, negotiate, speakerOf, translate, wordsOf, type Speaker } from '../../core/i18n.ts';
import { adverseActionNotice, adverseActionSms, applicationLinkEmail, applicationLinkSms, eSignLinkEmail, eSignLinkSms, passcodeEmail, passcodeSms } from '../../server/notify/messages.ts';
import { consentText } from '../../server/esign/consent.ts';
import { agreementTitle, buildAgreement, EVENT_LABELS, signAgreementPdf, type AgreementInput } from '../../server/esign/agreement.ts';
import type { ChainedEvent, ESignEventType } from '../../server/esign/audit.ts';
import { lenderCatalogue } from '../../server/lenders/registry.ts';
import { creditTermsOf, disclose } from '../../core/credit.ts';
import { PDFDocument } from 'pdf-lib';
import { pageText } from '../support/pdf-text.ts';
import { winAnsi } from '../../server/esign/pdf.ts';
import { pngOf } from '../support/images.ts';
import { sandboxKba } from '../../core/lenders/identity-questions.ts';
import type { Applicant } from '../../server/lenders/types.ts';
import { borrowerTexts, markedTexts, shownStrings } from '../../codegen/texts.ts';
import { listDescriptorFiles } from '../../core/descriptors/screens.ts';
import { crossCheck, type LoadedDescriptor } from '../../core/descriptors/check.ts';
import { languageFor, localeToKeep, wordsFor } from '../../server/descriptors/languages.ts';
import { setLanguage, SOURCE_LANGUAGE } from '../../core/current-language.ts';
import { text } from '../../core/expressions.ts';
import { formatValue } from '../../core/formats.ts';

const formSchema = async (name: string) => (await import(`../../codegen/generated/forms/${name}.ts`)).schema as Record<string, unknown>;
const spanish = languageFor('es');

describe('languages as data (decision 0216)', () => {
  it('negotiates a language from a locale, a tag or an Accept-Language header', () => {
    expect(negotiate('es', ['en', 'es'], 'en')).toBe('es');
    expect(negotiate('es-MX,es;q=0.9,en;q=0.8', ['en', 'es'], 'en')).toBe('es');
    expect(negotiate('fr-FR,en;q=0.5,es;q=0.7', ['en', 'es'], 'en')).toBe('es');
    expect(negotiate('fr', ['en', 'es'], 'en')).toBe('en');
    expect(negotiate('es;q=0', ['en', 'es'], 'en')).toBe('en');
    expect(negotiate(undefined, ['en', 'es'], 'en')).toBe('en');
  });

  it('translates by the source text and fills placeholders after, leaving an unknown text in the source language', () => {
    expect(translate({ Continue: 'Continuar' }, 'Continue')).toBe('Continuar');
    expect(translate({ Continue: 'Continuar' }, 'Back')).toBe('Back');
    expect(fill('Hola {name}, {missing}', { name: 'Ana' })).toBe('Hola Ana, {missing}');
    expect(wordsOf({ 'Your passcode is {code}.': 'Su código es {code}.' })('Your passcode is {code}.', { code: '123456' })).toBe('Su código es 123456.');
  });

  it('keeps the locale only when it is not the source language', () => {
    expect(localeToKeep('es-US,es;q=0.9')).toBe('es');
    expect(localeToKeep('en-US')).toBeNull();
    expect(localeToKeep(null)).toBeNull();
    expect(wordsFor('es')('This field is required.')).toBe('Este campo es obligatorio.');
  });

  it('finds the texts of a descriptor where the meta-schemas mark them, not the names and values it reads', () => {
    expect(shownStrings({ if: [{ var: 'data.ok' }, 'Signed', { '==': [{ var: 'x' }, 'Approved'] }, 'Waiting', 'Declined'] })).toEqual(['Signed', 'Waiting', 'Declined']);
    const found = markedTexts(
      { format: 1, kind: 'detail', title: 'Your loan', source: { operation: 'App_GetApp', params: { id: { var: 'route.params.id' } } }, sections: [{ title: 'Summary', fields: [{ label: 'Amount', value: { var: 'data.amount' }, format: 'currency' }] }] },
      'screen.schema.json#/$defs/detail',
    );
    expect([...found].sort()).toEqual(['Amount', 'Summary', 'Your loan']);
  });
});

describe('Spanish (screens/languages/es.json)', () => {
  it('translates every text of the borrower side', async () => {
    const texts = await borrowerTexts(formSchema, 'es');
    expect(texts.size).toBeGreaterThan(250);
    const missing = [...texts].filter(([source]) => spanish.texts[source] === undefined).map(([source, where]) => `${where}: ${source}`);
    expect(missing).toEqual([]);
  });
});

describe('the build check of the language files', () => {
  const file = (name: string, doc: Record<string, unknown>): LoadedDescriptor => ({ file: `screens/languages/${name}.json`, kind: 'language', name, doc });
  const check = (languages: LoadedDescriptor[]) => crossCheck(languages, { operations: new Set(), schemas: new Set(), labels: new Set(), answerFields: () => undefined, hostPatternProblem: () => undefined }).filter((e) => e.startsWith('screens/languages/'));

  it('passes for the language files of screens/languages/', () => {
    const docs = listDescriptorFiles().filter((f) => f.kind === 'language').map((f) => file(f.relative.slice('languages/'.length, -5), JSON.parse(f.text)));
    expect(check(docs)).toEqual([]);
  });

  it('refuses a translation that loses a placeholder, and anything but one source language', () => {
    const english = file('en', { locale: 'en', source: true, texts: {} });
    const french = file('fr', { locale: 'fr', texts: { 'Your offers from {flow.name}': 'Vos offres', Continue: 'Continuer' } });
    expect(check([english, french])).toEqual(["screens/languages/fr.json#/texts: 'Your offers from {flow.name}' must keep the placeholders {flow.name}"]);
    expect(check([french])).toContain('screens/languages/: exactly one language must be "source": true');
    expect(check([english, file('fr', { locale: 'de', texts: {} })])).toEqual(["screens/languages/fr.json#/locale: must equal the file name 'fr'"]);
  });
});

describe('the engine in another language', () => {
  afterEach(() => setLanguage(SOURCE_LANGUAGE));

  it('shows descriptor texts, enumeration words and formats in the current language', () => {
    setLanguage(spanish);
    expect(text('Continue your application with {flow.name}.', { flow: { name: 'GreenSky' } })).toBe('Continúe su solicitud con GreenSky.');
    expect(text({ if: [{ var: 'ok' }, 'Signed', 'Sign'] }, { ok: true })).toBe(spanish.texts.Signed);
    expect(formatValue('currency', 4500)).toBe('$4,500.00');
    expect(formatValue('date', '2026-11-26')).toBe('26 nov 2026');
    expect(formatValue('yesno', true)).toBe('Sí');
    setLanguage(SOURCE_LANGUAGE);
    expect(text('Continue your application with {flow.name}.', { flow: { name: 'GreenSky' } })).toBe('Continue your application with GreenSky.');
    expect(formatValue('date', '2026-11-26')).toBe('11/26/2026');
  });
});

describe('what the server writes to a borrower, in Spanish', () => {
  /** A Spanish speaker that notes each source text without a translation. */
  function recording() {
    const missing = new Set<string>();
    const base = speakerOf(spanish);
    const speak: Speaker = { ...base, say: (source, values) => (spanish.texts[source] === undefined ? void missing.add(source) : undefined, base.say(source, values)) };
    return { speak, missing };
  }

  it('translates every message, notice and the ESIGN consent, with money and days written the Spanish way', () => {
    const { speak, missing } = recording();
    const to = 'pat@example.com';
    const written = [
      passcodeEmail({ to, code: '123456', minutes: 10 }, speak).text,
      passcodeSms({ to, code: '123456', minutes: 10 }, speak).text,
      applicationLinkEmail({ to, firstName: 'Ana', officeName: 'Bright Smiles', amount: 450_000, url: 'https://x/#/app/auth/1?t=a&lang=es', hours: 72 }, speak).text,
      applicationLinkSms({ to, officeName: 'Bright Smiles', url: 'https://x' }, speak).text,
      eSignLinkEmail({ to, firstName: 'Ana', officeName: 'Bright Smiles', lenderName: 'GreenSky', url: 'https://x', hours: 72 }, speak).text,
      eSignLinkSms({ to, officeName: 'Bright Smiles', url: 'https://x' }, speak).text,
      adverseActionNotice(
        {
          firstName: 'Ana', officeName: 'Bright Smiles', appliedOn: '2026-11-26',
          lenders: [
            {
              name: 'GreenSky', address: '104 Sandbox Way, Austin, TX 78701', phone: '(800) 555-0104', reason: null, bureau: { name: 'Equifax', address: 'P.O. Box 740241, Atlanta, GA 30374', phone: '(800) 685-1111' },
              score: { value: 562, low: 300, high: 850, model: 'Sandbox Score (simulated, FICO-like)', source: 'Equifax', date: '2026-11-26', factors: ['Too many recent inquiries for credit'] },
              countered: null,
            },
            { name: 'Ally Lending', address: null, phone: null, reason: 'Insufficient income for the amount requested', bureau: null, score: null, countered: null },
          ],
        },
        speak,
      ).text,
      // Counteroffers, open and expired (decision 0237).
      adverseActionNotice(
        {
          firstName: 'Ana', officeName: 'Bright Smiles', appliedOn: '2026-11-26',
          lenders: [
            { name: 'PowerPay', address: null, phone: null, reason: "Sandbox: the last name 'Counter' is approved for $1,500 at most.", bureau: null, score: null, countered: { approvedCents: 150_000, askedCents: 450_000, openUntil: '2026-12-26' } },
            { name: 'Upgrade', address: null, phone: null, reason: null, bureau: null, score: null, countered: { approvedCents: 150_000, askedCents: 450_000, openUntil: null } },
          ],
        },
        speak,
      ).text,
      adverseActionSms({ to, officeName: 'Bright Smiles', lenderCount: 2, countered: false }, speak).text,
      adverseActionSms({ to, officeName: 'Bright Smiles', lenderCount: 2, countered: true }, speak).text,
      consentText({ lenderName: 'GreenSky', lenderPhone: '(800) 555-0104', officeName: 'Bright Smiles', email: to }, speak),
      consentText({ lenderName: 'GreenSky', lenderPhone: null, officeName: 'Bright Smiles', email: null }, speak),
    ].join('\n');
    expect([...missing]).toEqual([]);
    expect(written).toContain('$4,500.00');
    expect(written).toContain('26 nov 2026');
    expect(written).not.toMatch(/\{[a-z]+\}/i);
  });

  it('translates the loan agreement of every lender, its federal disclosure and the signature certificate', async () => {
    const { speak, missing } = recording();
    const catalogue = lenderCatalogue({ lendersDir: join(ROOT, 'screens', 'lenders'), mode: 'demo', publicUrl: 'https://localhost:3000' });
    let agreement = '';
    for (const lender of catalogue.descriptors) {
      for (const product of lender.sandbox.products) {
        const terms = creditTermsOf({ productType: product.type, amountCents: 450_000, feeCents: 0, apr: product.apr, term: product.term, promoTerm: product.promoTerm ?? null });
        if (!terms) continue;
        const input: AgreementInput = {
          appId: 7, contractId: 'GS-1', generatedAt: new Date('2026-11-26T12:00:00Z'), lender: { name: lender.name, phone: '(800) 555-0104' },
          office: { name: 'Bright Smiles', phone: '(512) 555-0100', address: '1 Main St, Austin, TX 78701' },
          borrower: { name: 'Ana Ruiz', address: '2 Oak St, Austin, TX 78702', email: 'ana@example.com', mobilePhone: '(512) 555-0199' },
          serviceDate: '2026-12-01', offer: { productName: product.name, noteApr: product.apr, originationFee: 0, messages: product.messages ?? [] },
          disclosure: disclose(terms), clauses: lender.disclosures.filter((d) => (d.showWith ?? 'both') !== 'offers').map((d) => ({ title: d.title, text: d.text })),
        };
        const built = await buildAgreement(input, speak);
        const at = '2026-11-26T12:30:00.000Z';
        // Every kind of event, with what the ceremony records in its data (the platform's own bookkeeping too).
        const data = { documentSha256: 'a'.repeat(64), fileId: 'f-1', title: 'x', sigPage: 2, sigY: 587.3249999999998, consentVersion: 'esign-2025-1', consentLanguage: 'es', consentSha256: 'b'.repeat(64), testDocument: 'code entered', transactionId: 'T-1', attempt: 1, typedName: 'Ana Ruiz', signatureSha256: 'c'.repeat(64), signedDocumentSha256: 'd'.repeat(64), channels: 'Email,Sms' };
        const event = (seq: number, type: ESignEventType) => ({ seq, type, at, ip: '203.0.113.9', userAgent: 'Test', data, hash: 'h', prevHash: 'p' }) as unknown as ChainedEvent;
        const signed = await signAgreementPdf(
          {
            unsigned: built.bytes, signatureBox: built.signatureBox, signaturePng: pngOf(40, 20), typedName: 'Ana Ruiz', signedAt: new Date(at),
            certificate: {
              title: agreementTitle(input, speak), contractId: 'GS-1', appId: 7, documentSha256: 'a'.repeat(64), consentVersion: 'esign-2025-1', consentSha256: 'b'.repeat(64),
              signer: { name: 'Ana Ruiz', email: null, mobilePhone: null }, events: (Object.keys(EVENT_LABELS) as ESignEventType[]).map((type, i) => event(i + 1, type)),
            },
          },
          speak,
        );
        for (let page = 0; page < (await PDFDocument.load(signed)).getPageCount(); page++) agreement += await pageText(signed, page);
      }
    }
    expect([...missing]).toEqual([]);
    // No internal value or field name on the certificate (issue 37).
    expect(agreement.match(/.{0,40}(sigY|587\.32|testDocument|code entered|fileId|\w=\w).{0,40}/g)).toBeNull();
    expect(agreement).toContain('Tasa de porcentaje anual');
    expect(agreement).toContain('Certificado de finalización');
    expect(agreement).toContain('$4,500.00');
  });

  it('keeps Spanish letters in PDF text, and brings others to what the PDF fonts draw', () => {
    expect(winAnsi('Año, señal, ¿Cómo está? Ü')).toBe('Año, señal, ¿Cómo está? Ü');
    expect(winAnsi('Dvořák – “Ş” ≤ 3')).toBe('Dvorák – “S” <= 3');
    expect(winAnsi('漢')).toBe('?');
  });

  it("translates the sandbox lender's identity questions", () => {
    const applicant = { address: { streetAddress: '4100 Juniper Hollow Trl', city: 'Round Rock', zipCode: '78664' }, dob: '1984-04-12' } as Applicant;
    for (const question of sandboxKba(applicant)) expect(spanish.texts[question.text], question.text).toBeDefined();
  });
});
