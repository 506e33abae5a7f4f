/**
 * The parts of a descriptor only the server reads: a lender's simulated decisions (`sandbox`, played by the lender
 * service), how the portal speaks to its API (`adapter`, `http`) and whom it takes (`eligibility`, applied by the
 * server). What the browser gets — the bundle's files and a published set sent to visitors — leaves them out: they are
 * the integration's workings, not a page's, and bytes on a phone.
 */
import type { DescriptorKind } from './kinds.ts';

const SERVER_ONLY: Partial<Record<DescriptorKind, readonly string[]>> = { lender: ['sandbox', 'adapter', 'http', 'eligibility'] };

/** A descriptor as the browser gets it: a copy without its server-only parts (the same object when it has none). */
export function forTheBrowser<T>(kind: DescriptorKind | undefined, doc: T): T {
  const parts = kind ? SERVER_ONLY[kind] : undefined;
  if (!parts || !doc || typeof doc !== 'object') return doc;
  const copy = { ...(doc as Record<string, unknown>) };
  for (const part of parts) delete copy[part];
  return copy as T;
}
