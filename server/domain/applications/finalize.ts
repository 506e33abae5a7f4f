import { eq, sql } from 'drizzle-orm';
import type { components } from '../../../codegen/generated/api.ts';
import type { Db } from '../../db/index.ts';
import { applications } from '../../db/schema.ts';
import type { Caller } from '../../http/caller.ts';
import { toCents } from '../values.ts';
import { displayFlags } from './status.ts';
import { fieldError, lockApplication, notAllowedNow, writeLogs } from './records.ts';
import { enqueueLenderOrder } from './lender-orders.ts';
import { recordApplicationChange } from '../../events/application-events.ts';
import { depositAfterRequest } from './funding-steps.ts';

type Schemas = components['schemas'];

/**
 * App_FinalizeApp: the office confirms the loan amount of a signed application (ReadyToFinalize, the
 * showFinalizeButton flag). The amount may not exceed what the lender approved (§5), nor what the borrower signed
 * for: the application's amount while it is ReadyToFinalize (decision 0210). It may be less. The stage moves
 * to Finalized and, in the same transaction, on to SubmittedForFunding with the funding Initiated:
 * the platform's Office Funding queue picks it up from there (decision 0081). The lender is told by a job: it closes
 * the contract, then is asked to fund it (lender-orders.ts). The funding tracker counts the deposit from now, in the
 * lender's days to fund (`fundingDaysOf` its code).
 */
export async function finalizeApplication(
  db: Db,
  caller: Caller,
  body: Schemas['FinalizeApp'],
  fundingDaysOf: (lenderCode: string | null) => number | undefined,
): Promise<void> {
  const loanCents = toCents(body.loanAmount);
  await db.transaction(async (tx) => {
    const app = await lockApplication(tx, body.appId);
    if (!displayFlags(app).showFinalizeButton) throw notAllowedNow('be finalized');
    if (app.approvedAmount === null) throw notAllowedNow('be finalized without an approved amount');
    if (loanCents > app.approvedAmount) throw fieldError('loanAmount', 'loanExceedsApproved');
    if (loanCents > app.amount) throw fieldError('loanAmount', 'loanExceedsSigned');
    const requestedAt = new Date();
    const expectedDepositOn = depositAfterRequest(requestedAt, fundingDaysOf(app.lenderCode));
    const after = { stage: 'SubmittedForFunding' as const, amountCents: loanCents, isFinalized: true, fundingStatus: 'Initiated' as const };
    await tx
      .update(applications)
      .set({
        stage: after.stage, amount: loanCents, isFinalized: true, fundingStatus: after.fundingStatus, statusText: 'Submitted for funding',
        // The tracker's estimate, not the office's act: kept on the loan, not in the log's before and after.
        fundingRequestedAt: requestedAt, expectedDepositOn, updatedAt: sql`now()`,
      })
      .where(eq(applications.id, app.id));
    await recordApplicationChange(tx, app, { stage: after.stage, amount: loanCents });
    const contract = { contractStatus: app.contractStatus, contractSubStatus: app.contractSubStatus };
    await writeLogs(tx, app.id, caller, [
      {
        kind: 'Event',
        message: 'Application finalized',
        data: {
          before: { stage: app.stage, amountCents: app.amount, isFinalized: app.isFinalized, fundingStatus: app.fundingStatus },
          after,
          approvedAmountCents: app.approvedAmount,
          signedAmountCents: app.amount,
        },
      },
      { kind: 'Contract', message: 'Finalized by the office', data: { ...contract, stage: 'Finalized', loanAmountCents: loanCents } },
      { kind: 'Contract', message: 'Submitted for funding', data: { ...contract, stage: 'SubmittedForFunding', fundingStatus: 'Initiated' } },
    ]);
    await enqueueLenderOrder(tx, 'finalize', { appId: app.id });
  });
}
