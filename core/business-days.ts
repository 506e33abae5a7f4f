/**
 * Days on which money moves by ACH: weekdays that are not Federal Reserve holidays. A deposit promised "in two business
 * days" on a Friday before Memorial Day arrives on Wednesday, and an office that is told Tuesday calls us on Tuesday.
 * Days are ISO calendar days ('2026-11-27'), without a time zone: the banks' day, not an instant.
 */

/** The day of the month of the `nth` `weekday` (0 = Sunday) of a month; a negative `nth` counts from the month's end. */
function nthWeekday(year: number, month: number, weekday: number, nth: number): number {
  if (nth > 0) {
    const first = new Date(Date.UTC(year, month, 1)).getUTCDay();
    return 1 + ((weekday - first + 7) % 7) + (nth - 1) * 7;
  }
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const last = new Date(Date.UTC(year, month, lastDay)).getUTCDay();
  return lastDay - ((last - weekday + 7) % 7);
}

const iso = (year: number, month: number, day: number) => new Date(Date.UTC(year, month, day)).toISOString().slice(0, 10);

/**
 * The Federal Reserve's holidays of a year, as the Fed observes them: a holiday on a Sunday is kept on the Monday after;
 * one on a Saturday is not moved (the Fed is open the Friday before), so it closes nothing extra.
 */
function reserveHolidays(year: number): Set<string> {
  const fixed = [[0, 1], [5, 19], [6, 4], [10, 11], [11, 25]].map(([month, day]) => {
    const sunday = new Date(Date.UTC(year, month!, day!)).getUTCDay() === 0;
    return iso(year, month!, day! + (sunday ? 1 : 0));
  });
  const floating = [
    [0, 1, 3], // Birthday of Martin Luther King, Jr.: third Monday of January
    [1, 1, 3], // Washington's Birthday
    [4, 1, -1], // Memorial Day: last Monday of May
    [8, 1, 1], // Labor Day
    [9, 1, 2], // Columbus Day
    [10, 4, 4], // Thanksgiving Day: fourth Thursday of November
  ].map(([month, weekday, nth]) => iso(year, month!, nthWeekday(year, month!, weekday!, nth!)));
  return new Set([...fixed, ...floating]);
}

const holidaysByYear = new Map<number, Set<string>>();

/** Whether money moves on this ISO day. */
export function isBusinessDay(day: string): boolean {
  const date = new Date(`${day}T00:00:00Z`);
  const weekday = date.getUTCDay();
  if (weekday === 0 || weekday === 6) return false;
  const year = date.getUTCFullYear();
  let holidays = holidaysByYear.get(year);
  if (!holidays) holidaysByYear.set(year, (holidays = reserveHolidays(year)));
  return !holidays.has(day);
}

/** The ISO day `count` business days after `day` (a day that is not one counts from the next that is). */
export function addBusinessDays(day: string, count: number): string {
  let date = new Date(`${day}T00:00:00Z`);
  let left = count;
  while (left > 0 || !isBusinessDay(date.toISOString().slice(0, 10))) {
    date = new Date(date.getTime() + 86_400_000);
    if (isBusinessDay(date.toISOString().slice(0, 10))) left -= 1;
  }
  return date.toISOString().slice(0, 10);
}

/** The business day before `day`: what was deposited from it on is news the next morning. */
export function previousBusinessDay(day: string): string {
  let date = new Date(`${day}T00:00:00Z`);
  do date = new Date(date.getTime() - 86_400_000);
  while (!isBusinessDay(date.toISOString().slice(0, 10)));
  return date.toISOString().slice(0, 10);
}
