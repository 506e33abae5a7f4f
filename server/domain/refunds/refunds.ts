import { and, asc, count, desc, eq, inArray, ne, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { components } from '../../../codegen/generated/api.ts';
import type { Db } from '../../db/index.ts';
import { applications, offices, refunds, users } from '../../db/schema.ts';
import type { Caller } from '../../http/caller.ts';
import { HttpProblem } from '../../http/problem.ts';
import { applicantSearch } from '../applications/rows.ts';
import { calendarDate, fieldError, lockApplication, notAllowedNow, staffUserId, writeLogs, type ApplicationRecord } from '../applications/records.ts';
import { FUNDED_STAGES } from '../applications/status.ts';
import { DEFAULT_PAGE_SIZE, paged, totalRows, type Page } from '../paging.ts';
import { withinDates } from '../search.ts';
import { enqueueLenderOrder } from '../applications/lender-orders.ts';
import { toCents, toDollars, toUsDate, toUtc } from '../values.ts';
import { recordApplicationChange, recordApplicationEvent } from '../../events/application-events.ts';

type Schemas = components['schemas'];
type Refund = Schemas['Refund'];
type RefundStatus = Schemas['RefundStatus'];
type SubStatus = Schemas['ContractSubStatus'];
type ListQuery = Schemas['ListQuery'];
type RefundRow = typeof refunds.$inferSelect;

/**
 * Refunds (decision 0083). The ceiling of §5 — a refund may not exceed the original (funded) amount
 * minus what is already refunded — is kept by `applications.refunded_amount`, the sum of the
 * application's refunds that are not cancelled, and checked and changed only under the
 * application's row lock: two requests at once run one after the other, and the second sees the
 * first. A refund moves Submitted → Processing → Completed, or to Cancelled before it completes;
 * cancelling gives its amount back.
 */

const SUB_STATUS: Record<RefundStatus, SubStatus> = {
  Submitted: 'RefundSubmitted',
  Processing: 'RefundProcessing',
  Completed: 'RefundCompleted',
  Cancelled: 'RefundCancelled',
};

/** Allowed moves; the same status again only updates the ACH fields of a refund still open. */
const NEXT: Record<RefundStatus, readonly RefundStatus[]> = {
  Submitted: ['Submitted', 'Processing', 'Cancelled'],
  Processing: ['Processing', 'Completed', 'Cancelled'],
  Completed: [],
  Cancelled: [],
};

const ACH_STATUSES: ReadonlyArray<Schemas['FundingStatus']> = ['Initiated', 'Processing', 'Completed'];

/** The refund's ACH transfer status; the column is text, written only with these values. */
function achStatus(stored: string | null): Schemas['FundingStatus'] | null {
  return ACH_STATUSES.find((status) => status === stored) ?? null;
}

/** Who approved or rejected a refund (decision 0280), beside who requested it. */
const approvers = alias(users, 'approvers');

const columns = {
  refund: refunds,
  officeName: offices.name,
  firstName: applications.firstName,
  lastName: applications.lastName,
  lenderName: applications.lenderName,
  fundedAmount: applications.fundedAmount,
  amount: applications.amount,
  byFirstName: users.firstName,
  byLastName: users.lastName,
  approverFirstName: approvers.firstName,
  approverLastName: approvers.lastName,
};

interface RefundRecord {
  refund: RefundRow;
  officeName: string;
  firstName: string;
  lastName: string;
  lenderName: string | null;
  fundedAmount: number | null;
  amount: number;
  byFirstName: string | null;
  byLastName: string | null;
  approverFirstName: string | null;
  approverLastName: string | null;
}

function toRefund(row: RefundRecord): Refund {
  const { refund } = row;
  return {
    refundId: refund.id,
    appId: refund.appId,
    officeId: refund.officeId,
    officeName: row.officeName,
    firstName: row.firstName,
    lastName: row.lastName,
    lenderName: row.lenderName,
    reason: refund.reason ?? '',
    status: refund.status,
    achStatus: achStatus(refund.achStatus),
    estimatedAchDeliveryDate: toUsDate(refund.estimatedAchDeliveryDate),
    amount: toDollars(row.fundedAmount ?? row.amount),
    refundAmount: toDollars(refund.amount),
    requestedBy: row.byFirstName === null ? null : `${row.byFirstName} ${row.byLastName}`.slice(0, 51),
    createdAtUtc: toUtc(refund.createdAt),
    updatedAtUtc: toUtc(refund.updatedAt),
    requestedById: refund.createdBy,
    approval: refund.approval,
    approvedBy: row.approverFirstName === null ? null : `${row.approverFirstName} ${row.approverLastName}`.slice(0, 51),
  };
}

/** The refund rows with their application, office and author; `extra` adds columns (a page's count). */
function select<E extends Record<string, SQL.Aliased>>(db: Db, extra = {} as E) {
  return db
    .select({ ...columns, ...extra })
    .from(refunds)
    .innerJoin(applications, eq(applications.id, refunds.appId))
    .innerJoin(offices, eq(offices.id, refunds.officeId))
    .leftJoin(users, eq(users.id, refunds.createdBy))
    .leftJoin(approvers, eq(approvers.id, refunds.approvedBy));
}

async function refundById(db: Db, id: number): Promise<Refund> {
  const [row] = await select(db).where(eq(refunds.id, id));
  if (!row) throw new HttpProblem(404, 'The refund could not be found.');
  return toRefund(row);
}

/** Cents still refundable: the funded amount less the refunds not cancelled. */
const refundable = (app: ApplicationRecord) => (app.fundedAmount ?? 0) - app.refundedAmount;

/**
 * The application's refund sub-status after a change: an open refund speaks for the application
 * (Processing before Submitted), else a completed one, else they were all cancelled.
 */
async function appSubStatus(tx: Db, appId: number): Promise<SubStatus> {
  const rows = await tx.select({ status: refunds.status }).from(refunds).where(eq(refunds.appId, appId));
  for (const status of ['Processing', 'Submitted', 'Completed'] as const) {
    if (rows.some((r) => r.status === status)) return SUB_STATUS[status];
  }
  return 'RefundCancelled';
}

/** App_SubmitRefund: a partial or full refund of a funded application (the showRefundButton action). */
export async function submitRefund(db: Db, caller: Caller, body: Schemas['RefundRequest']): Promise<Refund> {
  const cents = toCents(body.amount);
  const id = await db.transaction(async (tx) => {
    const app = await lockApplication(tx, body.appId);
    if (!FUNDED_STAGES.includes(app.stage) || app.fundedAmount === null) throw notAllowedNow('be refunded before it is funded');
    // A second click with a new key is still the same intent: the same amount while one is open is refused (decision 0172).
    const [open] = await tx
      .select({ id: refunds.id })
      .from(refunds)
      .where(and(eq(refunds.appId, app.id), eq(refunds.amount, cents), inArray(refunds.status, ['Submitted', 'Processing'])))
      .limit(1);
    if (open) {
      throw HttpProblem.conflict(`A refund of $${toDollars(cents).toFixed(2)} for this loan is already pending (refund #${open.id}). Wait until it completes, or cancel it first.`);
    }
    if (cents > refundable(app)) throw fieldError('amount', 'refundExceeds');
    // Above the office's approval amount, a second person approves before the lender is told (decision 0280).
    const [office] = await tx.select({ above: offices.refundApprovalAbove }).from(offices).where(eq(offices.id, app.officeId));
    const awaiting = office?.above !== null && office?.above !== undefined && cents > office.above;
    const [row] = await tx
      .insert(refunds)
      .values({ appId: app.id, officeId: app.officeId, amount: cents, reason: body.reason, status: 'Submitted', createdBy: staffUserId(caller), approval: awaiting ? 'Awaiting' : null })
      .returning({ id: refunds.id });
    const after = {
      stage: 'Refund' as const,
      contractSubStatus: 'RefundSubmitted' as const,
      refundedAmountCents: app.refundedAmount + cents,
    };
    const full = after.refundedAmountCents === app.fundedAmount;
    await tx
      .update(applications)
      .set({
        stage: after.stage, contractSubStatus: after.contractSubStatus, refundedAmount: after.refundedAmountCents,
        statusText: full ? 'Full refund requested' : 'Partial refund requested', updatedAt: sql`now()`,
      })
      .where(eq(applications.id, app.id));
    await writeLogs(tx, app.id, caller, [
      {
        kind: 'Event',
        message: full ? 'Full refund requested' : 'Partial refund requested',
        data: {
          refundId: row!.id, amountCents: cents, reason: body.reason, fundedAmountCents: app.fundedAmount,
          before: { stage: app.stage, contractSubStatus: app.contractSubStatus, refundedAmountCents: app.refundedAmount },
          after,
        },
      },
      { kind: 'Contract', message: 'Refund requested', data: { stage: 'Refund', contractStatus: app.contractStatus, contractSubStatus: 'RefundSubmitted', refundId: row!.id } },
      ...(awaiting
        ? [{ kind: 'Event' as const, message: 'Refund awaits a second approval', data: { refundId: row!.id, amountCents: cents, approvalAboveCents: office!.above } }]
        : []),
    ]);
    if (!awaiting) await enqueueLenderOrder(tx, 'refund', { appId: app.id, refundId: row!.id });
    await recordApplicationEvent(tx, app, 'application.refund_requested', { refundId: row!.id, amount: cents / 100, refundedAmount: after.refundedAmountCents / 100, fundedAmount: app.fundedAmount / 100 });
    return row!.id;
  });
  return refundById(db, id);
}

/**
 * AdminApps_UpdateRefund: moves a refund along (Submitted → Processing → Completed, or Cancelled
 * while open) and records its ACH status and estimated delivery date. The refund must be of the
 * application named. Cancelling returns the amount to what may be refunded; with no refund left
 * open or done, the application is Funded again.
 */
export async function updateRefund(db: Db, caller: Caller, body: Schemas['RefundUpdate']): Promise<Refund> {
  const estimated = body.estimatedAchDeliveryDate ? calendarDate(body.estimatedAchDeliveryDate, 'estimatedAchDeliveryDate') : body.estimatedAchDeliveryDate;
  await db.transaction((tx) => moveRefund(tx, caller, body, estimated));
  return refundById(db, body.refundId);
}

/** The move of updateRefund, inside the caller's transaction (a rejected approval cancels in the same commit). */
async function moveRefund(tx: Db, caller: Caller, body: Schemas['RefundUpdate'], estimated: string | null | undefined): Promise<void> {
  const app = await lockApplication(tx, body.appId);
  const [refund] = await tx.select().from(refunds).where(and(eq(refunds.id, body.refundId), eq(refunds.appId, app.id))).for('update');
  if (!refund) throw new HttpProblem(404, 'The refund could not be found.');
  if (refund.approval === 'Awaiting' && body.status !== 'Cancelled') {
    throw HttpProblem.conflict('The refund awaits a second approval at the office: it moves on once approved.');
  }
  if (!NEXT[refund.status].includes(body.status)) {
    throw new HttpProblem(409, `A ${refund.status.toLowerCase()} refund cannot become ${body.status.toLowerCase()}.`, { errors: { status: [`Allowed: ${NEXT[refund.status].join(', ') || 'none'}.`] } });
  }
  // Without an ACH status in the request: a refund in process has its debit at least Initiated, a completed one Completed.
  const ach = body.achStatus !== undefined ? body.achStatus
    : body.status === 'Completed' ? 'Completed'
    : body.status === 'Processing' ? (refund.achStatus ?? 'Initiated')
    : refund.achStatus;
  const changes = {
    status: body.status,
    achStatus: ach,
    estimatedAchDeliveryDate: estimated !== undefined ? estimated : refund.estimatedAchDeliveryDate,
  };
  await tx.update(refunds).set({ ...changes, updatedAt: sql`now()` }).where(eq(refunds.id, refund.id));

  const cancelled = body.status === 'Cancelled';
  const refundedAmount = cancelled ? app.refundedAmount - refund.amount : app.refundedAmount;
  const [{ value: live } = { value: 0 }] = await tx
    .select({ value: count() })
    .from(refunds)
    .where(and(eq(refunds.appId, app.id), ne(refunds.status, 'Cancelled')));
  const stage = live === 0 ? 'Funded' : 'Refund';
  const contractSubStatus = await appSubStatus(tx, app.id);
  const statusText = live === 0 ? 'Refund cancelled' : `Refund ${body.status === 'Submitted' ? 'requested' : body.status.toLowerCase()}`;
  await tx.update(applications).set({ refundedAmount, stage, contractSubStatus, statusText, updatedAt: sql`now()` }).where(eq(applications.id, app.id));
  if (body.status === 'Completed' && refund.status !== 'Completed') {
    await recordApplicationEvent(tx, app, 'application.refund_completed', { refundId: refund.id, amount: refund.amount / 100, refundedAmount: refundedAmount / 100 });
  } else {
    // Processing or cancelled: the status the office's screens show moved (application.status_changed).
    await recordApplicationChange(tx, app, { refundedAmount, stage, contractSubStatus, statusText });
  }
  const before = { status: refund.status, achStatus: refund.achStatus, estimatedAchDeliveryDate: refund.estimatedAchDeliveryDate };
  const appBefore = { stage: app.stage, contractSubStatus: app.contractSubStatus, refundedAmountCents: app.refundedAmount };
  const appAfter = { stage, contractSubStatus, refundedAmountCents: refundedAmount };
  await writeLogs(tx, app.id, caller, [
    {
      kind: 'Event',
      message: refund.status === body.status ? 'Refund ACH details updated' : `Refund ${body.status.toLowerCase()}`,
      data: { refundId: refund.id, amountCents: refund.amount, notes: body.notes ?? null, before: { ...before, ...appBefore }, after: { ...changes, ...appAfter } },
    },
    ...(refund.status === body.status
      ? []
      : [{ kind: 'Contract' as const, message: `Refund ${body.status.toLowerCase()}`, data: { stage, contractStatus: app.contractStatus, contractSubStatus, refundId: refund.id } }]),
  ]);
}

/**
 * App_ApproveRefund (decision 0280): a refund above the office's approval amount, approved by someone other than who
 * requested it — the lender is then told, as for any refund — or rejected, which cancels it in the same commit.
 */
export async function decideRefund(db: Db, caller: Caller, body: Schemas['RefundApprovalDecision']): Promise<Refund> {
  await db.transaction(async (tx) => {
    const app = await lockApplication(tx, body.appId);
    const [refund] = await tx.select().from(refunds).where(and(eq(refunds.id, body.refundId), eq(refunds.appId, app.id))).for('update');
    if (!refund) throw new HttpProblem(404, 'The refund could not be found.');
    if (refund.approval !== 'Awaiting') throw HttpProblem.conflict('The refund does not await an approval.');
    const approver = staffUserId(caller);
    if (approver === null || approver === refund.createdBy) throw HttpProblem.conflict('A refund needs the approval of someone other than who requested it.');
    await tx.update(refunds).set({ approval: body.approve ? 'Approved' : 'Rejected', approvedBy: approver, approvedAt: sql`now()`, updatedAt: sql`now()` }).where(eq(refunds.id, refund.id));
    await writeLogs(tx, app.id, caller, [
      { kind: 'Event', message: body.approve ? 'Refund approved by a second person' : 'Refund rejected by a second person', data: { refundId: refund.id, amountCents: refund.amount, note: body.note ?? null } },
    ]);
    if (body.approve) await enqueueLenderOrder(tx, 'refund', { appId: app.id, refundId: refund.id });
    else await moveRefund(tx, caller, { appId: app.id, refundId: refund.id, status: 'Cancelled', notes: body.note ?? 'Rejected at approval' }, undefined);
  });
  return refundById(db, body.refundId);
}

/** Office_SetRefundApproval (decision 0280): the amount above which a refund waits for a second person; answers it in words. */
export async function setRefundApproval(db: Db, body: Schemas['RefundApprovalSetting']): Promise<string> {
  const cents = body.approvalAbove === undefined || body.approvalAbove === null ? null : toCents(body.approvalAbove);
  await db.update(offices).set({ refundApprovalAbove: cents, updatedAt: sql`now()` }).where(eq(offices.id, body.officeId));
  return cents === null ? 'Refunds no longer need a second approval.' : `Refunds above $${(cents / 100).toFixed(2)} now need a second person's approval.`;
}

/** App_GetRefundRequest: the application's latest refund request, of the office named in the path. */
export async function refundRequestOf(db: Db, officeId: number, appId: number): Promise<Refund> {
  const [row] = await select(db)
    .where(and(eq(refunds.appId, appId), eq(refunds.officeId, officeId)))
    .orderBy(desc(refunds.createdAt), desc(refunds.id))
    .limit(1);
  if (!row) throw new HttpProblem(404, 'No refund has been requested for this application.');
  return toRefund(row);
}

const SORTABLE = {
  id: refunds.id,
  firstName: applications.firstName,
  lastName: applications.lastName,
  name: applications.searchName,
  officeName: offices.name,
  amount: applications.fundedAmount,
  refundAmount: refunds.amount,
  fundedAmount: applications.fundedAmount,
  status: refunds.status,
  lenderName: applications.lenderName,
  createdAtUtc: refunds.createdAt,
  updatedAtUtc: refunds.updatedAt,
} as const;

function conditions(officeId: number | undefined, query: ListQuery): SQL | undefined {
  return and(
    officeId === undefined ? undefined : eq(refunds.officeId, officeId),
    applicantSearch(query.search),
    withinDates(refunds.createdAt, query),
  );
}

function ordering(query: ListQuery) {
  const column = SORTABLE[query.sortBy as keyof typeof SORTABLE];
  const direction = column && !query.sortDesc ? asc : desc;
  return [direction(column ?? refunds.createdAt), direction(refunds.id)];
}

/** The most refunds one unpaged answer (App_GetOfficeRefunds) holds. */
const ARRAY_LIMIT = 1_000;

/**
 * App_GetOfficeRefunds answers a plain array (spec §7): every refund of the office, newest first, or
 * the page asked for when the query names a page size.
 */
export async function officeRefunds(db: Db, officeId: number, query: ListQuery): Promise<Refund[]> {
  const limit = query.pageSize ?? ARRAY_LIMIT;
  const offset = query.pageSize ? ((query.page ?? 1) - 1) * query.pageSize : 0;
  const rows = await select(db).where(conditions(officeId, query)).orderBy(...ordering(query)).limit(limit).offset(offset);
  return rows.map(toRefund);
}

/** AdminApps_GetRefunds: refunds of every office (or of `officeId`), paged. */
export async function listRefunds(db: Db, query: ListQuery): Promise<Page<Refund>> {
  const where = conditions(query.officeId, query);
  return paged(
    query,
    (limit, offset) => select(db, { total: totalRows() }).where(where).orderBy(...ordering(query)).limit(limit ?? DEFAULT_PAGE_SIZE).offset(offset),
    async () => {
      const [row] = await db.select({ value: count() }).from(refunds).innerJoin(applications, eq(applications.id, refunds.appId)).where(where);
      return row?.value ?? 0;
    },
    toRefund,
  );
}
