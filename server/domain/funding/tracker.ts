import { and, asc, desc, eq, isNotNull, isNull, ne, sql, type SQL } from 'drizzle-orm';
import type { components } from '../../../codegen/generated/api.ts';
import type { Db } from '../../db/index.ts';
import { applications, offices } from '../../db/schema.ts';
import { applicantSearch } from '../applications/rows.ts';
import { DEFAULT_PAGE_SIZE, paged, totalRows, type Page } from '../paging.ts';
import { toDollars, toUsDate } from '../values.ts';
import { discountCents, CSV_ROW_LIMIT } from './rows.ts';
import { bankDay } from '../applications/funding-steps.ts';

type Schemas = components['schemas'];
type Step = Schemas['FundingStep'];
type ListQuery = Schemas['ListQuery'];

/**
 * The funding tracker (issue 40, decision 0278): every loan an office finalized, at the furthest step its money
 * reached. The step is read from the days the loan keeps (funding_requested_at, funding_initiated_at, funded_at,
 * reconciled_at), so no second record of it can disagree; a cancelled loan leaves the tracker.
 */
export const STEPS: readonly Step[] = ['Requested', 'Initiated', 'Deposited', 'Reconciled'];

const stepOf = sql<Step>`case when ${applications.reconciledAt} is not null then 'Reconciled'
  when ${applications.fundedAt} is not null then 'Deposited'
  when ${applications.fundingInitiatedAt} is not null then 'Initiated' else 'Requested' end`;

const STEP_CONDITION: Record<Step, SQL | undefined> = {
  Requested: and(isNull(applications.fundedAt), isNull(applications.fundingInitiatedAt)),
  Initiated: and(isNull(applications.fundedAt), isNotNull(applications.fundingInitiatedAt)),
  Deposited: and(isNotNull(applications.fundedAt), isNull(applications.reconciledAt)),
  Reconciled: isNotNull(applications.reconciledAt),
};

const grossCents = sql<number>`coalesce(${applications.fundedAmount}, ${applications.amount})`.mapWith(Number);

/** Not deposited, and its expected day is before the banks' today. */
const lateOn = (today: string) => sql<boolean>`(${applications.fundedAt} is null and ${applications.expectedDepositOn} < ${today}::date)`;

const inTracker = (officeId: number | undefined) =>
  and(
    isNotNull(applications.fundingRequestedAt),
    ne(applications.stage, 'Cancelled'),
    officeId === undefined ? undefined : eq(applications.officeId, officeId),
  );

const SORTABLE = {
  id: applications.id,
  lastName: applications.lastName,
  officeName: offices.name,
  lenderName: applications.lenderName,
  amount: applications.amount,
  requestedDate: applications.fundingRequestedAt,
  expectedDepositDate: applications.expectedDepositOn,
  fundedDate: applications.fundedAt,
} as const;

function conditions(query: ListQuery): SQL | undefined {
  return and(
    inTracker(query.officeId),
    query.fundingStep ? STEP_CONDITION[query.fundingStep] : undefined,
    query.lenderId === undefined ? undefined : eq(applications.lenderId, query.lenderId),
    applicantSearch(query.search),
  );
}

function ordering(query: ListQuery) {
  const column = SORTABLE[query.sortBy as keyof typeof SORTABLE];
  if (!column) return [desc(applications.fundingRequestedAt), desc(applications.id)];
  const direction = query.sortDesc ? desc : asc;
  return [direction(column), direction(applications.id)];
}

function selectRows<E extends Record<string, SQL.Aliased>>(db: Db, query: ListQuery, today: string, extra = {} as E) {
  return db
    .select({
      id: applications.id,
      officeId: applications.officeId,
      officeName: offices.name,
      firstName: applications.firstName,
      lastName: applications.lastName,
      lenderName: applications.lenderName,
      contractId: applications.contractId,
      step: stepOf,
      requestedAt: applications.fundingRequestedAt,
      initiatedAt: applications.fundingInitiatedAt,
      expectedDepositOn: applications.expectedDepositOn,
      fundedAt: applications.fundedAt,
      reconciledAt: applications.reconciledAt,
      late: lateOn(today),
      gross: grossCents,
      discount: discountCents,
      refunded: applications.refundedAmount,
      ...extra,
    })
    .from(applications)
    .innerJoin(offices, eq(offices.id, applications.officeId))
    .where(conditions(query))
    .orderBy(...ordering(query));
}

export type TrackerRecord = Awaited<ReturnType<typeof selectRows<Record<never, never>>>>[number];

const dayOf = (at: Date | null) => (at ? toUsDate(bankDay(at)) : null);

