/**
 * Faults on demand, per lender (lender-service/README.md, "Faults"): what a real lender does on a bad day, so that the
 * portal's timeouts, circuit breaker, mapping errors and signature checks can be tried against it.
 */
export interface Faults {
  /** Every answer of the lender waits this long first. */
  delayMs?: number;
  /** 'reset': the connection is dropped without an answer (the closest a shared port comes to refusing it); '503': Service Unavailable. */
  down?: 'reset' | '503';
  /** Answers 200 with a body that is not JSON. */
  malformed?: boolean;
  /** Callbacks are signed with a wrong key. */
  badSignature?: boolean;
}

/** A minute at most: a slow lender, not a hung test run. */
export const MAX_DELAY_MS = 60_000;

/** The faults a request body asks for, or the problem with it. */
export function parseFaults(body: unknown): Faults | string {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'the faults are a JSON object';
  const { delayMs, down, malformed, badSignature, ...rest } = body as Record<string, unknown>;
  const unknown = Object.keys(rest);
  if (unknown.length) return `unknown faults: ${unknown.join(', ')} (delayMs, down, malformed, badSignature)`;
  const faults: Faults = {};
  if (delayMs !== undefined) {
    if (!Number.isInteger(delayMs) || (delayMs as number) < 0 || (delayMs as number) > MAX_DELAY_MS) return `delayMs is a whole number of milliseconds from 0 to ${MAX_DELAY_MS}`;
    if (delayMs) faults.delayMs = delayMs as number;
  }
  if (down !== undefined && down !== null) {
    if (down !== 'reset' && down !== '503') return "down is 'reset' or '503' (or null)";
    faults.down = down;
  }
  for (const [name, value] of [['malformed', malformed], ['badSignature', badSignature]] as const) {
    if (value !== undefined && typeof value !== 'boolean') return `${name} is true or false`;
    if (value) faults[name] = true;
  }
  return faults;
}
