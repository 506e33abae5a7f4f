import { sha256Hex } from './consent.ts';
import { canonicalJson } from '../../core/canonical-json.ts';

/**
 * The signing ceremony's audit trail (docs/decisions/0107): each event is chained to the one before
 * by hash = SHA-256(previous hash + "\n" + canonical JSON of the event), starting from 64 zeros, so
 * that removing, reordering or changing an event breaks every hash after it. The events are kept in
 * the application's audit log (app_logs, data.esign) and printed on the certificate page.
 */
export type ESignEventType = 'documents-generated' | 'opened' | 'consented' | 'kba-passed' | 'kba-failed' | 'document-viewed' | 'signed' | 'completed' | 'link-sent';

export interface ESignEvent {
  seq: number;
  type: ESignEventType;
  /** ISO 8601 UTC. */
  at: string;
  ip: string | null;
  userAgent: string | null;
  /** The contract the ceremony is for: a new selection starts a new ceremony. */
  contractId: string;
  data: Record<string, string | number | boolean | null>;
}

export interface ChainedEvent extends ESignEvent {
  prevHash: string;
  hash: string;
}

export const GENESIS = '0'.repeat(64);

export function chainHash(prevHash: string, event: ESignEvent): string {
  const { seq, type, at, ip, userAgent, contractId, data } = event;
  return sha256Hex(`${prevHash}\n${canonicalJson({ seq, type, at, ip, userAgent, contractId, data })}`);
}

export function chain(prev: ChainedEvent | undefined, event: Omit<ESignEvent, 'seq'>): ChainedEvent {
  const full: ESignEvent = { ...event, seq: (prev?.seq ?? 0) + 1 };
  const prevHash = prev?.hash ?? GENESIS;
  return { ...full, prevHash, hash: chainHash(prevHash, full) };
}

/** True when every event links to the one before and its hash is its own. */
export function verifyChain(events: readonly ChainedEvent[]): boolean {
  let prev = GENESIS;
  for (const [index, event] of events.entries()) {
    if (event.seq !== index + 1 || event.prevHash !== prev || chainHash(prev, event) !== event.hash) return false;
    prev = event.hash;
  }
  return true;
}
