import type { JobQueue } from '../../codegen/generated/schemas.ts';

export const WEBHOOK_QUEUE = 'webhook' satisfies JobQueue;
/**
 * A delivery is tried for about a day: 30 s doubling to an hour, then hourly (30 attempts ≈ 24 h); after that it has
 * failed and its endpoint is paused.
 */
export const WEBHOOK_ATTEMPTS = 30;
