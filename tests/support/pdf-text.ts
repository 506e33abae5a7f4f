import { inflateSync } from 'node:zlib';
import { PDFDocument } from 'pdf-lib';

/** The text drawn on a PDF page (pdf-lib writes standard-font text as hex strings in Flate streams). */
export async function pageText(pdf: Buffer, pageIndex: number): Promise<string> {
  const doc = await PDFDocument.load(pdf);
  const page = doc.getPage(pageIndex);
  const contents = page.node.Contents();
  const streams = contents && 'asArray' in contents ? (contents as unknown as { asArray(): unknown[] }).asArray().map((ref) => doc.context.lookup(ref as never)) : [contents];
  let text = '';
  for (const stream of streams) {
    const raw = Buffer.from((stream as unknown as { getContents(): Uint8Array }).getContents());
    let decoded: string;
    try {
      decoded = inflateSync(raw).toString('latin1');
    } catch {
      decoded = raw.toString('latin1');
    }
    for (const match of decoded.matchAll(/<([0-9A-Fa-f]+)>\s*Tj/g)) text += `${Buffer.from(match[1]!, 'hex').toString('latin1')}\n`;
  }
  return text;
}

/** The code printed in the ESIGN consent's test document (server/esign/test-document.ts), read as a borrower reads it. */
export async function testDocumentCodeIn(pdf: Buffer): Promise<string> {
  const code = /^(\d{4})$/m.exec(await pageText(pdf, 0))?.[1];
  if (!code) throw new Error('no code in the test document');
  return code;
}
