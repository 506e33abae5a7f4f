import { describe, expect, it } from 'vitest';
import { callHref, formatApr, formatCurrency, formatDate, formatDateTime, formatPhone, formatRelative, formatValue } from '../../core/formats.ts';
import { fillTemplate } from '../../core/expressions.ts';
import { labelNamesIn, registerLabels } from '../../core/labels.ts';
import { applyMask, currencyText, isEmptyMasked, parseCurrency, placeholderOf } from '../../src/widgets/masks.ts';

describe('formats of spec §9', () => {
  it('shows currency as $ with 2 decimals and thousands separators, $0.00 when not positive', () => {
    expect(formatCurrency(1234.5)).toBe('$1,234.50');
    expect(formatCurrency(40000)).toBe('$40,000.00');
    expect(formatCurrency('750')).toBe('$750.00');
    expect(formatCurrency(0)).toBe('$0.00');
    expect(formatCurrency(-5)).toBe('$0.00');
    expect(formatCurrency(null)).toBe('$0.00');
  });

  it('shows APR with 3 decimals and %, or n/a', () => {
    expect(formatApr(9.99)).toBe('9.990%');
    expect(formatApr(0)).toBe('0.000%');
    expect(formatApr(null)).toBe('n/a');
    expect(formatApr('x')).toBe('n/a');
  });

  it('shows dates as MM/dd/yyyy', () => {
    expect(formatDate('03/04/2025')).toBe('03/04/2025');
    expect(formatDate('2025-03-04')).toBe('03/04/2025');
    expect(formatDate(null)).toBe('');
    expect(formatValue('yesno', true)).toBe('Yes');
    expect(formatPhone('5125550142')).toBe('(512) 555-0142');
  });

  it('a number to call reads as a phone and dials in the international form; a fax or a foreign number is no link', () => {
    expect(formatValue('tel', '5125550142')).toBe('(512) 555-0142');
    expect(callHref('tel', '(512) 555-0142')).toBe('tel:+15125550142');
    expect(callHref('tel', '1-512-555-0142')).toBe('tel:+15125550142');
    expect(callHref('phone', '5125550142')).toBeUndefined();
    expect(callHref('tel', '+44 20 7946 0958')).toBeUndefined();
    expect(callHref('tel', null)).toBeUndefined();
  });
});

describe("a time by the office's clock (decision 0258)", () => {
  // 21:00 UTC on 5 December is 3 PM in Chicago (CST), 4 PM in New York, 11 AM in Honolulu; in July Chicago is on CDT.
  const at = '2026-12-05T21:00:00.000Z';

  it('shows the wall time of the office time zone, named, whatever the viewer’s own clock', () => {
    expect(formatDateTime(at, 'CT')).toBe('12/05/2026 03:00 PM CST');
    expect(formatDateTime(at, 'ET')).toBe('12/05/2026 04:00 PM EST');
    expect(formatDateTime(at, 'HT')).toBe('12/05/2026 11:00 AM HST');
    expect(formatDateTime('2026-07-05T21:00:00.000Z', 'CT')).toBe('07/05/2026 04:00 PM CDT');
  });

  it('takes the zone from the context a format names, in fields and texts alike', () => {
    const context = { data: { expiresAtUtc: at, timeZone: 'PT' } };
    expect(formatValue('datetime:data.timeZone', at, (path) => (path === 'data.timeZone' ? 'PT' : undefined))).toBe('12/05/2026 01:00 PM PST');
    expect(fillTemplate('Valid until {data.expiresAtUtc|datetime:data.timeZone}.', context)).toBe('Valid until 12/05/2026 01:00 PM PST.');
  });

  it('falls back to the viewer’s clock, unnamed, without a known zone', () => {
    expect(formatDateTime(at, 'Mars')).toBe(formatDateTime(at));
    expect(formatDateTime(at)).not.toMatch(/[A-Z]ST$/);
  });
});

describe('input masks', () => {
  it('formats digits into the phone mask as far as they go', () => {
    expect(applyMask('(###) ###-####', '5125550142')).toBe('(512) 555-0142');
    expect(applyMask('(###) ###-####', '51255')).toBe('(512) 55');
    expect(applyMask('(###) ###-####', '(512) 555-01429999')).toBe('(512) 555-0142');
    expect(applyMask('##/##/####', '12252030')).toBe('12/25/2030');
  });

  it("treats the placeholder '__/__/____' and digit-less text as empty", () => {
    expect(placeholderOf('##/##/####')).toBe('__/__/____');
    expect(isEmptyMasked('##/##/####', '__/__/____')).toBe(true);
    expect(isEmptyMasked('##/##/####', '')).toBe(true);
    expect(isEmptyMasked('##/##/####', '12/2')).toBe(false);
  });

  it('reads and shows currency input', () => {
    expect(parseCurrency('1,234.5')).toBe(1234.5);
    expect(parseCurrency('$750')).toBe(750);
    expect(parseCurrency('')).toBeUndefined();
    expect(currencyText(40000)).toBe('40,000');
    expect(currencyText(12.5)).toBe('12.5');
  });
});

describe('words for enumeration values', () => {
  registerLabels('label:TestStatus', { OnHold: 'On hold', WatchList: 'Watch list' });
  registerLabels('config:BusinessTypes', { LLC: 'Limited Liability Company' });

  it('show a value in words through label:<Enumeration>, in a field and in a text', () => {
    expect(formatValue('label:TestStatus', 'OnHold')).toBe('On hold');
    expect(fillTemplate('The office is {data.status|label:TestStatus}.', { data: { status: 'WatchList' } })).toBe('The office is Watch list.');
    expect(formatValue('label:TestStatus', null)).toBe('');
    expect(fillTemplate('{data.type|config:BusinessTypes}', { data: { type: 'LLC' } })).toBe('Limited Liability Company');
  });

  it('show a value the table does not know as it is, rather than nothing', () => {
    expect(formatValue('label:TestStatus', 'Archived')).toBe('Archived');
    expect(formatValue('label:NotLoaded', 'OnHold')).toBe('OnHold');
  });

  it('find every enumeration a descriptor names, in formats and in text placeholders', () => {
    const names = labelNamesIn({ columns: [{ format: 'label:Stage' }, { format: 'currency' }], title: 'As {session.role|label:OfficeRole} of {data.x|date}' });
    expect([...names].sort()).toEqual(['label:OfficeRole', 'label:Stage']);
  });
});

describe('a time with how long ago or ahead it is', () => {
  const at = '2026-12-05T21:00:00.000Z';
  const t = Date.parse(at);
  it('says minutes, hours or days, ago or ahead, after the time itself', () => {
    const shown = formatDateTime(at);
    expect(formatRelative(at, t + 7 * 60_000)).toBe(`${shown} (7 minutes ago)`);
    expect(formatRelative(at, t - 71 * 3_600_000 - 59 * 60_000)).toBe(`${shown} (in 71 hours)`);
    expect(formatRelative(at, t + 3 * 86_400_000)).toBe(`${shown} (3 days ago)`);
    expect(formatRelative(at, t + 20_000)).toBe(`${shown} (this minute)`);
    expect(formatRelative(null)).toBe('');
  });
});
