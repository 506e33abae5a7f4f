import type { Db } from '../db/index.ts';
import { securityEvents } from '../db/schema.ts';
import type { ClientNetwork } from './addresses.ts';

/**
 * One row of security_events — what happened, to or by whom, from which address (an IPv6 one as its /64 network, as
 * the limits that count these rows see it) — that limits count and audits read.
 */
export async function recordSecurityEvent(db: Db, event: { kind: string; actor: string; ip: ClientNetwork; detail?: Record<string, unknown> }): Promise<void> {
  await db.insert(securityEvents).values({ kind: event.kind, actor: event.actor, ip: event.ip, detail: event.detail ?? {} });
}
