/**
 * CSV files for spreadsheets (RFC 4180): CRLF line ends, a field quoted when it holds a quote, comma,
 * CR or LF (quotes doubled), UTF-8 with a byte order mark so that Excel reads accented names right.
 * A text cell that a spreadsheet would run as a formula (=, +, -, @, tab, CR first) is prefixed with
 * an apostrophe; numbers and dates are written by us and never are (decision 0081).
 */

/** A cell: text the user may have typed, or a value we formatted (amount, date, id). */
export type Cell = { text: string | null } | { value: string | number | null };

const FORMULA_START = /^[=+\-@\t\r]/;

export const text = (value: string | null | undefined): Cell => ({ text: value ?? null });
export const value = (v: string | number | null | undefined): Cell => ({ value: v ?? null });

function field(cell: Cell): string {
  let raw: string;
  if ('text' in cell) {
    raw = cell.text ?? '';
    if (FORMULA_START.test(raw)) raw = `'${raw}`;
  } else {
    raw = cell.value === null ? '' : String(cell.value);
  }
  return /[",\r\n]/.test(raw) ? `"${raw.replace(/"/g, '""')}"` : raw;
}

const BOM = '\uFEFF';

export function csvFile(header: readonly string[], rows: readonly Cell[][]): Buffer {
  const lines = [header.map((name) => field({ text: name })).join(','), ...rows.map((row) => row.map(field).join(','))];
  return Buffer.from(`${BOM}${lines.join('\r\n')}\r\n`, 'utf8');
}

/** Cents as a plain two-decimal dollar figure (1234567 → "12345.67"), by integer arithmetic. */
export function dollars(cents: number | null): Cell {
  if (cents === null) return { value: null };
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return { value: `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}` };
}

/** The file name part for a date: yyyy-mm-dd. */
export const fileDate = (at: Date) => at.toISOString().slice(0, 10);

export const CSV_TYPE = 'text/csv; charset=utf-8; header=present';
