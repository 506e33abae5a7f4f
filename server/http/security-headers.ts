/**
 * Security headers of the web app's page, and its run-time configuration (docs/decisions/0045-web-config.md);
 * server/http/web-app.ts sends them.
 *
 * - Content-Security-Policy without 'unsafe-eval': the browser never compiles code (validators are precompiled).
 *   Styles allow 'unsafe-inline' because Chakra UI (Emotion) inserts style elements at run time. connect-src and
 *   form-action add the origins sign-in talks to: the external issuer's, or the built-in provider's (PUBLIC_URL),
 *   which is not 'self' when the page is on a brand's own host (docs/decisions/0180). Images come only from the portal
 *   itself and data: URLs, all a descriptor may name (decision 0250), and from the asset host an operator sets
 *   (ASSET_HOST): a descriptor that slipped past the checks still cannot make every visitor's browser connect elsewhere.
 * - index.html gets <meta name="pos-config" content='{"apiKey":"…"}'> (no inline script, so the policy needs no script
 *   exception).
 * API answers, the reference page under /api/docs and the sign-in pages of server/identity set up their own headers.
 */
import type { Settings } from '../config.ts';

/** `scripts`: the hashes ('sha256-…') of the page's own inline scripts (the first paint's, decision 0286). */
export function contentSecurityPolicy(signIn: readonly string[], assetOrigin?: string, scripts: readonly string[] = []): string {
  const connect = ["'self'", ...signIn].join(' ');
  const images = ["'self'", 'data:', ...(assetOrigin ? [assetOrigin] : [])].join(' ');
  return [
    "default-src 'self'",
    ["script-src 'self'", ...scripts].join(' '),
    "style-src 'self' 'unsafe-inline'",
    `img-src ${images}`,
    "font-src 'self' data:",
    `connect-src ${connect}`,
    `form-action ${connect}`,
    // The studio previews pages in a frame of the same origin (decision 0228); no other site may frame them.
    "frame-ancestors 'self'",
    "base-uri 'self'",
    "object-src 'none'",
  ].join('; ');
}

const escapeAttribute = (text: string) => text.replace(/&/g, '&amp;').replace(/'/g, '&#39;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** The page's configuration as the meta element's content: the public API key and the live descriptor set's hash. */
export function webConfigMeta(settings: Pick<Settings, 'webApiKey'>, descriptors = ''): string {
  return `<meta name="pos-config" content='${escapeAttribute(JSON.stringify({ apiKey: settings.webApiKey, ...(descriptors ? { descriptors } : {}) }))}' />`;
}
