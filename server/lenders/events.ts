import type { LenderEvent, LenderEventEffect } from './types.ts';

/** What an event says of the contract itself — its status and sub-status, as the lender tells them — for any adapter. */
export function contractEffectOf(event: LenderEvent): LenderEventEffect {
  return {
    ...(event.contractStatus !== undefined ? { contractStatus: event.contractStatus } : {}),
    ...(event.contractSubStatus !== undefined ? { contractSubStatus: event.contractSubStatus } : {}),
  };
}
