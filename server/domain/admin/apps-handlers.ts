import type { Handlers } from '../../http/handler-types.ts';
import { auditLogs } from '../applications/audit.ts';
import { adminActiveApps, adminInactiveApps } from './apps.ts';

type AdminApps = 'AdminApps_GetApps' | 'AdminApps_GetInactiveApps' | 'AdminApps_GetAppAuditLogs';

/** Platform admin: application lists across offices and an application's audit logs (x-access: internal roles). */
export const adminAppHandlers: Pick<Handlers, AdminApps> = {
  async AdminApps_GetApps({ body, services }) {
    return { status: 200, body: await adminActiveApps(services.db, body) };
  },
  async AdminApps_GetInactiveApps({ body, services }) {
    return { status: 200, body: await adminInactiveApps(services.db, body) };
  },
  async AdminApps_GetAppAuditLogs({ query, services }) {
    return { status: 200, body: await auditLogs(services.db, query.id) };
  },
};
