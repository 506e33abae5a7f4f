import type { components } from '../../../codegen/generated/api.ts';
import { HttpProblem } from '../../http/problem.ts';
import { fromUsDate, toUsDate } from '../values.ts';

type Schemas = components['schemas'];
export type ReportQuery = Schemas['ReportQuery'];

/** A report's days, both included, as UTC instants [from, until): the lists filter their dates by the same days. */
export interface ReportPeriod {
  from: Date;
  until: Date;
  interval: Schemas['ReportInterval'];
}

const DAY_MS = 86_400_000;
/** Weeks read well up to about a quarter; a longer period is shown by month unless asked otherwise. */
const WEEKS_UP_TO_DAYS = 93;
/** Weekly bars over ten years are still fewer than the report's 800 rows. */
const LONGEST_DAYS = 3_660;

const day = (year: number, month: number, date: number) => new Date(Date.UTC(year, month, date));

/** The first and last day of a named period, counted from `today` (UTC). */
function namedPeriod(period: Schemas['ReportPeriod'], today: Date): [Date, Date] {
  const year = today.getUTCFullYear();
  const month = today.getUTCMonth();
  const date = today.getUTCDate();
  switch (period) {
    case 'thisMonth':
      return [day(year, month, 1), today];
    case 'lastMonth':
      return [day(year, month - 1, 1), day(year, month, 0)];
    case 'last3Months':
      return [day(year, month - 3, date + 1), today];
    case 'last12Months':
      return [day(year - 1, month, date + 1), today];
    case 'thisYear':
      return [day(year, 0, 1), today];
    case 'lastYear':
      return [day(year - 1, 0, 1), day(year - 1, 11, 31)];
  }
}

/**
 * The period a query asks for: its own days where it names them (either end alone keeps the named period's other end),
 * else the named period, else the last three months. A backwards or over-long period is the person's mistake, said at
 * the field.
 */
export function reportPeriod(query: ReportQuery, now = new Date()): ReportPeriod {
  const today = day(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const [namedFrom, namedTo] = namedPeriod(query.period ?? 'last3Months', today);
  const from = query.fromDate ? new Date(`${fromUsDate(query.fromDate)}T00:00:00Z`) : namedFrom;
  const to = query.toDate ? new Date(`${fromUsDate(query.toDate)}T00:00:00Z`) : namedTo;
  if (Number.isNaN(from.getTime())) throw HttpProblem.field('fromDate', 'This is not a date.');
  if (Number.isNaN(to.getTime())) throw HttpProblem.field('toDate', 'This is not a date.');
  if (to < from) throw HttpProblem.field('toDate', "'To' must be on or after 'From'.");
  const days = (to.getTime() - from.getTime()) / DAY_MS + 1;
  if (days > LONGEST_DAYS) throw HttpProblem.field('fromDate', 'A report covers at most ten years.');
  return { from, until: new Date(to.getTime() + DAY_MS), interval: query.interval ?? (days <= WEEKS_UP_TO_DAYS ? 'week' : 'month') };
}

/** MM/dd/yyyy of a UTC day. */
export const usDay = (at: Date) => toUsDate(at.toISOString())!;

/** The start of every week (Monday) or month the period touches, in order: the series has a bar for each, even an empty one. */
export function buckets({ from, until, interval }: ReportPeriod): Date[] {
  const first =
    interval === 'month'
      ? day(from.getUTCFullYear(), from.getUTCMonth(), 1)
      : new Date(from.getTime() - ((from.getUTCDay() + 6) % 7) * DAY_MS);
  const all: Date[] = [];
  for (let at = first; at < until; at = interval === 'month' ? day(at.getUTCFullYear(), at.getUTCMonth() + 1, 1) : new Date(at.getTime() + 7 * DAY_MS)) {
    all.push(at);
  }
  return all;
}
