/**
 * JSON with object keys sorted at every level and undefined members left out, as JSON.stringify leaves them: the same
 * content always hashes and compares the same, whatever order its keys were written or stored in (jsonb keeps none).
 * The e-sign audit chain hashes its events with it, the studio its descriptor sets.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}
