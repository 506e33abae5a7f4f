import { eq } from 'drizzle-orm';
import type { components } from '../../../codegen/generated/api.ts';
import { labels } from '../../../codegen/generated/labels.ts';
import type { Db } from '../../db/index.ts';
import { offices } from '../../db/schema.ts';
import type { Handlers } from '../../http/handler-types.ts';
import { contentDisposition } from '../files/content.ts';
import { officeChoices } from '../reports/choices.ts';
import { toUsDate } from '../values.ts';
import { CSV_TYPE, csvFile, dollars, fileDate, text, value } from '../csv.ts';
import { reconcileDeposits } from './reconcile.ts';
import { bankDay } from '../applications/funding-steps.ts';
import { allTracker, fundingFigures, listTracker, toTrackerRow } from './tracker.ts';

type Operation = 'Funding_GetTracker' | 'Funding_GetTrackerCSV' | 'Funding_GetSummary' | 'Funding_Reconcile';

/** The account deposits go to: the office's, with its verification, beside what it is owed. */
async function bankOf(db: Db, officeId: number): Promise<components['schemas']['FundingSummary']['bank']> {
  const [office] = await db
    .select({ status: offices.achVerifyStatus, accountLast4: offices.bankAccountLast4, verifiedAt: offices.achVerifiedAt })
    .from(offices)
    .where(eq(offices.id, officeId));
  if (!office) return null;
  // Written only from the contract's enum (the office mapping reads it the same way).
  const status = (office.status ?? 'NotStarted') as components['schemas']['AchVerifyStatus'];
  return { status, accountLast4: office.accountLast4, verifiedDate: office.verifiedAt ? toUsDate(bankDay(office.verifiedAt)) : null };
}

/** The tracker's CSV: the page's columns in the page's words (screens/pages/funding-apps.json). */
const HEADER = [
  'Application ID', 'Office', 'First Name', 'Last Name', 'Lender', 'Contract', 'Step', 'Requested', 'Lender paid', 'Expected deposit', 'Deposited',
  'Reconciled', 'Late', 'Gross', 'Discount', 'Net', 'Refunds taken back',
] as const;

/** The funding tracker (issue 40, decision 0278). */
export const trackerHandlers: Pick<Handlers, Operation> = {
  async Funding_GetTracker({ body, services }) {
    return { status: 200, body: await listTracker(services.db, body) };
  },

  async Funding_GetTrackerCSV({ body, services }) {
    const rows = (await allTracker(services.db, body)).map((record) => {
      const r = toTrackerRow(record);
      return [
        value(r.id), text(r.officeName), text(r.firstName), text(r.lastName), text(r.lenderName), text(r.contractId), text(labels.FundingStep![r.step] ?? r.step),
        value(r.requestedDate), value(r.initiatedDate), value(r.expectedDepositDate), value(r.depositedDate), value(r.reconciledDate), value(r.late ? 'Yes' : 'No'),
        dollars(record.gross), dollars(record.discount), dollars(record.discount === null ? null : record.gross - record.discount), dollars(record.refunded),
      ];
    });
    const where = body.officeId === undefined ? 'all-offices' : `office-${body.officeId}`;
    return {
      status: 200,
      body: csvFile(HEADER, rows),
      headers: { 'content-type': CSV_TYPE, 'content-disposition': contentDisposition('attachment', `funding-${where}-${fileDate(new Date())}.csv`) },
    };
  },

  async Funding_GetSummary({ body, caller, services }) {
    const { db } = services;
    const [figures, bank, choices] = await Promise.all([
      fundingFigures(db, body.officeId),
      body.officeId === undefined ? Promise.resolve(null) : bankOf(db, body.officeId),
      // The tracker follows one location at a time for office users (its reconciling acts on the office signed into).
      officeChoices(db, caller, undefined, 'seeFunding'),
    ]);
    return { status: 200, body: { ...figures, bank, choices: { offices: choices.map((c) => ({ value: Number(c.value), label: c.label })) } } };
  },

  async Funding_Reconcile({ body, caller, services }) {
    return { status: 200, body: { success: true, message: await reconcileDeposits(services.db, caller, body) } };
  },
};
