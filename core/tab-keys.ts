/**
 * What the web app keeps for a tab (sessionStorage: the session, the language chosen, the brand asked for) and the
 * address flag that starts it as a studio preview. The app reads them, and so does the first paint's script, which
 * gets them from the page (core/first-paint.ts): one name for each, wherever it is read.
 */
export const TAB_KEYS = { session: 'pos.session', language: 'pos.language', brand: 'pos.brand' } as const;

/** `?studio-preview` in the address: the studio's frame, which shows drafts. */
export const PREVIEW_FLAG = 'studio-preview';
