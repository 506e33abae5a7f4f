import { createHash } from 'node:crypto';
import type { Db } from '../../db/index.ts';
import { files } from '../../db/schema.ts';
import type { UploadedFile } from '../../http/handler-types.ts';

/**
 * Uploaded files are typed by their bytes, not by the name or the Content-Type the browser claimed:
 * a page renamed to .pdf is refused, and what is stored is served back with the type it really has.
 */

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const HEIC_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis']);
const HEIF_BRANDS = new Set(['mif1', 'msf1', 'heif']);

/** The content type the bytes show, if it is one the portal keeps. */
export function sniffContentType(data: Buffer): string | undefined {
  if (data.subarray(0, 5).toString('latin1') === '%PDF-') return 'application/pdf';
  if (data.subarray(0, 8).equals(PNG)) return 'image/png';
  if (data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'image/jpeg';
  if (data.subarray(4, 8).toString('latin1') === 'ftyp') {
    const brand = data.subarray(8, 12).toString('latin1');
    if (HEIC_BRANDS.has(brand)) return 'image/heic';
    if (HEIF_BRANDS.has(brand)) return 'image/heif';
  }
  return undefined;
}

export interface UploadRule {
  /** Content types accepted. */
  types: readonly string[];
  /** How the accepted types read in the error message. */
  label: string;
  maxBytes: number;
}

/** Enrollment documents and photo-ids: scans and phone photos. */
export const DOCUMENT_RULE = (maxBytes: number): UploadRule => ({
  types: ['application/pdf', 'image/png', 'image/jpeg', 'image/heic', 'image/heif'],
  label: 'PDF, PNG, JPEG or HEIC',
  maxBytes,
});

/** Landing page images are shown by browsers, which do not all show HEIC; SVG could carry script. */
export const IMAGE_RULE = (maxBytes: number): UploadRule => ({ types: ['image/png', 'image/jpeg'], label: 'PNG or JPEG', maxBytes });

const megabytes = (bytes: number) => `${Math.round((bytes / 1_048_576) * 10) / 10} MB`;

/** The problem with an upload, or its real content type. */
export function checkUpload(file: UploadedFile, rule: UploadRule): { contentType: string } | { error: string } {
  if (file.data.length === 0) return { error: 'The file is empty.' };
  if (file.data.length > rule.maxBytes) return { error: `The file is larger than ${megabytes(rule.maxBytes)}.` };
  const contentType = sniffContentType(file.data);
  if (!contentType || !rule.types.includes(contentType)) return { error: `Only ${rule.label} files are accepted.` };
  return { contentType };
}

/** The name without any folder a browser sent along, control characters or excess length. */
export function cleanFileName(name: string, fallback: string): string {
  const base = (name.split(/[\\/]/).pop() ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim();
  const chars = [...(base || fallback)];
  if (chars.length <= 255) return chars.join('');
  const dot = base.lastIndexOf('.');
  const extension = dot > 0 && base.length - dot <= 10 ? base.slice(dot) : '';
  return chars.slice(0, 255 - extension.length).join('') + extension;
}

export interface StoredFileInput {
  officeId: number;
  appId?: number | null;
  ownerId?: number | null;
  kind: string;
  file: UploadedFile;
  contentType: string;
  createdBy: string | null;
}

/** Stores the bytes with their digest; answers the new file's id. */
export async function storeFile(tx: Db, input: StoredFileInput): Promise<string> {
  const [row] = await tx
    .insert(files)
    .values({
      officeId: input.officeId,
      appId: input.appId ?? null,
      ownerId: input.ownerId ?? null,
      kind: input.kind,
      fileName: cleanFileName(input.file.fileName, `${input.kind}${extensionOf(input.contentType)}`),
      contentType: input.contentType,
      sizeBytes: input.file.data.length,
      sha256: createHash('sha256').update(input.file.data).digest('hex'),
      bytes: input.file.data,
      createdBy: input.createdBy,
    })
    .returning({ id: files.id });
  return row!.id;
}

function extensionOf(contentType: string): string {
  return { 'application/pdf': '.pdf', 'image/png': '.png', 'image/jpeg': '.jpg', 'image/heic': '.heic', 'image/heif': '.heif' }[contentType] ?? '';
}
