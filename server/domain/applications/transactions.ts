import { and, desc, eq, ne, sql } from 'drizzle-orm';
import type { components } from '../../../codegen/generated/api.ts';
import type { Db } from '../../db/index.ts';
import { applications, lenders, lenderTransactions, users } from '../../db/schema.ts';
import type { Caller } from '../../http/caller.ts';
import { HttpProblem } from '../../http/problem.ts';
import { toCents, toDollars, toUtc } from '../values.ts';
import { fieldError, lockApplication, notAllowedNow, staffUserId, writeLogs, type ApplicationRecord } from './records.ts';
import type { Stage } from './status.ts';

type Schemas = components['schemas'];
type TransactionType = Schemas['LenderTransactionType'];
type Row = typeof lenderTransactions.$inferSelect;

/**
 * Lender transactions (decision 0082): requests the office sends the application's lender — funding
 * of a finalized loan, a refund or an adjustment of a booked one. The lender adapters that carry
 * them arrive with the borrower journey; until then a transaction stays Submitted until cancelled.
 */

/** Where each type of transaction makes sense. */
const STAGES_FOR: Record<TransactionType, readonly Stage[]> = {
  Funding: ['Finalized', 'SubmittedForFunding'],
  Refund: ['Funded', 'Refund'],
  Adjustment: ['ReadyToFinalize', 'Finalized', 'SubmittedForFunding', 'Funded', 'Refund'],
};

/** Stored status → the office-to-lender submission status of §4 the contract speaks. */
function submissionStatus(row: Pick<Row, 'status' | 'kind'>): Schemas['OfficeLenderSubmission'] {
  switch (row.status) {
    case 'Submitted':
      return row.kind === 'Funding' ? 'OfficeFundsSubmitted' : 'OfficeSubmitted';
    case 'Completed':
      return 'Completed';
    case 'Cancelled':
    case 'Failed':
      return 'Cancelled';
  }
}

const TYPES: readonly TransactionType[] = ['Funding', 'Refund', 'Adjustment'];

const columns = {
  tx: lenderTransactions,
  officeId: applications.officeId,
  lenderCode: lenders.code,
  lenderName: lenders.name,
  firstName: users.firstName,
  lastName: users.lastName,
};

type TransactionRecord = { tx: Row; officeId: number; lenderCode: string; lenderName: string; firstName: string | null; lastName: string | null };

function toTransaction({ tx, officeId, lenderCode, lenderName, firstName, lastName }: TransactionRecord): Schemas['LenderTransaction'] {
  const notes = tx.data?.notes;
  return {
    id: tx.id,
    appId: tx.appId,
    officeId,
    lenderCode,
    lenderName,
    type: TYPES.includes(tx.kind as TransactionType) ? (tx.kind as TransactionType) : 'Adjustment',
    amount: toDollars(tx.amount),
    status: submissionStatus(tx),
    referenceNo: tx.lenderReference,
    notes: typeof notes === 'string' ? notes : null,
    createdBy: firstName === null ? null : `${firstName} ${lastName}`.slice(0, 51),
    createdAtUtc: toUtc(tx.createdAt),
    updatedAtUtc: toUtc(tx.updatedAt),
  };
}

function select(db: Db) {
  return db
    .select(columns)
    .from(lenderTransactions)
    .innerJoin(applications, eq(applications.id, lenderTransactions.appId))
    .innerJoin(lenders, eq(lenders.id, lenderTransactions.lenderId))
    .leftJoin(users, eq(users.id, lenderTransactions.createdBy));
}

/** App_GetLenderTrans: newest first. */
export async function lenderTransactionList(db: Db, appId: number): Promise<Schemas['LenderTransaction'][]> {
  const rows = await select(db).where(eq(lenderTransactions.appId, appId)).orderBy(desc(lenderTransactions.createdAt), desc(lenderTransactions.id));
  return rows.map(toTransaction);
}

async function transaction(db: Db, id: number): Promise<Schemas['LenderTransaction']> {
  const [row] = await select(db).where(eq(lenderTransactions.id, id));
  return toTransaction(row!);
}

/** Cents of non-cancelled transactions of a type, other than `except`. */
async function openTotal(tx: Db, appId: number, kind: TransactionType): Promise<number> {
  const [row] = await tx
    .select({ total: sql<number>`coalesce(sum(${lenderTransactions.amount}), 0)`.mapWith(Number) })
    .from(lenderTransactions)
    .where(and(eq(lenderTransactions.appId, appId), eq(lenderTransactions.kind, kind), ne(lenderTransactions.status, 'Cancelled'), ne(lenderTransactions.status, 'Failed')));
  return row!.total;
}

