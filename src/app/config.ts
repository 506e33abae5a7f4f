/**
 * Run-time configuration the server puts into index.html (docs/decisions/0045-web-config.md):
 * <meta name="pos-config" content='{"apiKey":"…","descriptors":"…"}'>, injected per response by server/http/security-headers.ts.
 * A meta element, not an inline script, so the Content-Security-Policy needs no script exception. In `vite dev`
 * (no server injection) the key comes from VITE_WEB_API_KEY, or the demo key.
 */
export interface WebConfig {
  /** The publishable X-Api-Key of the (key) calls (decision 0001). */
  apiKey: string | null;
  /** The descriptor set published from the studio that is live, when one is (decision 0228). */
  descriptors?: string;
}

export function parseWebConfig(content: string | null | undefined): WebConfig {
  try {
    const parsed = content ? (JSON.parse(content) as Partial<WebConfig>) : {};
    const descriptors = typeof parsed.descriptors === 'string' && /^[0-9a-f]{16}$/.test(parsed.descriptors) ? parsed.descriptors : undefined;
    return { apiKey: typeof parsed.apiKey === 'string' && parsed.apiKey ? parsed.apiKey : null, ...(descriptors ? { descriptors } : {}) };
  } catch {
    return { apiKey: null };
  }
}

let cached: WebConfig | undefined;

export function webConfig(): WebConfig {
  if (cached) return cached;
  const meta = typeof document === 'undefined' ? null : document.querySelector('meta[name="pos-config"]');
  cached = parseWebConfig(meta?.getAttribute('content'));
  if (!cached.apiKey && import.meta.env.DEV) cached = { apiKey: (import.meta.env.VITE_WEB_API_KEY as string | undefined) ?? 'demo-web-key' };
  return cached;
}
