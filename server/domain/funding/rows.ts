import { and, asc, desc, eq, inArray, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import type { components } from '../../../codegen/generated/api.ts';
import type { Db } from '../../db/index.ts';
import { applications, offices } from '../../db/schema.ts';
import { applicantSearch, SORTABLE_COLUMNS } from '../applications/rows.ts';
import { FUNDED_STAGES } from '../applications/status.ts';
import { DEFAULT_PAGE_SIZE, paged, totalRows, type Page } from '../paging.ts';
import { withinDates } from '../search.ts';
import { toDollars, toUsDate, toUtc } from '../values.ts';

type Schemas = components['schemas'];
export type FundedAppRow = Schemas['FundedAppRow'];
type ListQuery = Schemas['ListQuery'];

/** Which funded list: what was funded (office Funded Apps, admin Funded Apps) or what awaits funding (Office Funding). */
export interface FundedScope {
  officeId?: number;
  /** The Office Funding view: finalized applications submitted for funding, not yet funded. */
  forFunding?: boolean;
}

/** The most rows one CSV download holds; an office's funded history is far below it. */
export const CSV_ROW_LIMIT = 100_000;

/**
 * The discount the lender keeps, in cents: the selected offer's discount rate (kept on the application by the
 * database, migration 0016) applied to the funded amount (or, before funding, to the loan amount), computed in
 * PostgreSQL numeric so that no binary floating point touches money. Null when no offer with a rate was selected.
 */
export const discountCents = sql<number | null>`round(coalesce(${applications.fundedAmount}, ${applications.amount}) * ${applications.discountRate} / 100)::bigint`.mapWith(
  (value) => (value === null ? null : Number(value)),
);

export const fundedColumns = {
  id: applications.id,
  officeId: applications.officeId,
  officeName: offices.name,
  firstName: applications.firstName,
  lastName: applications.lastName,
  lenderCode: applications.lenderCode,
  lenderName: applications.lenderName,
  contractId: applications.contractId,
  amount: applications.amount,
  fundedAmount: applications.fundedAmount,
  discountAmount: discountCents,
  refundedAmount: applications.refundedAmount,
  fundedAt: applications.fundedAt,
  fundingStatus: applications.fundingStatus,
  stage: applications.stage,
  contractSubStatus: applications.contractSubStatus,
  createdAt: applications.createdAt,
  updatedAt: applications.updatedAt,
};

/** A row of fundedColumns, as drizzle reads it (the select's own type, not a copy). */
export type FundedRecord = Awaited<ReturnType<typeof selectRows<Record<never, never>>>>[number];

/** What the office receives, in cents: the funded (or, before funding, the loan) amount less the discount. */
export function netCents(row: Pick<FundedRecord, 'fundedAmount' | 'amount' | 'discountAmount'>): number | null {
  return row.discountAmount === null ? null : (row.fundedAmount ?? row.amount) - row.discountAmount;
}

export const fundedDate = (at: Date | null) => (at ? toUsDate(at.toISOString()) : null);

export function toFundedRow(row: FundedRecord): FundedAppRow {
  return {
    id: row.id,
    officeId: row.officeId,
    officeName: row.officeName,
    firstName: row.firstName,
    lastName: row.lastName,
    lenderCode: row.lenderCode,
    lenderName: row.lenderName,
    contractId: row.contractId,
    amount: toDollars(row.amount),
    fundedAmount: toDollars(row.fundedAmount),
    discountAmount: toDollars(row.discountAmount),
    netFundedAmount: toDollars(netCents(row)),
    totalRefundedAmount: toDollars(row.refundedAmount),
    fundedDate: fundedDate(row.fundedAt),
    fundingStatus: row.fundingStatus,
    stage: row.stage,
    contractSubStatus: row.contractSubStatus,
    createdAtUtc: toUtc(row.createdAt),
    updatedAtUtc: toUtc(row.updatedAt),
  };
}

function conditions(scope: FundedScope, query: ListQuery): SQL | undefined {
  const stages = query.stages?.length ? FUNDED_STAGES.filter((s) => query.stages!.includes(s)) : undefined;
  return and(
    scope.officeId === undefined ? undefined : eq(applications.officeId, scope.officeId),
    scope.forFunding
      ? and(eq(applications.stage, 'SubmittedForFunding'), isNull(applications.fundedAt))
      : // The partial indexes on funded_at serve exactly this condition.
        and(isNotNull(applications.fundedAt), stages ? inArray(applications.stage, [...stages]) : undefined),
    query.fundingStatus ? eq(applications.fundingStatus, query.fundingStatus) : undefined,
    applicantSearch(query.search),
    // Funded lists are filtered by the day of funding; the funding queue by the day of application.
    withinDates(scope.forFunding ? applications.createdAt : applications.fundedAt, query),
  );
}

/**
 * The order of a funded list: the column asked for, else newest funding first — or, in the Office
 * Funding queue, the oldest application first (first in, first funded).
 */
function ordering(scope: FundedScope, query: ListQuery) {
  const column = SORTABLE_COLUMNS[query.sortBy as keyof typeof SORTABLE_COLUMNS];
  if (column) {
    const direction = query.sortDesc ? desc : asc;
    return [direction(column), direction(applications.id)];
  }
  return scope.forFunding ? [asc(applications.createdAt), asc(applications.id)] : [desc(applications.fundedAt), desc(applications.id)];
}

/** The funded rows in the list's order; `extra` adds columns (a page's count). */
function selectRows<E extends Record<string, SQL.Aliased>>(db: Db, scope: FundedScope, query: ListQuery, extra = {} as E) {
  return db
    .select({ ...fundedColumns, ...extra })
    .from(applications)
    .innerJoin(offices, eq(offices.id, applications.officeId))
    .where(conditions(scope, query))
    .orderBy(...ordering(scope, query));
}

/** One page of a funded list and the count of all its rows. */
export async function listFunded(db: Db, scope: FundedScope, query: ListQuery): Promise<Page<FundedAppRow>> {
  const where = conditions(scope, query);
  return paged(
    query,
    (limit, offset) => selectRows(db, scope, query, { total: totalRows() }).limit(limit ?? DEFAULT_PAGE_SIZE).offset(offset),
    () => db.$count(applications, where),
    (row) => toFundedRow(row),
  );
}

/** Every row of a funded list (the CSV download), in the list's order. */
export async function allFunded(db: Db, scope: FundedScope, query: ListQuery): Promise<FundedRecord[]> {
  return selectRows(db, scope, query).limit(CSV_ROW_LIMIT);
}
