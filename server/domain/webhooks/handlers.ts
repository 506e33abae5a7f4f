import type { Handlers } from '../../http/handler-types.ts';
import { addEndpoint, deleteEndpoint, listEndpoints, rotateSecret, updateEndpoint } from './endpoints.ts';
import { listDeliveries, replay, sendTest } from './deliveries.ts';

type Webhooks =
  | 'Webhooks_GetEndpoints' | 'Webhooks_AddEndpoint' | 'Webhooks_UpdateEndpoint' | 'Webhooks_DeleteEndpoint'
  | 'Webhooks_RotateSecret' | 'Webhooks_GetDeliveries' | 'Webhooks_Replay' | 'Webhooks_SendTest';

/** Settings → Integrations: an office's (or the platform's) webhook endpoints and their delivery logs (x-access: office admins, df.admin). */
export const webhookHandlers: Pick<Handlers, Webhooks> = {
  async Webhooks_GetEndpoints({ body, services }) {
    return { status: 200, body: await listEndpoints(services.db, body.officeId) };
  },
  async Webhooks_AddEndpoint({ body, caller, services }) {
    return { status: 200, body: await addEndpoint(services, caller, body) };
  },
  async Webhooks_UpdateEndpoint({ body, services }) {
    const endpoint = await updateEndpoint(services, body);
    return { status: 200, body: endpoint };
  },
  async Webhooks_DeleteEndpoint({ body, services }) {
    await deleteEndpoint(services.db, body.endpointId);
    return { status: 200, body: { success: true, message: null } };
  },
  async Webhooks_RotateSecret({ body, services }) {
    return { status: 200, body: await rotateSecret(services, body.endpointId, body.overlapHours) };
  },
  async Webhooks_GetDeliveries({ body, services }) {
    return { status: 200, body: await listDeliveries(services.db, body) };
  },
  async Webhooks_Replay({ body, services }) {
    const replayed = await replay(services.db, body);
    return { status: 200, body: replayed };
  },
  async Webhooks_SendTest({ body, services }) {
    const delivery = await sendTest(services.db, body.endpointId);
    return { status: 200, body: delivery };
  },
};
