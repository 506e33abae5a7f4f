import type { Services } from '../services.ts';
import { outboxDispatcher } from './outbox.ts';

/** After a commit that queued messages: deliver now when SMTP / an SMS gateway is configured. */
export function kickOutbox(services: Services): void {
  void services.afterCommit(() => outboxDispatcher(services.database.db, services.settings, services.log).kick());
}
