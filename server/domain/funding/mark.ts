import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { components } from '../../../codegen/generated/api.ts';
import type { Db } from '../../db/index.ts';
import { applications, offices } from '../../db/schema.ts';
import type { Caller } from '../../http/caller.ts';
import { HttpProblem } from '../../http/problem.ts';
import { calendarDate, fieldError, writeLogs } from '../applications/records.ts';
import { toUsDate } from '../values.ts';
import { csvFile, dollars, text, value } from '../csv.ts';
import { fundedColumns, fundedDate, netCents, type FundedRecord } from './rows.ts';
import { recordApplicationChange } from '../../events/application-events.ts';

type Schemas = components['schemas'];

const HEADER = [
  'Application ID', 'Office ID', 'Office Name', 'First Name', 'Last Name', 'Lender', 'Contract ID', 'Loan Amount',
  'Funded Amount', 'Discount Amount', 'Net Funded Amount', 'Funded Date', 'Funding Status', 'Bank Name', 'Bank Account Last 4',
] as const;

/**
 * A funding date names the day the funds were released: not a day to come. "Today" is the latest calendar day
 * anywhere (UTC+14), so an admin west of UTC is never refused their own today (docs/decisions/0081).
 */
function fundingDay(us: string): Date {
  const iso = calendarDate(us, 'fundedDate');
  const latestToday = new Date(Date.now() + 14 * 3_600_000).toISOString().slice(0, 10);
  if (iso > latestToday) throw fieldError('fundedDate', 'dateInFuture');
  return new Date(`${iso}T00:00:00Z`);
}

/**
 * Funds go only to a bank account the ACH provider verified (decision 0152): one office whose account is not
 * refuses the whole call (409), naming each such office.
 */
async function assertBanksVerified(tx: Db, officeIds: number[]): Promise<void> {
  const unverified = await tx
    .select({ id: offices.id, name: offices.name })
    .from(offices)
    .where(and(inArray(offices.id, officeIds), sql`${offices.achVerifyStatus} is distinct from 'Verified'`))
    .orderBy(asc(offices.id));
  if (unverified.length === 0) return;
  const names = unverified.map((office) => `${office.name} (#${office.id})`).join(', ');
  const which = unverified.length === 1 ? 'its bank account has' : 'their bank accounts have';
  throw new HttpProblem(409, `${names} cannot be funded: ${which} not been verified. The office verifies it on its Bank Account page.`, {
    extensions: { officeIds: unverified.map((office) => office.id) },
  });
}

/**
 * AdminApps_MarkAppsFunded: the platform admin records that the listed applications were funded.
 * All or nothing, in one transaction: every application is locked (in id order, so that two admins
 * marking overlapping lists cannot deadlock) and must be awaiting funding (SubmittedForFunding), its office's
 * bank account verified; it
 * then becomes Funded with its loan amount as the funded amount, the funding date (today unless
 * given) and the funding status Completed. A repeat of the same call finds them funded and answers
 * 409; a repeat with the same Idempotency-Key replays the first file. Answers the funding file.
 */
export async function markFunded(db: Db, caller: Caller, body: Schemas['MarkFunded']): Promise<{ file: Buffer; count: number }> {
  const ids = [...new Set(body.appIds)].sort((a, b) => a - b);
  const fundedAt = body.fundedDate ? fundingDay(body.fundedDate) : new Date();
  const records = await db.transaction(async (tx) => {
    const locked = await tx.select().from(applications).where(inArray(applications.id, ids)).orderBy(asc(applications.id)).for('update');
    const found = new Map(locked.map((app) => [app.id, app]));
    const missing = ids.filter((id) => !found.has(id));
    if (missing.length > 0) throw new HttpProblem(404, `Applications not found: ${missing.join(', ')}.`);
    const notWaiting = locked.filter((app) => app.stage !== 'SubmittedForFunding' || app.fundedAt !== null);
    if (notWaiting.length > 0) {
      throw new HttpProblem(409, `Only applications submitted for funding can be marked funded: ${notWaiting.map((app) => `${app.id} (${app.stage})`).join(', ')}.`, {
        extensions: { appIds: notWaiting.map((app) => app.id) },
      });
    }
    await assertBanksVerified(tx, [...new Set(locked.map((app) => app.officeId))]);
    for (const app of locked) {
      await tx
        .update(applications)
        .set({
          stage: 'Funded', fundedAmount: app.amount, fundedAt, fundingStatus: 'Completed', contractStatus: 'Funded',
          // Paid out without the lender's word first: the tracker's initiated day is the funded day.
          fundingInitiatedAt: app.fundingInitiatedAt ?? fundedAt,
          contractSubStatus: 'FundsReleased', statusText: 'Funded', updatedAt: sql`now()`,
        })
        .where(eq(applications.id, app.id));
      await recordApplicationChange(tx, app, { stage: 'Funded', fundedAmount: app.amount, contractSubStatus: 'FundsReleased' });
      const after = { stage: 'Funded', fundedAmountCents: app.amount, fundedDate: toUsDate(fundedAt.toISOString()), fundingStatus: 'Completed' };
      await writeLogs(tx, app.id, caller, [
        {
          kind: 'Event',
          message: 'Marked funded',
          data: { before: { stage: app.stage, fundedAmountCents: app.fundedAmount, fundedDate: null, fundingStatus: app.fundingStatus }, after },
        },
        { kind: 'Contract', message: 'Funds released', data: { stage: 'Funded', contractStatus: 'Funded', contractSubStatus: 'FundsReleased' } },
      ]);
    }
    return tx
      .select({ ...fundedColumns, bankName: offices.bankName, bankAccountLast4: offices.bankAccountLast4 })
      .from(applications)
      .innerJoin(offices, eq(offices.id, applications.officeId))
      .where(inArray(applications.id, ids))
      .orderBy(asc(applications.officeId), asc(applications.id));
  });
  const rows = records.map((row) => {
    const r = row as FundedRecord & { bankName: string | null; bankAccountLast4: string | null };
    return [
      value(r.id), value(r.officeId), text(r.officeName), text(r.firstName), text(r.lastName), text(r.lenderName), text(r.contractId),
      dollars(r.amount), dollars(r.fundedAmount), dollars(r.discountAmount), dollars(netCents(r)), value(fundedDate(r.fundedAt)),
      text(r.fundingStatus), text(r.bankName), text(r.bankAccountLast4),
    ];
  });
  return { file: csvFile(HEADER, rows), count: rows.length };
}
