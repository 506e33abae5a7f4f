import { createHmac, timingSafeEqual } from 'node:crypto';
import { HttpProblem } from '../../http/problem.ts';
import type { DownloadUrl } from '../../../codegen/generated/schemas.ts';

/**
 * Short-lived links to one stored file (decision 0166): `fl1.<file id>.<expires: unix seconds>.<signature>`, the
 * signature an HMAC-SHA256 of "<file id>.<expires>" under a key derived from the borrower token secret. A browser opens
 * the link as a page, which can carry neither a bearer token nor a header, so the link itself is the credential: it
 * names exactly one file and stops working when it expires. Nothing is stored.
 */
const LINK = /^fl1\.([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.(\d{10,12})\.([A-Za-z0-9_-]{43})$/;

/** A key of its own, so that no other token signed with the same secret can pass for a file link. */
const linkKey = (secret: Buffer) => createHmac('sha256', secret).update('file-content-link/v1').digest();
const signatureOf = (secret: Buffer, fileId: string, expires: string) => createHmac('sha256', linkKey(secret)).update(`${fileId}.${expires}`).digest('base64url');

export const FILE_LINK_PATH = '/api/Files/GetContentByLink/';

/** The token of a link to one file until `expiresAt`; the link's path is FILE_LINK_PATH + token. */
export function fileLinkToken(secret: Buffer, fileId: string, expiresAt: Date): string {
  const expires = String(Math.floor(expiresAt.getTime() / 1000));
  return `fl1.${fileId}.${expires}.${signatureOf(secret, fileId, expires)}`;
}

/** How long a link given to the borrower opens its file. */
const DOCUMENT_LINK_TTL_MS = 15 * 60_000;

/** A link to one file for the borrower's pages: the token, the whole address and when it stops working. */
export function documentLink(secret: Buffer, publicUrl: string, fileId: string, now = Date.now()): DownloadUrl {
  const expiresAt = new Date(now + DOCUMENT_LINK_TTL_MS);
  const token = fileLinkToken(secret, fileId, expiresAt);
  return { url: `${publicUrl}${FILE_LINK_PATH}${token}`, token, expiresAtUtc: expiresAt.toISOString() };
}

/** The file a link names; an unknown, altered or expired link answers the same 404 as a missing file. */
export function fileOfLink(secret: Buffer, token: string, now = Date.now()): string {
  const notFound = new HttpProblem(404, 'The link is not valid or has expired. Open the documents again from the page that gave it.');
  const match = LINK.exec(token);
  if (!match) throw notFound;
  const [, fileId = '', expires = '', given = ''] = match;
  if (!timingSafeEqual(Buffer.from(given), Buffer.from(signatureOf(secret, fileId, expires)))) throw notFound;
  if (Number(expires) * 1000 < now) throw notFound;
  return fileId;
}
