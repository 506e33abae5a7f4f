import { createJobRunner, registerJobRunner, type JobRunner } from '../jobs/runner.ts';
import type { Services } from '../services.ts';
import { lenderNewsQueues } from './journey/lender-news.ts';
import { lenderOrderQueues } from './applications/lender-orders.ts';
import { messageQueues } from '../notify/delivery.ts';
import { configuredTransports } from '../notify/transports.ts';
import { webhookQueues } from '../events/webhook-delivery.ts';
import { dailyFundingQueues } from './funding/daily-report.ts';
import { studioQueues } from './studio/reviews.ts';

/**
 * The process's job runner with every queue the domain has (decision 0262), registered for its database until it
 * stops; server/main.ts starts its timer.
 */
export function processJobRunner(services: Services): JobRunner {
  const runner = createJobRunner(services.database.db, {
    ...messageQueues(services.database.db, configuredTransports(services.settings.notify)),
    ...lenderNewsQueues(services),
    ...lenderOrderQueues(services),
    ...webhookQueues(services.database.db, services.settings),
    ...dailyFundingQueues(services.database.db, services.settings),
    ...studioQueues(services),
  }, services.log);
  const unregister = registerJobRunner(services.database.db, runner);
  return {
    ...runner,
    async stop() {
      unregister();
      await runner.stop();
    },
  };
}
