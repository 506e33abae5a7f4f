import { sql } from 'drizzle-orm';
import type { Handlers } from '../http/handler-types.ts';

export const healthHandlers: Pick<Handlers, 'Health_GetHealth'> = {
  async Health_GetHealth({ services }) {
    try {
      await services.db.execute(sql`select 1`);
      return { status: 200, body: { status: 'ok', database: 'up' } };
    } catch (error) {
      services.log.error({ err: error }, 'health: database unreachable');
      return { status: 200, body: { status: 'degraded', database: 'down' } };
    }
  },
};
