/** Content negotiation and revalidation, shared by the web app's page and files and the API's answers. */
import { createHash } from 'node:crypto';

export type Encoding = 'br' | 'gzip';

/** The encoding the client accepts that we prefer (brotli, then gzip), honouring q=0 refusals. */
export function preferredEncoding(acceptEncoding: string | undefined): Encoding | undefined {
  const accepted = new Map<string, number>();
  for (const part of (acceptEncoding ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    accepted.set(name, q === undefined ? 1 : Number(q));
  }
  const allows = (name: Encoding) => (accepted.get(name) ?? (accepted.has('*') ? accepted.get('*')! : 0)) > 0;
  return (['br', 'gzip'] as const).find(allows);
}

/** A weak validator naming the content (the same bytes in any encoding). */
export const contentEtag = (body: string | Buffer) => `W/"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;

/** Does the request's If-None-Match name this validator (the client's copy is current)? */
export const stillFresh = (ifNoneMatch: string | undefined, etag: string) => !!ifNoneMatch && ifNoneMatch.split(',').some((tag) => tag.trim() === etag);