export function toTrackerRow(row: TrackerRecord): Schemas['FundingTrackerRow'] {
  return {
    id: row.id,
    officeId: row.officeId,
    officeName: row.officeName,
    firstName: row.firstName,
    lastName: row.lastName,
    lenderName: row.lenderName,
    contractId: row.contractId,
    step: row.step,
    requestedDate: dayOf(row.requestedAt),
    initiatedDate: dayOf(row.initiatedAt),
    expectedDepositDate: toUsDate(row.expectedDepositOn),
    // The funded day is a calendar day already (midnight UTC when an admin names it): read as written.
    depositedDate: row.fundedAt ? toUsDate(row.fundedAt.toISOString()) : null,
    reconciledDate: dayOf(row.reconciledAt),
    late: row.late,
    grossAmount: toDollars(row.gross),
    discountAmount: toDollars(row.discount),
    netAmount: toDollars(row.discount === null ? null : row.gross - row.discount),
    refundedAmount: toDollars(row.refunded),
  };
}

export async function listTracker(db: Db, query: ListQuery): Promise<Page<Schemas['FundingTrackerRow']>> {
  const today = bankDay(new Date());
  return paged(
    query,
    (limit, offset) => selectRows(db, query, today, { total: totalRows() }).limit(limit ?? DEFAULT_PAGE_SIZE).offset(offset),
    () => db.$count(applications, conditions(query)),
    toTrackerRow,
  );
}

/** Every row of the tracker with the query's filters (the CSV download), in its order. */
export async function allTracker(db: Db, query: ListQuery): Promise<TrackerRecord[]> {
  return selectRows(db, query, bankDay(new Date())).limit(CSV_ROW_LIMIT);
}

const count = (condition?: SQL) => sql<number>`count(*) filter (where ${condition ?? sql`true`})`.mapWith(Number);
const cents = (value: SQL) => sql<number>`coalesce(sum(${value}), 0)`.mapWith(Number);

/** Funding_GetSummary's figures: each step's totals and each lender's loans by step. */
export async function fundingFigures(db: Db, officeId: number | undefined) {
  const today = bankDay(new Date());
  const where = inTracker(officeId);
  const [byStep, byLender] = await Promise.all([
    db
      .select({
        step: stepOf,
        count: count(),
        gross: cents(grossCents),
        discount: cents(discountCents),
        refunded: cents(sql`${applications.refundedAmount}`),
        late: count(lateOn(today)),
        next: sql<string | null>`min(${applications.expectedDepositOn}) filter (where ${applications.fundedAt} is null and ${applications.expectedDepositOn} >= ${today}::date)`,
      })
      .from(applications)
      .where(where)
      .groupBy(stepOf),
    db
      .select({
        lenderName: sql<string>`coalesce(${applications.lenderName}, '')`,
        requested: count(STEP_CONDITION.Requested),
        initiated: count(STEP_CONDITION.Initiated),
        deposited: count(STEP_CONDITION.Deposited),
        reconciled: count(STEP_CONDITION.Reconciled),
        onItsWay: cents(sql`case when ${applications.fundedAt} is null then ${grossCents} - coalesce(${discountCents}, 0) end`),
      })
      .from(applications)
      .where(where)
      .groupBy(applications.lenderName)
      .orderBy(asc(applications.lenderName)),
  ]);
  const found = new Map(byStep.map((row) => [row.step, row]));
  return {
    today: toUsDate(today)!,
    steps: STEPS.map((step) => {
      const row = found.get(step);
      const gross = row?.gross ?? 0;
      const discount = row?.discount ?? 0;
      return {
        step,
        count: row?.count ?? 0,
        grossAmount: toDollars(gross),
        discountAmount: toDollars(discount),
        netAmount: toDollars(gross - discount),
        refundedAmount: toDollars(row?.refunded ?? 0),
        late: row?.late ?? 0,
        nextExpectedDate: toUsDate(row?.next ?? null),
      };
    }),
    lenders: byLender.map((row) => ({
      lenderName: row.lenderName,
      requested: row.requested,
      initiated: row.initiated,
      deposited: row.deposited,
      reconciled: row.reconciled,
      netOnItsWay: toDollars(row.onItsWay),
    })),
  };
}

/** The loans of an office deposited from a day on (the daily report's news), and what the office received. */
export async function depositedSince(db: Db, officeId: number, day: string): Promise<{ count: number; netAmount: number }> {
  const [row] = await db
    .select({ count: count(), net: cents(sql`${grossCents} - coalesce(${discountCents}, 0)`) })
    .from(applications)
    .where(and(inTracker(officeId), sql`${applications.fundedAt} >= ${day}::date`));
  return { count: row?.count ?? 0, netAmount: toDollars(row?.net ?? 0) };
}
