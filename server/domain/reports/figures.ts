import { sql, type SQL } from 'drizzle-orm';
import type { components } from '../../../codegen/generated/api.ts';
import type { Db } from '../../db/index.ts';
import { buckets, usDay, type ReportPeriod } from './period.ts';
import { inline, type Bind } from '../search.ts';

type Schemas = components['schemas'];
type Report = Schemas['Report'];
type FunnelStep = Schemas['FunnelStep'];

/** Whose applications a report counts: one location or all, one staff member's, those one lender was asked about. */
export interface ReportScope {
  /** The locations counted; every office when none are given. */
  officeIds?: readonly number[];
  userId?: string;
  lenderId?: number;
}

/** The funnel's steps in order; an application counts at its furthest step and every step before it. */
export const FUNNEL_STEPS: readonly FunnelStep[] = ['started', 'opened', 'prequalified', 'offers', 'selected', 'signed', 'funded'];

/** Stages an application reaches once the borrower signed (the events say 'signed' on entering ReadyToFinalize). */
const SIGNED_STAGES = sql.raw(`('ReadyToFinalize','Finalized','SubmittedForFunding','Funded','Refund')`);

/**
 * How far an application got, as the number of its furthest step (1 = started … 7 = funded), read from the record as
 * it is now: each step implies the ones before it, so the funnel never grows downwards whatever path an application took
 * (one started at the desk is opened; a patient who began on the office's page opened it). With a lender, the steps from
 * 'offers' on are that lender's: its approval, its offer chosen, signed and funded with it. `a` names the applications
 * table in the statement: the reports alias it, the lists do not.
 */
export function furthestStep(lenderId: number | undefined, a: SQL = sql.raw('a'), bind: Bind = inline): SQL {
  const lender = lenderId === undefined ? undefined : bind('reachedLenderId', lenderId);
  const theLender = lender === undefined ? sql`true` : sql`${a}.lender_id = ${lender}`;
  // The application's own count of answers (kept by the database, migration 0016), or that one lender's answer.
  const approved = lender === undefined ? sql`${a}.lenders_approved > 0` : sql`exists (select 1 from application_lenders al where al.app_id = ${a}.id and al.lender_id = ${lender} and al.status = 'Approved')`;
  const asked = lender === undefined ? sql`${a}.lenders_asked > 0` : sql`exists (select 1 from application_lenders al where al.app_id = ${a}.id and al.lender_id = ${lender})`;
  return sql`case
    when ${a}.funded_at is not null and ${theLender} then 7
    when ${a}.stage in ${SIGNED_STAGES} and ${theLender} then 6
    when ${a}.lender_id is not null and ${theLender} then 5
    when ${approved} then 4
    when ${asked} then 3
    when ${a}.in_office_apply or ${a}.created_by is null
      or exists (select 1 from events e where e.app_id = ${a}.id and e.type = 'application.link_opened') then 2
    else 1 end`;
}

/** The applications one lender was asked about. */
export const askedLender = (lenderId: number, a: SQL = sql.raw('a'), bind: Bind = inline): SQL =>
  sql`exists (select 1 from application_lenders al where al.app_id = ${a}.id and al.lender_id = ${bind('askedLenderId', lenderId)})`;

/** The scope's locations in `column`: one by equality, several as one array parameter. */
const inOffices = (column: SQL, { officeIds }: ReportScope): SQL | undefined =>
  officeIds === undefined ? undefined : officeIds.length === 1 ? sql`${column} = ${officeIds[0]}` : sql`${column} = any(${`{${officeIds.join(',')}}`}::int[])`;

/** The applications a report counts: started in the period, in scope. */
function startedIn(period: ReportPeriod, scope: ReportScope): SQL {
  return sql.join(
    [
      sql`a.created_at >= ${period.from.toISOString()}::timestamptz and a.created_at < ${period.until.toISOString()}::timestamptz`,
      inOffices(sql`a.office_id`, scope),
      scope.userId === undefined ? undefined : sql`a.created_by = ${scope.userId}`,
      scope.lenderId === undefined ? undefined : askedLender(scope.lenderId),
    ].filter((part): part is SQL => part !== undefined),
    sql` and `,
  );
}

