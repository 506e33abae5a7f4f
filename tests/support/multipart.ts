import { randomBytes } from 'node:crypto';
import { jpegHeader, pngOf } from './images.ts';

/** A part of a multipart/form-data body: a text field, or a file with its name and type. */
export type Part =
  | { name: string; value: string }
  | { name: string; fileName: string; contentType: string; data: Buffer | string };

export interface MultipartBody {
  payload: Buffer;
  boundary: string;
  headers: { 'content-type': string };
}

const quoted = (text: string) => text.replace(/["\\\r\n]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);

/** Builds a multipart/form-data body (RFC 7578) for fastify's inject: `{ payload, headers }`. */
export function multipart(parts: readonly Part[]): MultipartBody {
  const boundary = `----pos-test-${randomBytes(12).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\n`));
    if ('value' in part) {
      chunks.push(Buffer.from(`Content-Disposition: form-data; name="${quoted(part.name)}"\r\n\r\n`), Buffer.from(part.value, 'utf8'));
    } else {
      chunks.push(
        Buffer.from(`Content-Disposition: form-data; name="${quoted(part.name)}"; filename="${quoted(part.fileName)}"\r\nContent-Type: ${part.contentType}\r\n\r\n`, 'utf8'),
        Buffer.isBuffer(part.data) ? part.data : Buffer.from(part.data, 'utf8'),
      );
    }
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), boundary, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** The JSON `model` part and file parts of a portal upload call. */
export function uploadBody(model: object, files: ReadonlyArray<{ name: string; fileName: string; contentType: string; data: Buffer | string }> = []): MultipartBody {
  return multipart([{ name: 'model', value: JSON.stringify(model) }, ...files]);
}

/** Small files with real signatures, for the type checks of uploads. */
export const SAMPLE = {
  pdf: Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n', 'latin1'),
  png: pngOf(1, 1),
  jpeg: jpegHeader(1, 1),
  heic: Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypheic\0\0\0\0mif1heic', 'latin1')]),
  html: Buffer.from('<!doctype html><script>alert(1)</script>', 'utf8'),
};
