/**
 * The first paint's read of its page's data (public/first-paint.js, decision 0286), handed to the app's own first read
 * of the same address: the page asks the server once, not twice — an unknown landing code is one 404, not two.
 */
interface FirstRead {
  /** The absolute address read. */
  url: string;
  /** Its answer, unread (a copy the script made before reading its own). */
  answer: Promise<Response>;
}

declare global {
  interface Window {
    posFirstRead?: FirstRead;
  }
}

/** The first paint's answer for this request, once; undefined for any other request. */
export function takeFirstRead(request: Request): Promise<Response> | undefined {
  const first = typeof window === 'undefined' ? undefined : window.posFirstRead;
  if (!first || request.method !== 'GET' || request.url !== first.url) return undefined;
  window.posFirstRead = undefined;
  // A read that failed on the way is made again, as if the script had never made it.
  return first.answer.catch(() => globalThis.fetch(request));
}
