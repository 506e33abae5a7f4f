import type { Handlers } from '../../http/handler-types.ts';
import { officeSettingList } from '../offices/settings.ts';
import { platformConfigItems } from './reads.ts';

export const configHandlers: Pick<Handlers, 'Config_GetConfigItems' | 'Config_GetAllConfigItems' | 'Office_GetConfigItems'> = {
  async Config_GetConfigItems({ params, services }) {
    return { status: 200, body: await platformConfigItems(services.db, params.type) };
  },
  async Config_GetAllConfigItems({ services }) {
    return { status: 200, body: { items: await platformConfigItems(services.db) } };
  },
  async Office_GetConfigItems({ params, services }) {
    return { status: 200, body: { items: await officeSettingList(services.db, params.id) } };
  },
};