/** The amount rules of a new transaction, checked under the application's row lock. */
async function checkAmount(tx: Db, app: ApplicationRecord, type: TransactionType, cents: number): Promise<void> {
  if (type === 'Refund') {
    // A refund at the lender can no more exceed what is left of the loan than a refund request can.
    const left = (app.fundedAmount ?? 0) - app.refundedAmount - (await openTotal(tx, app.id, 'Refund'));
    if (cents > left) throw fieldError('amount', 'refundExceeds');
    return;
  }
  if (app.approvedAmount === null) throw notAllowedNow('take a lender transaction without an approved amount');
  if (cents > app.approvedAmount) throw fieldError('amount', 'loanExceedsApproved');
  if (type === 'Funding') {
    // Funding follows finalizing, which set the amount to the loan the borrower signed for or less (decision 0210).
    if (cents > app.amount) throw fieldError('amount', 'fundingExceedsLoan');
    const [open] = await tx
      .select({ id: lenderTransactions.id })
      .from(lenderTransactions)
      .where(and(eq(lenderTransactions.appId, app.id), eq(lenderTransactions.kind, 'Funding'), eq(lenderTransactions.status, 'Submitted')))
      .limit(1);
    if (open) throw HttpProblem.conflict('A funding transaction of this application is already with the lender; cancel it first.');
  }
}

/** App_SubmitTrans. A funding request moves the application's funding status to Processing. */
export async function submitLenderTransaction(db: Db, caller: Caller, body: Schemas['LenderTransactionSubmit']): Promise<Schemas['LenderTransaction']> {
  const cents = toCents(body.amount);
  const id = await db.transaction(async (tx) => {
    const app = await lockApplication(tx, body.appId);
    if (app.lenderId === null) throw notAllowedNow('take a lender transaction before a lender is chosen');
    if (!STAGES_FOR[body.type].includes(app.stage)) throw notAllowedNow(`take a ${body.type.toLowerCase()} transaction`);
    await checkAmount(tx, app, body.type, cents);
    const [row] = await tx
      .insert(lenderTransactions)
      .values({ appId: app.id, lenderId: app.lenderId, kind: body.type, amount: cents, data: body.notes ? { notes: body.notes } : {}, createdBy: staffUserId(caller) })
      .returning({ id: lenderTransactions.id });
    const processing = body.type === 'Funding' && app.stage === 'SubmittedForFunding' && app.fundingStatus !== 'Processing';
    if (processing) await tx.update(applications).set({ fundingStatus: 'Processing', updatedAt: sql`now()` }).where(eq(applications.id, app.id));
    await writeLogs(tx, app.id, caller, [
      {
        kind: 'Event',
        message: 'Lender transaction submitted',
        data: {
          transactionId: row!.id, type: body.type, amountCents: cents, lenderCode: app.lenderCode,
          before: { fundingStatus: app.fundingStatus }, after: { fundingStatus: processing ? 'Processing' : app.fundingStatus },
        },
      },
    ]);
    return row!.id;
  });
  return transaction(db, id);
}

/** App_CancelTrans: a Submitted transaction of this application only; a cancelled funding request puts the funding back to Initiated. */
export async function cancelLenderTransaction(db: Db, caller: Caller, body: Schemas['LenderTransactionCancel']): Promise<Schemas['LenderTransaction']> {
  await db.transaction(async (tx) => {
    const app = await lockApplication(tx, body.appId);
    const [row] = await tx
      .select()
      .from(lenderTransactions)
      .where(and(eq(lenderTransactions.id, body.transactionId), eq(lenderTransactions.appId, app.id)))
      .for('update');
    if (!row) throw new HttpProblem(404, 'The transaction could not be found.');
    if (row.status !== 'Submitted') throw HttpProblem.conflict(`The transaction is ${row.status.toLowerCase()} and can no longer be cancelled.`);
    await tx
      .update(lenderTransactions)
      .set({ status: 'Cancelled', data: { ...(row.data ?? {}), ...(body.reason ? { cancelReason: body.reason } : {}) }, updatedAt: sql`now()` })
      .where(eq(lenderTransactions.id, row.id));
    const initiated = row.kind === 'Funding' && app.stage === 'SubmittedForFunding' && app.fundingStatus === 'Processing';
    if (initiated) await tx.update(applications).set({ fundingStatus: 'Initiated', updatedAt: sql`now()` }).where(eq(applications.id, app.id));
    await writeLogs(tx, app.id, caller, [
      {
        kind: 'Event',
        message: 'Lender transaction cancelled',
        data: {
          transactionId: row.id, type: row.kind, amountCents: row.amount, reason: body.reason ?? null,
          before: { status: row.status, fundingStatus: app.fundingStatus },
          after: { status: 'Cancelled', fundingStatus: initiated ? 'Initiated' : app.fundingStatus },
        },
      },
    ]);
  });
  return transaction(db, body.transactionId);
}
