import { createHash } from 'node:crypto';
import type { Speaker } from '../../core/i18n.ts';

/**
 * The ESIGN consent shown before any loan document (15 U.S.C. 7001(c), docs/decisions/0107). It
 * covers, in order: the right to paper and its cost, the right to withdraw consent and what that
 * means, the scope of the consent, how to update contact details, how to get a paper copy, and the
 * hardware and software needed. The borrower's consent records the SHA-256 of exactly this text.
 */
export const CONSENT_VERSION = 'esign-2025-1';

export interface ConsentParties {
  lenderName: string;
  lenderPhone: string | null;
  officeName: string;
  /** Where electronic records are sent. */
  email: string | null;
}

/** The notice in the borrower's language (decision 0216): each paragraph an English source translated by screens/languages/. */
export function consentText(parties: ConsentParties, speak: Speaker): string {
  const { say } = speak;
  const lender = parties.lenderName;
  const office = parties.officeName;
  const contact = parties.lenderPhone ? say('{lender} at {phone}', { lender, phone: parties.lenderPhone }) : lender;
  return [
    say('CONSENT TO ELECTRONIC RECORDS AND SIGNATURES'),
    say('Version {version}', { version: CONSENT_VERSION }),
    '',
    say(
      '{lender} ("we") and {office}, through this portal, want to give you the loan agreement, its disclosures and notices about your loan electronically, and to let you sign them electronically. Federal law (the Electronic Signatures in Global and National Commerce Act, 15 U.S.C. 7001) requires your consent first. Please read this notice before you agree.',
      { lender, office },
    ),
    '',
    say(
      '1. Paper copies and their cost. You have the right to receive any record on paper instead of electronically. You may ask for a paper copy of any record at any time, including after you sign, by calling {contact}. Paper copies are free of charge: there is no fee for a paper copy or for mailing it.',
      { contact },
    ),
    '',
    say(
      '2. Withdrawing your consent. You may withdraw this consent at any time, free of charge, by calling {contact} or telling {office}. Withdrawing takes effect after we have had a reasonable time to act on it. It does not affect records you received or signed electronically before it took effect. If you withdraw consent before you sign, you can still apply for the loan with paper documents, which takes longer; the loan offer itself does not change.',
      { contact, office },
    ),
    '',
    say(
      '3. Scope of this consent. This consent applies to this loan application and the resulting loan only: the loan agreement, the Truth in Lending and other disclosures, the electronic signature audit certificate, and the notices about this loan. It does not apply to any other account or transaction.',
    ),
    '',
    say(
      '4. Keeping your contact details up to date. Records and notices are sent to the e-mail address and mobile phone on your application{currently}. To update them, tell {office} or call {contact}. If your e-mail address changes and you do not tell us, you may miss notices sent to the old address.',
      { currently: parties.email ? say(' (currently {email})', { email: parties.email }) : '', office, contact },
    ),
    '',
    say(
      '5. How to get copies after you sign. After you sign, you can download the signed agreement with its audit certificate from this portal, and the office can give it to you. You may also ask for a paper copy as described in section 1.',
    ),
    '',
    say(
      '6. Hardware and software you need. To receive and keep electronic records you need: a computer, tablet or phone with an internet connection; a current version of Chrome, Edge, Firefox or Safari with JavaScript and cookies enabled; software that opens PDF files (most browsers do); an e-mail account or a mobile phone that receives text messages; and storage space or a printer to keep copies. If these requirements change in a way that could prevent you from accessing or keeping records, we will tell you and you may withdraw consent without any fee.',
    ),
    '',
    say(
      '7. Your consent. By checking the box and continuing, you confirm that you can open and read this notice and PDF documents on your device, that you have read this notice, and that you agree to receive records and to sign electronically for this loan. An electronic signature has the same effect as a handwritten one.',
    ),
  ].join('\n');
}

export function sha256Hex(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}
