/**
 * Spec §4: user info is fetched only when no office id is held yet, and one in-flight fetch is shared
 * with the config items load: Users_GetUserInfo and Config_GetAllConfigItems go out together, and every
 * caller while they run waits on the same promise.
 */
import { callOperation } from '../api/client.ts';
import { session } from '../session/store.ts';
import { sessionAfterUserInfo, sessionFromUser, utmFromCookies, type SessionUser } from './routing.ts';

let inFlight: Promise<void> | null = null;

export function ensureUserInfo(): Promise<void> {
  if (session.get().officeId !== null && session.get().userInfoLoaded) return Promise.resolve();
  inFlight ??= (async () => {
    const officeAtRequest = session.get().officeId;
    try {
      const utm = utmFromCookies(typeof document === 'undefined' ? '' : document.cookie);
      const [user, config] = await Promise.all([
        callOperation('Users_GetUserInfo', { body: utm }) as Promise<SessionUser>,
        (callOperation('Config_GetAllConfigItems', {}) as Promise<{ items?: unknown[] }>).catch(() => ({ items: undefined })),
      ]);
      session.update({ ...sessionAfterUserInfo(session.get().officeId, officeAtRequest, sessionFromUser(user)), ...(config.items ? { configItems: config.items } : {}) });
    } finally {
      inFlight = null;
    }
  })();
  return inFlight;
}
