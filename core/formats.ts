/**
 * Value formats of spec §9: currency, APR, dates (MM/dd/yyyy), phone, yes/no, file sizes, and enumeration labels —
 * in the current language (current-language.ts): money and numbers by its tag; dates, in a language other than the source,
 * with the month in words ('26 nov 2026'), which no reader can take for a day (decision 0216).
 */
import { formatDay, formatMoney, formatNumber } from './i18n.ts';
import { isLabelFormat, labelOf } from './labels.ts';
import { ianaZone } from './time-zones.ts';
import { currentLanguage, tr } from './current-language.ts';

const tag = () => currentLanguage().tag;

/** '$1,234.50'; '$0.00' when the amount is not positive (or not a number). */
export function formatCurrency(value: unknown): string {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  return formatMoney(tag(), !Number.isFinite(n) || n <= 0 ? 0 : n);
}

/** '9.990%' (3 decimals), or 'n/a' when there is no rate. */
export function formatApr(value: unknown): string {
  if (value === null || value === undefined || value === '') return tr('n/a');
  const n = Number(value);
  return Number.isFinite(n) ? `${n.toFixed(3)}%` : tr('n/a');
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The calendar day a value names: MM/dd/yyyy and yyyy-mm-dd as written, an instant in the viewer's time zone. */
function dayOf(s: string): Date | undefined {
  const mdy = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(s);
  if (mdy) return new Date(Number(mdy[3]), Number(mdy[1]) - 1, Number(mdy[2]));
  const ymd = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (ymd) return new Date(Number(ymd[1]), Number(ymd[2]) - 1, Number(ymd[3]));
  const d = new Date(s);
  return Number.isNaN(d.getTime()) ? undefined : d;
}

/** MM/dd/yyyy from MM/dd/yyyy, yyyy-mm-dd or an ISO instant (shown in the viewer's time zone); '' when absent. */
export function formatDate(value: unknown): string {
  if (value === null || value === undefined || value === '') return '';
  const s = String(value);
  const d = dayOf(s);
  return d ? formatDay(currentLanguage(), d.getFullYear(), d.getMonth() + 1, d.getDate()) : s;
}

/** MM/dd/yyyy hh:mm AM/PM for instants. */
/**
 * A date and time: in the viewer's clock, or — given an office time zone code ('CT') — in that zone, named ('CST'),
 * so that everyone reads the office's time, whatever their own clock (an invitation's expiry, decision 0258).
 */
export function formatDateTime(value: unknown, timeZoneCode?: unknown): string {
  if (value === null || value === undefined || value === '') return '';
  const d = new Date(String(value));
  if (Number.isNaN(d.getTime())) return String(value);
  const timeZone = ianaZone(timeZoneCode);
  if (timeZone) return inZone(d, timeZone);
  if (!currentLanguage().source) return new Intl.DateTimeFormat(tag(), { dateStyle: 'medium', timeStyle: 'short' }).format(d);
  const h = d.getHours();
  return `${formatDate(value)} ${pad(((h + 11) % 12) + 1)}:${pad(d.getMinutes())} ${h < 12 ? 'AM' : 'PM'}`;
}

/** Each unit, its seconds, and from how far it is used: a link good for 72 hours says hours until its last three days. */
const RELATIVE_UNITS: readonly [Intl.RelativeTimeFormatUnit, number, number][] = [['day', 86_400, 3 * 86_400], ['hour', 3_600, 3_600], ['minute', 60, 60]];

/** A date and time with how long ago or ahead it is, as of now: '12/05/2026 03:00 PM (7 minutes ago)', '… (in 3 days)'. */
export function formatRelative(value: unknown, now = Date.now()): string {
  const shown = formatDateTime(value);
  const t = new Date(String(value)).getTime();
  if (!shown || Number.isNaN(t)) return shown;
  const seconds = (t - now) / 1000;
  const [unit, size] = RELATIVE_UNITS.find(([, , from]) => Math.abs(seconds) >= from) ?? ['minute', 60];
  return `${shown} (${new Intl.RelativeTimeFormat(tag(), { numeric: 'auto' }).format(Math.trunc(seconds / size), unit)})`;
}

/** The wall time of an IANA zone with the zone's short name: '12/05/2026 03:00 PM CST' (the language's own order elsewhere). */
function inZone(d: Date, timeZone: string): string {
  const zoneName = new Intl.DateTimeFormat(tag(), { timeZone, timeZoneName: 'short' }).formatToParts(d).find((p) => p.type === 'timeZoneName')?.value ?? '';
  if (!currentLanguage().source) return `${new Intl.DateTimeFormat(tag(), { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(d)} ${zoneName}`.trim();
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hour12: true }).formatToParts(d);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('month')}/${part('day')}/${part('year')} ${part('hour')}:${part('minute')} ${part('dayPeriod').toUpperCase()} ${zoneName}`.trim();
}

/** A US number's ten digits, however it was written (a leading country code 1 dropped); undefined when it has not ten. */
function tenDigits(value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  const digits = String(value).replace(/\D/g, '');
  const ten = digits.length === 11 && digits.startsWith('1') ? digits.slice(1) : digits;
  return ten.length === 10 ? ten : undefined;
}

/** (###) ###-#### from ten digits; anything else as given. */
export function formatPhone(value: unknown): string {
  if (value === null || value === undefined) return '';
  const ten = tenDigits(value);
  return ten ? `(${ten.slice(0, 3)}) ${ten.slice(3, 6)}-${ten.slice(6)}` : String(value);
}

/**
 * The tel: address that dials a value of the `tel` format, in the international form phones dial from anywhere
 * ('tel:+15125550142'); undefined for another format, or for a value that is not a US number, which stays text.
 */
export function callHref(format: string | undefined, value: unknown): string | undefined {
  const ten = format === 'tel' ? tenDigits(value) : undefined;
  return ten ? `tel:+1${ten}` : undefined;
}

/** An EIN as 12-3456789 from nine digits, however it was typed; anything else as given. */
export function formatEin(value: unknown): string {
  if (value === null || value === undefined) return '';
  const digits = String(value).replace(/\D/g, '');
  return digits.length === 9 ? `${digits.slice(0, 2)}-${digits.slice(2)}` : String(value);
}

/** A file size: '512 B', '12.3 KB', '4.5 MB' (1 KB = 1,024 bytes); '' when absent. */
/** Names as a sentence lists them in the language: 'A', 'A and B', 'A, B and C'. */
export const formatList = (names: readonly string[], languageTag = 'en-US') => new Intl.ListFormat(languageTag, { style: 'long', type: 'conjunction' }).format(names);

export function formatBytes(value: unknown): string {
  if (value === null || value === undefined || value === '') return '';
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) return String(value);
  if (n < 1024) return `${n} B`;
  const units = ['KB', 'MB', 'GB'];
  let size = n / 1024;
  let unit = 0;
  while (size >= 1024 && unit < units.length - 1) {
    size /= 1024;
    unit++;
  }
  return `${size.toFixed(1)} ${units[unit]}`;
}

/**
 * A value as a field or a table cell shows it: an amount nobody gave (an owner's income left blank, a plan without a
 * promotion) shows nothing, where formatCurrency's $0.00 would claim an amount.
 */
export function formatField(format: string | undefined, value: unknown, lookup?: Lookup): string {
  if (format === 'currency' && (value === null || value === undefined || value === '')) return '';
  return formatValue(format, value, lookup);
}

/** Reads a path of the context a format names ('datetime:data.timeZone'). */
export type Lookup = (path: string) => unknown;

const ZONED = /^datetime:(.+)$/;

export function formatValue(format: string | undefined, value: unknown, lookup?: Lookup): string {
  if (format && isLabelFormat(format)) return labelOf(format, value);
  const zoned = format ? ZONED.exec(format) : null;
  if (zoned) return formatDateTime(value, lookup?.(zoned[1]!));
  switch (format) {
    case 'currency':
      return formatCurrency(value);
    case 'apr':
      return formatApr(value);
    case 'date':
      return formatDate(value);
    case 'datetime':
      return formatDateTime(value);
    case 'relative':
      return formatRelative(value);
    case 'phone':
    case 'tel':
      return formatPhone(value);
    case 'ein':
      return formatEin(value);
    case 'bytes':
      return formatBytes(value);
    case 'yesno':
      return value === true ? tr('Yes') : value === false ? tr('No') : '';
    case 'number':
      return value === null || value === undefined || value === '' ? '' : formatNumber(tag(), Number(value));
    case 'percent':
      return value === null || value === undefined || value === '' ? '' : `${formatNumber(tag(), Number(value))}%`;
    case 'text':
      // A word of the data the language files may translate (a lender's plan name).
      return value === null || value === undefined ? '' : tr(String(value));
    default:
      return value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
  }
}
