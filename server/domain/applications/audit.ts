import { and, asc, eq } from 'drizzle-orm';
import type { components } from '../../../codegen/generated/api.ts';
import type { Db } from '../../db/index.ts';
import { applicationLenders, applications, appLogs, lenders, users } from '../../db/schema.ts';
import { labels } from '../../../codegen/generated/labels.ts';
import { toDollars, toUtc } from '../values.ts';
import { applicationNotFound } from './records.ts';
import { formatCents } from '../../../core/i18n.ts';
import { SOURCE_LANGUAGE } from '../../../core/current-language.ts';

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

/** The enumerations whose values a log's data holds, by key: they are shown in their words (x-labels). */
const WORDS_OF: Record<string, Readonly<Record<string, string>> | undefined> = {
  stage: labels.Stage,
  contractSubStatus: labels.ContractSubStatus,
  decisionStatus: labels.LenderDecision,
  fundingStatus: labels.FundingStatus,
  achStatus: labels.FundingStatus,
};
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const dollars = (cents: number) => formatCents(SOURCE_LANGUAGE.tag, cents);

/** A data key in words: `contractSubStatus` → 'contract sub status', `amountCents` → 'amount', `isFinalized` → 'finalized'. */
const keyWords = (key: string) =>
  key
    .replace(/Cents$/, '')
    .replace(/^is(?=[A-Z])/, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase();

/** One value of a log's data in words (lender codes as the lenders' names); undefined for record ids. */
function valueWords(key: string, value: unknown, lenderNames: ReadonlyMap<string, string>): string | undefined {
  if (value === null || value === undefined || value === '') return 'none';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'number') return key.endsWith('Cents') ? dollars(value) : value.toLocaleString('en-US');
  if (typeof value === 'string') return UUID.test(value) ? undefined : (WORDS_OF[key]?.[value] ?? (/^lenders?$/.test(key) ? lenderNames.get(value) : undefined) ?? value);
  if (Array.isArray(value)) return value.map((v) => valueWords(key, v, lenderNames)).filter((v) => v !== undefined).join(', ');
  return undefined;
}

/**
 * What a log line's data says, in words (issue 16: the audit log showed raw JSON with ids): 'stage: Ready to finalize →
 * Submitted for funding; amount: $2,500.00 → $2,750.00'. Record ids are left out (the log's own columns say who and
 * what); a change is its before and after; enumeration values are in their words.
 */
export function detailWords(data: Record<string, unknown>, lenderNames: ReadonlyMap<string, string> = new Map()): string | null {
  const before = (data.before ?? {}) as Record<string, unknown>;
  const after = (data.after ?? {}) as Record<string, unknown>;
  const parts: string[] = [];
  for (const key of [...new Set([...Object.keys(before), ...Object.keys(after)])]) {
    if (/Id$|^id$/.test(key)) continue;
    const from = valueWords(key, before[key], lenderNames);
    const to = valueWords(key, after[key], lenderNames);
    if (from !== undefined && to !== undefined && key in before && key in after) parts.push(`${keyWords(key)}: ${from} → ${to}`);
    else if (to !== undefined && key in after) parts.push(`${keyWords(key)}: ${to}`);
  }
  for (const [key, value] of Object.entries(data)) {
    if (key === 'before' || key === 'after' || /Id$|^id$/.test(key)) continue;
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      const inner = detailWords(value as Record<string, unknown>, lenderNames);
      if (inner) parts.push(`${keyWords(key)}: ${inner}`);
      continue;
    }
    const words = valueWords(key, value, lenderNames);
    if (words !== undefined) parts.push(`${keyWords(key)}: ${words}`);
  }
  return parts.length ? parts.join('; ') : null;
}

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
    const details = clip(detailWords(data, lenderName), 4000);
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
