import { and, asc, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { components } from '../../../codegen/generated/api.ts';
import type { PgColumn, PgSelect } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/index.ts';
import { Params, StatementCache } from '../../db/prepared.ts';
import { applications, offices } from '../../db/schema.ts';
import { toDollars, toUsDate, utcText } from '../values.ts';
import { DEFAULT_PAGE_SIZE, paged, totalApart, totalRows, type Page } from '../paging.ts';
import { inline, nameOrIdSearch, withinDates, type Bind } from '../search.ts';
import { displayFlags, statusChip, type Stage } from './status.ts';
import { askedLender, FUNNEL_STEPS, furthestStep } from '../reports/figures.ts';

type Schemas = components['schemas'];
export type AppRow = Schemas['AppRow'];
export type ListQuery = Schemas['ListQuery'];

/** The columns an application list may be sorted by (`sortBy`), funded lists included. */
export const SORTABLE_COLUMNS = {
  id: applications.id,
  firstName: applications.firstName,
  lastName: applications.lastName,
  name: applications.searchName,
  officeName: offices.name,
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


/** 'Applicant Name or ID' on applications: the indexed search_name is lower('first last'). */
export const applicantSearch = (search: string | undefined, bind: Bind = inline): SQL | undefined =>
  nameOrIdSearch(search, { fullName: applications.searchName, lastName: sql`lower(${applications.lastName})`, id: applications.id }, bind);

export interface ListScope {
  officeId?: number;
  /** Several locations in place of officeId (a report's roll-up, decision 0281). */
  officeIds?: readonly number[];
  stages: readonly Stage[];
  /** Only rows that were funded (Funded Apps lists). */
  funded?: boolean;
  /** The query's `stages` may name any stage, not only the scope's (the search page asks for all). */
  anyStage?: boolean;
}

/** Stages as one array parameter (PGlite sends a JavaScript array as plain text, so the literal is written here). */
const stageArray = (stages: readonly string[]) => `{${stages.join(',')}}`;

function conditions(scope: ListScope, query: ListQuery, params: Params): SQL | undefined {
  const stages = !query.stages?.length ? scope.stages : scope.anyStage ? query.stages : scope.stages.filter((s) => query.stages!.includes(s));
  const { bind } = params;
  return and(
    scope.officeIds !== undefined && scope.officeIds.length > 1
      ? sql`${applications.officeId} = any(${bind('officeIds', `{${scope.officeIds.join(',')}}`)}::int[])`
      : scope.officeId === undefined ? undefined : eq(applications.officeId, bind('officeId', scope.officeId)),
    sql`${applications.stage} = any(${bind('stages', stageArray(stages))}::app_stage[])`,
    scope.funded ? sql`${applications.fundedAt} is not null` : undefined,
    query.fundingStatus ? eq(applications.fundingStatus, bind('fundingStatus', query.fundingStatus)) : undefined,
    applicantSearch(query.search, bind),
    withinDates(applications.createdAt, query, bind),
    // The applications behind a figure of the reports (decision 0277).
    query.reached ? sql`${furthestStep(query.lenderId, TABLE, bind)} >= ${bind('reached', FUNNEL_STEPS.indexOf(query.reached) + 1)}` : undefined,
    query.lenderId === undefined ? undefined : askedLender(query.lenderId, TABLE, bind),
    query.createdBy === undefined ? undefined : eq(applications.createdBy, bind('createdBy', query.createdBy)),
  );
}

/** The applications table as the list statements name it, for the reports' conditions written over an alias. */
const TABLE = sql.raw('"applications"');

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
  expirationUtc: utcText(applications.expiration, 'expiration_utc'),
  fundedAmount: applications.fundedAmount,
  fundingStatus: applications.fundingStatus,
  refundedAmount: applications.refundedAmount,
  createdAtUtc: utcText(applications.createdAt, 'created_at_utc'),
  updatedAtUtc: utcText(applications.updatedAt, 'updated_at_utc'),
};

/** A selected value as a row holds it: a column's data (null where the column may be empty), an expression's type. */
type Selected<F> = F extends SQL.Aliased<infer T> ? T : F extends PgColumn ? F['_']['data'] | (F['_']['notNull'] extends true ? never : null) : never;
type RowOf<C> = { [K in keyof C]: Selected<C[K]> };
type RowRecord = RowOf<typeof rowColumns>;

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
    expirationDateUtc: row.expirationUtc,
    fundingStatus: row.fundingStatus,
    ...displayFlags(row),
    createdAtUtc: row.createdAtUtc,
    updatedAtUtc: row.updatedAtUtc,
  };
}

const ofItsOffice = eq(offices.id, applications.officeId);

const pages = new StatementCache<(RowRecord & { total: number })[]>('app_page_');
const pageCounts = new StatementCache<{ count: number }[]>('app_count_');

/**
 * One page of application rows and the count of all pages, for the list screens. Each shape of list (its
 * conditions and its sort) is a statement prepared once (decision 0140).
 */
