import { createHmac } from 'node:crypto';
import { PDFDocument } from 'pdf-lib';
import type { Speaker } from '../../core/i18n.ts';
import { Writer } from './pdf.ts';

/**
 * The test document of the ESIGN consent (15 U.S.C. 7001(c)(1)(C)(ii), docs/decisions/0234): a PDF, the format of the
 * loan documents, holding a code the borrower types to consent. Typing it shows they can open that format on their
 * device. The code is derived from the ceremony (application and contract), so nothing is stored and a new contract
 * has a new code.
 */
export function testDocumentCode(secret: Buffer, appId: number, contractId: string): string {
  const key = createHmac('sha256', secret).update('esign-test-document/v1').digest();
  const digest = createHmac('sha256', key).update(`${appId}:${contractId}`).digest();
  return String(digest.readUInt32BE(0) % 10_000).padStart(4, '0');
}

export async function testDocumentPdf(code: string, speak: Speaker): Promise<Buffer> {
  const { say } = speak;
  const doc = await PDFDocument.create();
  doc.setTitle(say('Test document'));
  const writer = await Writer.create(doc);
  writer.heading(say('Test document'), 16);
  writer.text(say('You opened this PDF document on your device: you can read the loan documents, which are PDF documents too.'), { gap: 12 });
  writer.text(say('Your code'), { font: 'bold' });
  writer.text(code, { size: 28, font: 'mono', gap: 12 });
  writer.text(say('Type this code on the consent page to show that you can open PDF documents.'));
  return Buffer.from(await doc.save());
}
