import { eq, inArray } from 'drizzle-orm';
import type { Db } from '../../server/db/index.ts';
import { applicationLenders, applications, lenders, lenderTransactions, offers, refunds, stipulations, type appStage } from '../../server/db/schema.ts';

/**
 * Applications made for a test, in the states the demo seed uses (server/seed/demo-applications.ts),
 * so that tests of finalize, funding and refunds never change the demo rows other tests read.
 * Amounts are cents, as in the database.
 */

type Stage = (typeof appStage.enumValues)[number];

export interface AppSeed {
  officeId: number;
  stage: Stage;
  firstName?: string;
  lastName?: string;
  /** Loan amount, cents. Default 400000 ($4,000.00). */
  amount?: number;
  /** Default 500000 ($5,000.00) once a lender approved. */
  approvedAmount?: number | null;
  /** Funded amount for Funded / Refund; default the amount. */
  fundedAmount?: number;
  refundedAmount?: number;
  /** Discount rate (percent) of the selected offer. Default 5. */
  discountRate?: number;
  lenderCode?: string;
  referenceCode?: string | null;
  createdBy?: string | null;
}

const APPROVED: readonly Stage[] = ['OfferSelected', 'SigningRequired', 'ReadyToFinalize', 'Finalized', 'SubmittedForFunding', 'Funded', 'Refund', 'Cancelled'];
const FINALIZED: readonly Stage[] = ['Finalized', 'SubmittedForFunding', 'Funded', 'Refund'];
const FUNDED: readonly Stage[] = ['Funded', 'Refund'];

async function lenderId(db: Db, code: string): Promise<number> {
  const [row] = await db.select({ id: lenders.id }).from(lenders).where(eq(lenders.code, code));
  if (!row) throw new Error(`no lender ${code}`);
  return row.id;
}

let serial = 0;

/** Inserts an application (with its lender answer and selected offer when approved); answers its id. */
export async function insertApplication(db: Db, seed: AppSeed): Promise<number> {
  serial += 1;
  const code = seed.lenderCode ?? 'ally';
  const lender = await lenderId(db, code);
  const approved = APPROVED.includes(seed.stage);
  const amount = seed.amount ?? 400_000;
  const approvedAmount = seed.approvedAmount === undefined ? (approved ? 500_000 : null) : seed.approvedAmount;
  const funded = FUNDED.includes(seed.stage);
  const fundedAmount = funded ? (seed.fundedAmount ?? amount) : null;
  const [row] = await db
    .insert(applications)
    .values({
      officeId: seed.officeId,
      createdBy: seed.createdBy ?? null,
      firstName: seed.firstName ?? 'Test',
      lastName: seed.lastName ?? `Applicant${serial}`,
      email: `applicant${serial}.${Date.now()}@example.com`,
      mobilePhone: '(555) 555-0199',
      amount,
      stage: seed.stage,
      decisionStatus: approved ? 'Approved' : 'Pending',
      contractStatus: FINALIZED.includes(seed.stage) ? 'Signed' : approved ? 'Pending' : null,
      contractSubStatus: seed.stage === 'ReadyToFinalize' ? 'KBAPassed' : funded ? 'FundsReleased' : 'NotApplicable',
      statusText: seed.stage,
      lenderId: approved ? lender : null,
      lenderCode: approved ? code : null,
      lenderName: approved ? code.toUpperCase() : null,
      contractId: approved ? `${code.toUpperCase()}-T${serial}` : null,
      approvedAmount,
      referenceCode: seed.referenceCode ?? null,
      isOfferMatch: approved,
      isFinalized: FINALIZED.includes(seed.stage),
      fundedAmount,
      fundedAt: funded ? new Date(Date.now() - 86_400_000) : null,
      fundingStatus: funded ? 'Completed' : seed.stage === 'SubmittedForFunding' ? 'Initiated' : null,
      // The funding tracker's days (decision 0278): requested three days ago, paid out on the funded day.
      fundingRequestedAt: FINALIZED.includes(seed.stage) ? new Date(Date.now() - 3 * 86_400_000) : null,
      fundingInitiatedAt: funded ? new Date(Date.now() - 86_400_000) : null,
      expectedDepositOn: FINALIZED.includes(seed.stage) ? new Date(Date.now() + 86_400_000).toISOString().slice(0, 10) : null,
      refundedAmount: seed.refundedAmount ?? 0,
    })
    .returning({ id: applications.id });
  const id = row!.id;
  await db.insert(applicationLenders).values({ appId: id, lenderId: lender, status: approved ? 'Approved' : 'Pending', lenderAppId: `${code.toUpperCase()}-A${id}` });
  if (approved) {
    await db.insert(offers).values({
      appId: id, lenderId: lender, productCode: `${code.toUpperCase()}-INST36`, productName: '36-Month Fixed Payment Plan', term: 36, apr: 17.99,
      amount, minLine: 25_000, maxLine: approvedAmount, discountRate: seed.discountRate ?? 5, isSelected: true,
    });
  }
  return id;
}

/** A refund row as the office would have requested it (status Submitted unless given); keeps refunded_amount in step. */
export async function insertRefund(db: Db, appId: number, cents: number, status: 'Submitted' | 'Processing' | 'Completed' | 'Cancelled' = 'Submitted'): Promise<number> {
  const [app] = await db.select().from(applications).where(eq(applications.id, appId));
  const [row] = await db.insert(refunds).values({ appId, officeId: app!.officeId, amount: cents, reason: 'Fixture refund', status }).returning({ id: refunds.id });
  if (status !== 'Cancelled') {
    await db.update(applications).set({ refundedAmount: app!.refundedAmount + cents, stage: 'Refund', contractSubStatus: 'RefundSubmitted' }).where(eq(applications.id, appId));
  }
  return row!.id;
}

/** A lender transaction still with the lender (Submitted). */
export async function insertLenderTransaction(db: Db, appId: number, kind: 'Funding' | 'Refund' | 'Adjustment', cents: number): Promise<number> {
  const [app] = await db.select().from(applications).where(eq(applications.id, appId));
  const [row] = await db.insert(lenderTransactions).values({ appId, lenderId: app!.lenderId!, kind, amount: cents, data: { notes: 'Fixture' } }).returning({ id: lenderTransactions.id });
  return row!.id;
}

export async function insertStipulation(db: Db, appId: number, name: string): Promise<number> {
  const [row] = await db.insert(stipulations).values({ appId, name, explanation: 'Upload a recent pay stub.' }).returning({ id: stipulations.id });
  return row!.id;
}

/** Rows of applications, by id, for assertions. */
export async function applicationRows(db: Db, ids: number[]) {
  return db.select().from(applications).where(inArray(applications.id, ids));
}
