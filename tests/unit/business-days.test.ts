import { describe, expect, it } from 'vitest';
import { addBusinessDays, isBusinessDay, previousBusinessDay } from '../../core/business-days.ts';

describe('business days (ACH: weekdays that are not Federal Reserve holidays)', () => {
  it('knows the Fed holidays of 2026, moving a Sunday holiday to Monday and leaving a Saturday one', () => {
    const holidays = ['2026-01-01', '2026-01-19', '2026-02-16', '2026-05-25', '2026-06-19', '2026-09-07', '2026-10-12', '2026-11-11', '2026-11-26', '2026-12-25'];
    for (const day of holidays) expect(isBusinessDay(day), day).toBe(false);
    // July 4th 2026 is a Saturday: the Fed does not move it, so Friday the 3rd is a business day.
    expect(isBusinessDay('2026-07-03')).toBe(true);
    // New Year's Day 2023 was a Sunday: kept on Monday the 2nd.
    expect(isBusinessDay('2023-01-02')).toBe(false);
    expect(isBusinessDay('2026-11-27')).toBe(true);
    expect(isBusinessDay('2026-11-28')).toBe(false);
  });

  it('counts over weekends and holidays', () => {
    expect(addBusinessDays('2026-11-24', 2)).toBe('2026-11-27'); // Tuesday + 2 skips Thanksgiving
    expect(addBusinessDays('2026-05-22', 1)).toBe('2026-05-26'); // Friday before Memorial Day
    expect(addBusinessDays('2026-11-28', 2)).toBe('2026-12-01'); // from a Saturday: Monday is the first
    expect(addBusinessDays('2026-11-28', 0)).toBe('2026-11-30');
    expect(addBusinessDays('2026-12-01', 0)).toBe('2026-12-01');
    expect(previousBusinessDay('2026-11-30')).toBe('2026-11-27'); // Monday: the Friday before
    expect(previousBusinessDay('2026-11-27')).toBe('2026-11-25'); // the day after Thanksgiving
  });
});
