import { and, asc, count, desc, eq, gte, inArray, like, lt, or, sql, type SQL } from 'drizzle-orm';
import type { components } from '../../../codegen/generated/api.ts';
import type { Db } from '../../db/index.ts';
import { applications, offices } from '../../db/schema.ts';
import { fromUsDate, toDollars, toUsDate, toUtc } from '../values.ts';
import { displayFlags, statusChip, type Stage } from './status.ts';

type Schemas = components['schemas'];
export type AppRow = Schemas['AppRow'];
export type ListQuery = Schemas['ListQuery'];

export interface Page<T> {
  currentPage: number;
  nextPage: number | null;
  pageSize: number;
  rowCount: number;
  results: T[];
}

const DEFAULT_PAGE_SIZE = 25;

const SORTABLE = {
  id: applications.id,
  firstName: applications.firstName,
  lastName: applications.lastName,
  name: applications.searchName,
  email: applications.email,
  amount: applications.amount,
  approvedAmount: applications.approvedAmount,
  fundedAmount: applications.fundedAmount,
  stage: applications.stage,
  status: applications.stage,
  lenderName: applications.lenderName,
  serviceDate: applications.serviceDate,
  fundedDate: applications.fundedAt,
  createdAtUtc: applications.createdAt,
  updatedAtUtc: applications.updatedAt,
} as const;

/** LIKE treats % and _ as wildcards; a search for them means the characters themselves. */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** 'Applicant Name or ID': an id matches exactly, a name matches from the start of 'first last'. */
export function applicantSearch(search: string | undefined): SQL | undefined {
  const text = search?.trim().toLowerCase();
  if (!text) return undefined;
  const byName = like(applications.searchName, `${escapeLike(text)}%`);
  return /^\d{1,15}$/.test(text) ? or(eq(applications.id, Number(text)), byName) : byName;
}

export interface ListScope {
  officeId?: number;
  stages: readonly Stage[];
  /** Only rows that were funded (Funded Apps lists). */
  funded?: boolean;
}

function conditions(scope: ListScope, query: ListQuery): SQL | undefined {
  const stages = query.stages?.length ? scope.stages.filter((s) => query.stages!.includes(s)) : scope.stages;
  return and(
    scope.officeId === undefined ? undefined : eq(applications.officeId, scope.officeId),
    inArray(applications.stage, [...stages]),
    scope.funded ? sql`${applications.fundedAt} is not null` : undefined,
    query.fundingStatus ? eq(applications.fundingStatus, query.fundingStatus) : undefined,
    applicantSearch(query.search),
    query.fromDate ? gte(applications.createdAt, new Date(`${fromUsDate(query.fromDate)}T00:00:00Z`)) : undefined,
    query.toDate ? lt(applications.createdAt, new Date(new Date(`${fromUsDate(query.toDate)}T00:00:00Z`).getTime() + 86_400_000)) : undefined,
  );
}

const rowColumns = {
  id: applications.id,
  officeId: applications.officeId,
  officeName: offices.name,
  firstName: applications.firstName,
  lastName: applications.lastName,
  amount: applications.amount,
  approvedAmount: applications.approvedAmount,
  serviceDate: applications.serviceDate,
  stage: applications.stage,
  statusText: applications.statusText,
  contractSubStatus: applications.contractSubStatus,
  decisionStatus: applications.decisionStatus,
  lenderCode: applications.lenderCode,
  lenderName: applications.lenderName,
  referenceCode: applications.referenceCode,
  isExpired: applications.isExpired,
  isOfferMatch: applications.isOfferMatch,
  isFinalized: applications.isFinalized,
  expiration: applications.expiration,
  fundedAmount: applications.fundedAmount,
  refundedAmount: applications.refundedAmount,
  createdAt: applications.createdAt,
  updatedAt: applications.updatedAt,
};

type RowRecord = { [K in keyof typeof rowColumns]: (typeof rowColumns)[K]['_']['data'] | ((typeof rowColumns)[K]['_']['notNull'] extends true ? never : null) };

export function toAppRow(row: RowRecord): AppRow {
  return {
    id: row.id,
    officeId: row.officeId,
    officeName: row.officeName,
    firstName: row.firstName,
    lastName: row.lastName,
    amount: toDollars(row.amount),
    approvedAmount: toDollars(row.approvedAmount),
    serviceDate: toUsDate(row.serviceDate),
    stage: row.stage,
    statusChip: statusChip(row),
    statusText: row.statusText,
    contractSubStatus: row.contractSubStatus,
    decisionStatus: row.decisionStatus as AppRow['decisionStatus'],
    lenderCode: row.lenderCode,
    lenderName: row.lenderName,
    referenceCode: row.referenceCode,
    isExpired: row.isExpired,
    expirationDateUtc: toUtc(row.expiration),
    ...displayFlags(row),
    createdAtUtc: toUtc(row.createdAt),
    updatedAtUtc: toUtc(row.updatedAt),
  };
}

/** One page of application rows and the count of all pages, for the list screens. */
export async function listApplications(db: Db, scope: ListScope, query: ListQuery): Promise<Page<AppRow>> {
  const page = query.page ?? 1;
  const pageSize = query.pageSize ?? DEFAULT_PAGE_SIZE;
  const where = conditions(scope, query);
  const column = SORTABLE[query.sortBy as keyof typeof SORTABLE] ?? applications.createdAt;
  const direction = query.sortBy ? (query.sortDesc ? desc : asc) : desc;
  const [rows, [total]] = await Promise.all([
    db
      .select(rowColumns)
      .from(applications)
      .innerJoin(offices, eq(offices.id, applications.officeId))
      .where(where)
      .orderBy(direction(column), direction(applications.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ value: count() }).from(applications).where(where),
  ]);
  const rowCount = total?.value ?? 0;
  return {
    currentPage: page,
    nextPage: page * pageSize < rowCount ? page + 1 : null,
    pageSize,
    rowCount,
    results: rows.map(toAppRow),
  };
}

/** The kanban: every active stage with its applications (newest first, at most `perStage` each). */
export async function applicationsByStage(db: Db, officeId: number, stages: readonly Stage[], search: string | undefined, perStage: number) {
  return Promise.all(
    stages.map(async (stage) => {
      const page = await listApplications(db, { officeId, stages: [stage] }, { officeId, page: 1, pageSize: perStage, search });
      return { stage, count: page.rowCount, results: page.results };
    }),
  );
}
