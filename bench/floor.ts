/**
 * The floor of the two hot lists (issue 17; decision 0145 measured it by hand): a bare Fastify server that does only
 * the call's own data work — the caller's roles (read on every call, decision 0140) and the list, through the same
 * functions the portal calls, so the same prepared SQL and row mapping over the same node-postgres pool — and
 * JSON.stringify. No token, no access decision, no contract validation, no logging, no problem mapping: what the
 * portal adds on top is the difference to this. FLOOR_USER_ID names the caller whose roles it reads.
 * WORKERS > 1 forks that many processes on one port, as the portal does (decision 0202).
 */
import cluster from 'node:cluster';
import Fastify from 'fastify';
import { openPostgres } from '../server/db/index.ts';
import { applicationsByStage, listApplications, type ListQuery } from '../server/domain/applications/rows.ts';
import { KANBAN_LANE_SIZE } from '../server/domain/applications/handlers.ts';
import { ACTIVE_STAGES } from '../server/domain/applications/status.ts';
import { loadStaff } from '../server/http/access.ts';

const workers = Number(process.env.WORKERS || 1);
if (workers > 1 && cluster.isPrimary) {
  for (let i = 0; i < workers; i++) cluster.fork();
  const stop = () => {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
    setTimeout(() => process.exit(0), 500);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
} else {
  const database = await openPostgres(process.env.DATABASE_URL!);
  const app = Fastify({ logger: false });
  type Body = ListQuery & { officeId: number };
  const userId = process.env.FLOOR_USER_ID!;
  app.put<{ Body: Body }>('/api/App/GetOfficeApps', async (request) => {
    await loadStaff(database, userId);
    return listApplications(database.db, { officeId: request.body.officeId, stages: ACTIVE_STAGES, anyStage: true }, request.body);
  });
  app.put<{ Body: Body }>('/api/App/GetOfficeAppsByStage', async (request) => {
    await loadStaff(database, userId);
    return applicationsByStage(database.db, request.body.officeId, ACTIVE_STAGES, request.body.search, KANBAN_LANE_SIZE);
  });
  app.get('/health', async () => ({ ok: true }));
  const stop = () => void app.close().then(() => database.close()).finally(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  await app.listen({ host: process.env.HOST || '127.0.0.1', port: Number(process.env.PORT || 3002) });
}
