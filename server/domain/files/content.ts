import { and, eq, isNotNull, or } from 'drizzle-orm';
import type { Db } from '../../db/index.ts';
import { files, offices } from '../../db/schema.ts';
import { HttpProblem } from '../../http/problem.ts';

type FileContent = Pick<typeof files.$inferSelect, 'id' | 'fileName' | 'contentType' | 'sizeBytes' | 'sha256' | 'bytes'>;

const contentColumns = {
  id: files.id,
  fileName: files.fileName,
  contentType: files.contentType,
  sizeBytes: files.sizeBytes,
  sha256: files.sha256,
  bytes: files.bytes,
};

const notFound = () => new HttpProblem(404, 'The file could not be found.');

/** A stored file; the access layer has already checked that the caller may see its office's files. */
export async function fileContent(db: Db, id: string): Promise<FileContent> {
  const [row] = await db.select(contentColumns).from(files).where(eq(files.id, id));
  if (!row) throw notFound();
  return row;
}

/**
 * A file anyone may read: the logo or picture of an office whose landing page is public — the same
 * condition under which Office_GetLandingPage shows that office (decision 0031).
 */
export async function publicFileContent(db: Db, id: string): Promise<FileContent> {
  const [row] = await db
    .select(contentColumns)
    .from(files)
    .innerJoin(offices, and(eq(offices.id, files.officeId), or(eq(offices.logoFileId, files.id), eq(offices.pictureFileId, files.id))))
    .where(and(eq(files.id, id), eq(offices.isApproved, true), eq(offices.isActive, true), isNotNull(offices.code)))
    .limit(1);
  if (!row) throw notFound();
  return row;
}

/**
 * The one byte range of a `Range: bytes=a-b` / `bytes=a-` / `bytes=-n` header, or undefined to send
 * the whole file. A range that is malformed or not satisfiable is ignored (RFC 9110 §14.2 lets a
 * server ignore Range), so the caller gets the whole file with 200 rather than an error.
 */
export function byteRange(header: string | undefined, size: number): { start: number; end: number } | undefined {
  const match = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!match || size === 0) return undefined;
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return undefined;
  if (first === '') {
    const suffix = Number(last);
    return suffix > 0 ? { start: Math.max(0, size - suffix), end: size - 1 } : undefined;
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  return start < size && start <= end ? { start, end } : undefined;
}

/** RFC 5987 `attr-char`s stay, everything else is percent-encoded UTF-8. */
const encodeExtValue = (text: string) => encodeURIComponent(text).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** A quoted-string fallback: ASCII letters for accented ones, `_` for anything a quoted string or a browser would misread. */
const asciiFallback = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]|["\\%]/g, '_');

/** The contract caps the header at 500 characters. */
const MAX_DISPOSITION = 500;

/**
 * `attachment; filename="..."` (RFC 6266), plus `filename*=UTF-8''...` (RFC 5987/8187) when the name
 * is not plain ASCII, so browsers that read it save the real name and the others a close one.
 */
export function contentDisposition(type: 'attachment' | 'inline', fileName: string): string {
  let name = [...fileName.replace(/[\u0000-\u001f\u007f]/g, '')];
  for (;;) {
    const text = name.join('') || 'file';
    const fallback = asciiFallback(text);
    const header = `${type}; filename="${fallback}"${fallback === text ? '' : `; filename*=UTF-8''${encodeExtValue(text)}`}`;
    if (header.length <= MAX_DISPOSITION) return header;
    // Too long: shorten the base name, keep the extension.
    const joined = name.join('');
    const dot = joined.lastIndexOf('.');
    const extension = dot > 0 && joined.length - dot <= 10 ? [...joined.slice(dot)] : [];
    const base = name.slice(0, name.length - extension.length);
    name = [...base.slice(0, Math.floor(base.length * 0.8)), ...extension];
  }
}

export interface FileAnswer {
  status: 200 | 206;
  body: Buffer;
  headers: Record<string, string>;
}

/** The whole file (200) or the requested range of it (206, with Content-Range). */
export function fileAnswer(file: FileContent, rangeHeader: string | undefined, disposition: 'attachment' | 'inline'): FileAnswer {
  const size = file.bytes.length;
  const headers: Record<string, string> = {
    'content-type': file.contentType,
    'content-disposition': contentDisposition(disposition, file.fileName),
    'accept-ranges': 'bytes',
    etag: `"${file.sha256}"`,
    // Stored files are user uploads: never let a browser run them as a page of this origin.
    'content-security-policy': "default-src 'none'; sandbox",
  };
  const range = byteRange(rangeHeader, size);
  if (!range) return { status: 200, body: file.bytes, headers };
  return {
    status: 206,
    body: file.bytes.subarray(range.start, range.end + 1),
    headers: { ...headers, 'content-range': `bytes ${range.start}-${range.end}/${size}` },
  };
}