/**
 * The lenders' answers about the applications a report counts, read from the answers alone: each keeps its application's
 * day, office and author (migration 0023, decision 0282), so a report over every office joins no application.
 */
function answeredIn(period: ReportPeriod, scope: ReportScope): SQL {
  return sql.join(
    [
      sql`al.app_created_at >= ${period.from.toISOString()}::timestamptz and al.app_created_at < ${period.until.toISOString()}::timestamptz`,
      inOffices(sql`al.app_office_id`, scope),
      scope.userId === undefined ? undefined : sql`al.app_created_by = ${scope.userId}`,
      scope.lenderId === undefined ? undefined : sql`al.lender_id = ${scope.lenderId}`,
    ].filter((part): part is SQL => part !== undefined),
    sql` and `,
  );
}

/** A share in percent with one decimal; none of nothing. */
const share = (part: number, whole: number) => (whole === 0 ? null : Math.round((part * 1000) / whole) / 10);

const rowsOf = async <R>(db: Db, query: SQL) => (await db.execute<Record<string, unknown>>(query)).rows as R[];
const n = (value: unknown) => (value === null || value === undefined ? 0 : Number(value));

export async function funnel(db: Db, period: ReportPeriod, scope: ReportScope): Promise<Report['funnel']> {
  const rows = await rowsOf<{ step: number; count: unknown }>(
    db,
    sql`select ${furthestStep(scope.lenderId)} as step, count(*) as count from applications a where ${startedIn(period, scope)} group by 1`,
  );
  const reached = FUNNEL_STEPS.map((_, index) => rows.filter((row) => n(row.step) >= index + 1).reduce((sum, row) => sum + n(row.count), 0));
  return FUNNEL_STEPS.map((step, index) => ({
    step,
    count: reached[index]!,
    shareOfPrevious: index === 0 ? null : share(reached[index]!, reached[index - 1]!),
    shareOfStarted: index === 0 ? null : share(reached[index]!, reached[0]!),
  }));
}

export interface Approvals {
  approval: Report['approval'];
  lenders: Report['lenders'];
  places: Report['places'];
}

/**
 * Approvals by lender and by place in the office's order: the multi-lender waterfall's worth in the office's own data —
 * how many patients any lender approved against how many the first lender alone would have.
 */
export async function approvals(db: Db, period: ReportPeriod, scope: ReportScope): Promise<Approvals> {
  // The answers' places, best offers and each application's count are kept by the database (migration 0016).
  const [places, rows] = await Promise.all([
    rowsOf<{ place: unknown; count: unknown }>(
      db,
      sql`select a.first_approved_place as place, count(*) as count from applications a
        where ${startedIn(period, scope)} and a.lenders_asked > 0 group by 1 order by 1 nulls last`,
    ),
    rowsOf<{ lender_id: unknown; count: unknown; approved: unknown; only: unknown; amount: unknown; apr: unknown }>(
      db,
      sql`select al.lender_id, count(*) as count, count(*) filter (where al.status = 'Approved') as approved,
          count(*) filter (where al.approved_alone) as only,
          round(avg(al.best_amount) filter (where al.status = 'Approved')) as amount,
          round(avg(al.best_apr) filter (where al.status = 'Approved'), 2) as apr
        from application_lenders al where ${answeredIn(period, scope)}
        group by al.lender_id`,
    ),
  ]);
  const names = new Map((await rowsOf<{ id: unknown; name: string }>(db, sql`select id, name from lenders`)).map((l) => [n(l.id), l.name]));
  const lenders = rows.map((row) => ({ ...row, name: names.get(n(row.lender_id)) ?? '' })).sort((a, b) => a.name.localeCompare(b.name));
  const patients = places.reduce((sum, row) => sum + n(row.count), 0);
  const approved = places.filter((row) => row.place !== null).reduce((sum, row) => sum + n(row.count), 0);
  const approvedByFirst = n(places.find((row) => n(row.place) === 1)?.count);
  return {
    approval: { patients, approved, approvedByFirst, approvedLater: approved - approvedByFirst, shareApproved: share(approved, patients), shareApprovedByFirst: share(approvedByFirst, patients) },
    places: places.map((row) => ({ place: row.place === null ? null : n(row.place), count: n(row.count), share: share(n(row.count), patients) })),
    lenders: lenders.map((row) => ({
      lenderId: n(row.lender_id),
      lenderName: row.name,
      asked: n(row.count),
      approved: n(row.approved),
      approvalRate: share(n(row.approved), n(row.count)),
      approvedOnly: n(row.only),
      averageApprovedAmount: row.amount === null ? null : n(row.amount) / 100,
      averageApr: row.apr === null ? null : n(row.apr),
    })),
  };
}

