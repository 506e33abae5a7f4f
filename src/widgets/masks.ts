/** Input masks (spec §2, §5): '#' is a digit, anything else is a literal the mask inserts. Pure. */

/** Formats the digits of `input` into `mask` as far as they go: '55512' → '(555) 12' for '(###) ###-####'. */
export function applyMask(mask: string, input: string): string {
  const digits = input.replace(/\D/g, '');
  let out = '';
  let d = 0;
  for (const ch of mask) {
    if (d >= digits.length) break;
    if (ch === '#') out += digits[d++];
    else out += ch;
  }
  return out;
}

/** The mask's placeholder: '(###) ###-####' → '(___) ___-____'. */
export const placeholderOf = (mask: string) => mask.replace(/#/g, '_');

/** A masked value that holds no digit, or the mask placeholder itself, counts as empty. */
export function isEmptyMasked(mask: string, value: unknown): boolean {
  if (value === undefined || value === null) return true;
  const s = String(value);
  return s === '' || s === placeholderOf(mask) || s.replace(/\D/g, '') === '';
}

/** '1,234.5' → 1234.5; '' → undefined; at most two decimals kept as typed. */
export function parseCurrency(input: string): number | undefined {
  const cleaned = input.replace(/[^0-9.]/g, '');
  if (cleaned === '' || cleaned === '.') return undefined;
  const [whole, ...fraction] = cleaned.split('.');
  const n = Number(`${whole || '0'}${fraction.length ? '.' + fraction.join('') : ''}`);
  return Number.isFinite(n) ? n : undefined;
}

/** The text shown in a currency input: thousands separators, the decimals as typed. */
export function currencyText(value: unknown): string {
  if (value === undefined || value === null || value === '') return '';
  const n = Number(value);
  if (!Number.isFinite(n)) return String(value);
  const [whole, fraction] = String(n).split('.');
  return `${Number(whole).toLocaleString('en-US')}${fraction !== undefined ? '.' + fraction : ''}`;
}
