import { and, asc, eq } from 'drizzle-orm';
import type { components } from '../../../codegen/generated/api.ts';
import type { Db } from '../../db/index.ts';
import { applicationLenders, applications, appLogs, lenders, users } from '../../db/schema.ts';
import { toDollars, toUtc } from '../values.ts';
import { applicationNotFound } from './records.ts';

type Schemas = components['schemas'];
type Decision = Schemas['LenderDecision'];

const DECISIONS: readonly Decision[] = ['Pending', 'Approved', 'Declined', 'PendingReview', 'Error', 'TimedOut'];
const STAGES: readonly Schemas['Stage'][] = [
  'NotApplicable', 'OfferSelected', 'SigningRequired', 'ReadyToFinalize', 'Finalized', 'SubmittedForFunding', 'Funded',
  'NeedsAttention', 'Expired', 'Cancelled', 'Refund', 'Review', 'Declined',
];
const SUB_STATUSES: readonly Schemas['ContractSubStatus'][] = [
  'NotApplicable', 'ESignLinkSent', 'ESignGenerated', 'KBAPending', 'KBAPassed', 'KBAFailed', 'RefundSubmitted',
  'RefundProcessing', 'RefundCompleted', 'RefundCancelled', 'TermsPresented', 'PaymentMethodPresented',
  'AgreementPresented', 'FundingApproved', 'FundsReleased', 'Booked',
];

const clip = (text: string | null, max: number) => (text === null ? null : [...text].slice(0, max).join(''));
const pick = <T extends string>(list: readonly T[], value: unknown): T | undefined => (list.includes(value as T) ? (value as T) : undefined);
const text = (value: unknown) => (typeof value === 'string' ? value : null);

/** What a log line's actor reads as: the staff member's name, Borrower or System. */
function userName(actor: string | null, name: string | null): string | null {
  if (name) return clip(name, 100);
  if (actor === 'borrower') return 'Borrower';
  if (actor === 'system') return 'System';
  return clip(actor, 100);
}

/**
 * AdminApps_GetAppAuditLogs: the application's event, decision and contract logs, oldest first.
 * Decision lines are completed from the lender's answer (reason, the lender's request id); contract
 * lines carry the stage and sub-status they moved to, or the application's current ones for lines
 * written before they were recorded.
 */
export async function auditLogs(db: Db, appId: number): Promise<Schemas['AuditLogs']> {
  const [app] = await db
    .select({ stage: applications.stage, contractStatus: applications.contractStatus, contractSubStatus: applications.contractSubStatus })
    .from(applications)
    .where(eq(applications.id, appId));
  if (!app) throw applicationNotFound();
  const [rows, answers, lenderRows] = await Promise.all([
    db
      .select({ log: appLogs, firstName: users.firstName, lastName: users.lastName })
      .from(appLogs)
      .leftJoin(users, eq(users.email, appLogs.actor))
      .where(eq(appLogs.appId, appId))
      .orderBy(asc(appLogs.createdAt), asc(appLogs.id)),
    db
      .select({ code: lenders.code, reason: applicationLenders.adverseActionReason, requestId: applicationLenders.lenderAppId })
      .from(applicationLenders)
      .innerJoin(lenders, eq(lenders.id, applicationLenders.lenderId))
      .where(and(eq(applicationLenders.appId, appId))),
    db.select({ code: lenders.code, name: lenders.name }).from(lenders),
  ]);
  const answerOf = new Map(answers.map((a) => [a.code, a]));
  const lenderName = new Map(lenderRows.map((l) => [l.code, l.name]));

  const result: Schemas['AuditLogs'] = { appId, events: [], decisions: [], contracts: [] };
  for (const { log, firstName, lastName } of rows) {
    const data = log.data ?? {};
    const details = Object.keys(data).length > 0 ? clip(JSON.stringify(data), 4000) : null;
    const createdAtUtc = toUtc(log.createdAt);
    if (log.kind === 'Event') {
      result.events.push({
        id: log.id, kind: 'Event', createdAtUtc, userName: userName(log.actor, firstName ? `${firstName} ${lastName}` : null),
        action: clip(log.message, 100)!, details,
      });
    } else if (log.kind === 'Decision') {
      const code = text(data.lender) ?? '';
      const answer = answerOf.get(code);
      result.decisions.push({
        id: log.id, kind: 'Decision', createdAtUtc, lenderCode: clip(code, 25)!, lenderName: clip(lenderName.get(code) ?? log.message, 100)!,
        decisionStatus: pick(DECISIONS, data.status) ?? 'Pending',
        approvedAmount: typeof data.approvedAmountCents === 'number' ? toDollars(data.approvedAmountCents) : null,
        adverseActionReason: clip(text(data.adverseActionReason) ?? answer?.reason ?? null, 500),
        requestId: clip(text(data.requestId) ?? answer?.requestId ?? null, 100),
        details,
      });
    } else {
      result.contracts.push({
        id: log.id, kind: 'Contract', createdAtUtc,
        contractStatus: clip(text(data.contractStatus) ?? app.contractStatus, 50),
        contractSubStatus: pick(SUB_STATUSES, data.contractSubStatus) ?? app.contractSubStatus,
        stage: pick(STAGES, data.stage) ?? app.stage,
        details: clip(details === null ? log.message : `${log.message}: ${details}`, 4000),
      });
    }
  }
  return result;
}
