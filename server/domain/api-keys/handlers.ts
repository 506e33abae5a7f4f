import type { Handlers } from '../../http/handler-types.ts';
import { addKey, listKeys, revokeKey } from './keys.ts';

/** Settings → API Keys: an office's keys for its partners' software (x-access: office admins, df.admin). */
export const apiKeyHandlers: Pick<Handlers, 'ApiKeys_GetKeys' | 'ApiKeys_AddKey' | 'ApiKeys_RevokeKey'> = {
  async ApiKeys_GetKeys({ body, services }) {
    return { status: 200, body: await listKeys(services.db, body.officeId) };
  },
  async ApiKeys_AddKey({ body, caller, services }) {
    return { status: 200, body: await addKey(services.db, caller, body) };
  },
  async ApiKeys_RevokeKey({ body, services }) {
    return { status: 200, body: await revokeKey(services.db, body.keyId) };
  },
};
