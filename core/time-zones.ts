/** The US time zones an office keeps (schemas/enums/time-zone.json): each code's words and IANA zone are data there. */
import timeZones from '../schemas/enums/time-zone.json' with { type: 'json' };

const LABELS: Readonly<Record<string, string>> = timeZones['x-labels'];
const ZONES: Readonly<Record<string, string>> = timeZones['x-zones'];

/** Every office time zone: its code ('CT'), its words ('Central') and its IANA zone ('America/Chicago'). */
export const TIME_ZONES: ReadonlyArray<{ code: string; label: string; iana: string }> = timeZones.enum.map((code) => ({ code, label: LABELS[code]!, iana: ZONES[code]! }));

/** The zone of an office that has not said its own yet (its profile asks it): Eastern, the most populous US zone. */
export const DEFAULT_OFFICE_ZONE = 'ET';

/** The IANA zone of an office time zone code ('CT' → 'America/Chicago'); undefined for anything else. */
export function ianaZone(code: unknown): string | undefined {
  return typeof code === 'string' && Object.hasOwn(ZONES, code) ? ZONES[code] : undefined;
}