export async function listApplications(db: Db, scope: ListScope, query: ListQuery): Promise<Page<AppRow>> {
  const params = new Params();
  const where = conditions(scope, query, params);
  const sortBy = query.sortBy !== undefined && query.sortBy in SORTABLE_COLUMNS ? (query.sortBy as keyof typeof SORTABLE_COLUMNS) : 'createdAtUtc';
  const descending = query.sortBy ? !!query.sortDesc : true;
  const direction = descending ? desc : asc;
  // Without a name search the page comes straight from the office's index and a count of its own is answered from
  // an index too. A name search reads every row it matches to count them, so it counts and sorts only their ids and
  // reads the page's rows whole afterwards (decisions 0144, 0145).
  const countApart = !query.search?.trim();
  const conditionsShape = `${params.names}|${scope.funded ? 'funded' : ''}`;
  const shape = `${conditionsShape}|${sortBy} ${descending ? 'desc' : 'asc'}|${countApart ? 'count apart' : 'ids first'}`;
  const order = [direction(SORTABLE_COLUMNS[sortBy]), direction(applications.id)];
  const counting = () => db.select({ count: count() }).from(applications).where(where);
  const onePage = <Q extends PgSelect>(rows: Q) =>
    rows.where(where).orderBy(...order).limit(sql.placeholder('limit')).offset(sql.placeholder('offset'));
  const build = () => {
    if (countApart) return onePage(db.select({ ...rowColumns, total: totalApart(counting()) }).from(applications).innerJoin(offices, ofItsOffice).$dynamic());
    const page = onePage(db.select({ id: applications.id, total: totalRows() }).from(applications).innerJoin(offices, ofItsOffice).$dynamic()).as('page_ids');
    return db
      .select({ ...rowColumns, total: page.total })
      .from(page)
      .innerJoin(applications, eq(applications.id, page.id))
      .innerJoin(offices, ofItsOffice)
      .orderBy(...order);
  };
  return paged(
    query,
    (limit, offset) => pages.run(db, shape, { ...params.values, limit: limit ?? DEFAULT_PAGE_SIZE, offset }, build),
    async () => (await pageCounts.run(db, conditionsShape, params.values, counting))[0]?.count ?? 0,
    toAppRow,
  );
}

/** What a kanban card shows (AppCard), and what its status chip is worked out from. */
const cardColumns = {
  id: applications.id,
  firstName: applications.firstName,
  lastName: applications.lastName,
  amount: applications.amount,
  stage: applications.stage,
  isOfferMatch: applications.isOfferMatch,
  decisionStatus: applications.decisionStatus,
  lenderName: applications.lenderName,
  fundingStatus: applications.fundingStatus,
  updatedAtUtc: utcText(applications.updatedAt, 'updated_at_utc'),
};

type CardRecord = RowOf<typeof cardColumns>;
export type AppCard = Schemas['AppCard'];

function toAppCard(card: CardRecord): AppCard {
  return {
    id: card.id,
    firstName: card.firstName,
    lastName: card.lastName,
    amount: toDollars(card.amount),
    stage: card.stage,
    statusChip: statusChip(card),
    lenderName: card.lenderName,
    fundingStatus: card.fundingStatus,
    updatedAtUtc: card.updatedAtUtc,
  };
}

const boards = new StatementCache<{ stage: Stage; laneCount: number; card: CardRecord | null }[]>('app_board_');

/**
 * The kanban: every active stage with its newest cards (at most `perStage` each) and its full count, in one query:
 * for each stage (unnest), a count and the newest cards (lateral joins), both read from the (office, stage, created)
 * index alone, which carries what a card shows (applications_office_stage_cards_idx).
 */
export async function applicationsByStage(db: Db, officeId: number, stages: readonly Stage[], search: string | undefined, perStage: number) {
  const params = new Params();
  const { bind } = params;
  const inLane = and(eq(applications.officeId, bind('officeId', officeId)), eq(applications.stage, sql`lane.stage`), applicantSearch(search, bind));
  const lanes = bind('stages', stageArray(stages));
  const limit = bind('perStage', perStage);
  const rows = await boards.run(db, params.names, params.values, () => {
    const counts = db.select({ laneCount: sql<number>`count(*)`.mapWith(Number).as('lane_count') }).from(applications).where(inLane).as('counts');
    const cards = db.select(cardColumns).from(applications).where(inLane).orderBy(desc(applications.createdAt), desc(applications.id)).limit(limit).as('cards');
    return db
      .select({ stage: sql<Stage>`lane.stage`.as('lane_stage'), laneCount: counts.laneCount, card: cards._.selectedFields })
      .from(sql`unnest(${lanes}::app_stage[]) as lane(stage)`)
      .crossJoinLateral(counts)
      .leftJoinLateral(cards, sql`true`);
  });
  return stages.map((stage) => {
    const lane = rows.filter((row) => row.stage === stage);
    return { stage, count: lane[0]?.laneCount ?? 0, results: lane.flatMap((row) => (row.card ? [toAppCard(row.card)] : [])) };
  });
}
