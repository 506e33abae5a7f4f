/**
 * Security headers of the web app's pages, and its run-time configuration (docs/decisions/0045-web-config.md).
 *
 * - Content-Security-Policy without 'unsafe-eval': the browser never compiles code (validators are precompiled).
 *   Styles allow 'unsafe-inline' because Chakra UI (Emotion) inserts style elements at run time. connect-src and
 *   form-action add the origins sign-in talks to: the external issuer's, or the built-in provider's (PUBLIC_URL),
 *   which is not 'self' when the page is on a brand's own host (docs/decisions/0180).
 * - index.html gets <meta name="pos-config" content='{"apiKey":"…"}'> filled in per response (no inline script, so
 *   the policy needs no script exception); it is sent with Cache-Control: no-cache and without validators, so a
 *   changed key is never served from a stale copy.
 * Only the web app's page (/ and /index.html) is touched: API answers, the reference page under /api/docs and the
 * sign-in pages of server/identity set up their own headers.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import type { Settings } from '../config.ts';
import { signInOrigins } from '../identity/paths.ts';

export function contentSecurityPolicy(signIn: readonly string[]): string {
  const connect = ["'self'", ...signIn].join(' ');
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https:",
    "font-src 'self' data:",
    `connect-src ${connect}`,
    `form-action ${connect}`,
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "object-src 'none'",
  ].join('; ');
}

const escapeAttribute = (text: string) => text.replace(/&/g, '&amp;').replace(/'/g, '&#39;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** The page's configuration as the meta element's content. */
export function webConfigMeta(settings: Pick<Settings, 'webApiKey'>): string {
  return `<meta name="pos-config" content='${escapeAttribute(JSON.stringify({ apiKey: settings.webApiKey }))}' />`;
}

async function readAll(payload: unknown): Promise<string> {
  if (typeof payload === 'string') return payload;
  if (Buffer.isBuffer(payload)) return payload.toString('utf8');
  const chunks: Buffer[] = [];
  for await (const chunk of payload as Readable) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string));
  return Buffer.concat(chunks).toString('utf8');
}

const APP_PAGES = new Set(['/', '/index.html']);

const isAppPage = (request: FastifyRequest, reply: FastifyReply) =>
  APP_PAGES.has(request.url.split('?')[0]!) && String(reply.getHeader('content-type') ?? '').startsWith('text/html');

export async function registerSecurityHeaders(app: FastifyInstance, settings: Settings): Promise<void> {
  const policy = contentSecurityPolicy(signInOrigins(settings.identity, settings.publicUrl));
  const meta = webConfigMeta(settings);
  app.addHook('onSend', async (request, reply, payload) => {
    if (!isAppPage(request, reply)) return payload;
    reply.header('content-security-policy', policy);
    reply.header('x-frame-options', 'DENY');
    reply.header('permissions-policy', 'camera=(), microphone=(), geolocation=()');
    if (reply.statusCode !== 200 || payload === null || payload === undefined) return payload;
    const html = await readAll(payload);
    reply.removeHeader('content-length');
    reply.removeHeader('etag');
    reply.removeHeader('last-modified');
    reply.header('cache-control', 'no-cache');
    return html.replace(/<meta name="pos-config" content="[^"]*"\s*\/?>/, meta);
  });
}