export interface Volume {
  volume: Report['volume'];
  totals: Report['totals'];
}

/**
 * What was funded in the period, by week or month of its funding — gross, the lenders' discount (the selected offer's
 * rate on the funded amount, as the funded lists reckon it: funding/rows.ts) and net — and what was asked back, by the
 * refund's day.
 */
export async function volume(db: Db, period: ReportPeriod, scope: ReportScope): Promise<Volume> {
  const unit = sql.raw(`'${period.interval}'`);
  const where = (at: SQL) =>
    sql.join(
      [
        sql`${at} >= ${period.from.toISOString()}::timestamptz and ${at} < ${period.until.toISOString()}::timestamptz`,
        inOffices(sql`a.office_id`, scope),
        scope.userId === undefined ? undefined : sql`a.created_by = ${scope.userId}`,
        scope.lenderId === undefined ? undefined : sql`a.lender_id = ${scope.lenderId}`,
      ].filter((part): part is SQL => part !== undefined),
      sql` and `,
    );
  const [funded, refunded] = await Promise.all([
    rowsOf<{ bucket: string; funded: unknown; financed: unknown; fees: unknown }>(
      db,
      sql`select to_char(date_trunc(${unit}, a.funded_at at time zone 'UTC'), 'YYYY-MM-DD') as bucket, count(*) as funded, sum(a.funded_amount) as financed,
          sum(round(a.funded_amount * a.discount_rate / 100)) as fees
        from applications a where a.funded_at is not null and ${where(sql`a.funded_at`)} group by 1`,
    ),
    rowsOf<{ bucket: string; refunds: unknown }>(
      db,
      sql`select to_char(date_trunc(${unit}, r.created_at at time zone 'UTC'), 'YYYY-MM-DD') as bucket, sum(r.amount) as refunds
        from refunds r join applications a on a.id = r.app_id where r.status <> 'Cancelled' and ${where(sql`r.created_at`)} group by 1`,
    ),
  ]);
  const key = (bucket: unknown) => usDay(new Date(`${String(bucket)}T00:00:00Z`));
  const fundedBy = new Map(funded.map((row) => [key(row.bucket), row]));
  const refundsBy = new Map(refunded.map((row) => [key(row.bucket), n(row.refunds)]));
  const volume = buckets(period).map((start) => {
    const at = usDay(start);
    const row = fundedBy.get(at);
    const financed = n(row?.financed);
    const fees = n(row?.fees);
    return { periodStart: at, funded: n(row?.funded), financed: financed / 100, discountFees: fees / 100, net: (financed - fees) / 100, refunds: (refundsBy.get(at) ?? 0) / 100 };
  });
  const cents = (pick: (row: (typeof funded)[number]) => unknown) => funded.reduce((sum, row) => sum + n(pick(row)), 0);
  const financed = cents((row) => row.financed);
  const fees = cents((row) => row.fees);
  return {
    volume,
    totals: {
      funded: cents((row) => row.funded),
      financed: financed / 100,
      discountFees: fees / 100,
      net: (financed - fees) / 100,
      refunds: refunded.reduce((sum, row) => sum + n(row.refunds), 0) / 100,
    },
  };
}
