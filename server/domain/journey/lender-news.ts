import { and, eq } from 'drizzle-orm';
import type { components } from '../../../codegen/generated/api.ts';
import { applicationLenders, applications, lenders } from '../../db/schema.ts';
import type { Db } from '../../db/index.ts';
import { HttpProblem } from '../../http/problem.ts';
import type { ClaimedJob } from '../../jobs/queue.ts';
import type { JobOutcome, QueueWork } from '../../jobs/runner.ts';
import type { LenderEvent, LenderEventEffect, PrequalAnswer } from '../../lenders/types.ts';
import { contractEffectOf } from '../../lenders/events.ts';
import type { Services } from '../../services.ts';
import { lockApplication, writeLogs, type ApplicationRecord } from '../applications/records.ts';
import { moveApplication } from '../applications/moves.ts';
import { applicantOf } from './applicant.ts';
import { catalogueOf, discountRateOf } from '../offices/office-lenders.ts';
import { recordAnswers } from './prequal.ts';
import { fundedByLender, LENDER, refundTakenByLender } from './lender-money.ts';
import { DECISION_POLL, DECISION_POLL_QUEUE } from './decision-polls.ts';
import type { JobQueue } from '../../../codegen/generated/schemas.ts';

/**
 * What a lender tells after the request that asked it (decision 0262): its signed callbacks and the answers to the
 * portal's polls, both applied by jobs of the durable queue. A callback is stored before it is applied, so a portal
 * that stops mid-way applies it when it is back; a decision still under review is asked for again on a schedule, so a
 * lender without callbacks (or whose callback is lost) is heard too. Both meet in `applyDecision`, which takes a
 * decision once.
 */

type Schemas = components['schemas'];
type SubStatus = Schemas['ContractSubStatus'];
type LenderCallback = Schemas['LenderCallback'];

export const CALLBACK_QUEUE = 'lender-callback' satisfies JobQueue;

/** A callback that could not be applied is tried again for about a day and a half (12 attempts, doubling from 10 s to an hour). */
export const CALLBACK_ATTEMPTS = 12;

/** What an applied callback answers its lender, kept on its job for a repeat of the same callback. */
export type CallbackResult = { status: 200; message: string } | { status: 404 | 409; detail: string };


/** Contract status and sub-status a lender reports, and the stage they imply. */
export function contractChange(app: { stage: string; contractStatus: string | null }, contractStatus: string | null | undefined, subStatus: SubStatus | undefined) {
  const change: Partial<typeof applications.$inferInsert> = {};
  if (contractStatus !== undefined) change.contractStatus = contractStatus;
  if (subStatus !== undefined) change.contractSubStatus = subStatus;
  const status = (contractStatus ?? '').toLowerCase();
  if (status === 'signed' && (app.stage === 'OfferSelected' || app.stage === 'SigningRequired')) {
    change.stage = 'ReadyToFinalize';
    change.statusText = 'Signed at the lender: ready to finalize';
  } else if (status === 'cancelled' || status === 'canceled') {
    change.stage = 'Cancelled';
    change.statusText = 'Cancelled by the lender';
  }
  return change;
}

const stillDeciding = (status: string) => status === 'Pending' || status === 'PendingReview';

/**
 * A lender's later decision, under the application's lock: 'already recorded' when it says again what the row says;
 * refused once the borrower has chosen an offer (the offers cannot change under them).
 */
async function applyDecision(tx: Db, services: Services, app: ApplicationRecord, lender: { id: number; code: string }, lenderAppId: string, decision: PrequalAnswer, log: { message: string; data: Record<string, unknown> }): Promise<string> {
  const [answer] = await tx.select().from(applicationLenders).where(and(eq(applicationLenders.appId, app.id), eq(applicationLenders.lenderId, lender.id)));
  if (answer && answer.status === decision.status && answer.lenderAppId === lenderAppId) return 'This decision was already recorded.';
  if (app.stage !== 'NotApplicable' && app.stage !== 'Review' && app.stage !== 'Declined') {
    throw HttpProblem.conflict('A decision cannot change an application whose offer is already selected.');
  }
  await recordAnswers(tx, app, LENDER, [{ ...decision, code: lender.code, lenderId: lender.id, latencyMs: 0 }], catalogueOf(services));
  await writeLogs(tx, app.id, LENDER, [{ kind: 'Event', message: log.message, data: { ...log.data, status: decision.status } }]);
  return 'Processed.';
}

function eventOf(body: LenderCallback): LenderEvent {
  return {
    eventType: body.eventType,
    lenderAppId: body.lenderAppId,
    ...(body.decisionStatus !== undefined ? { decisionStatus: body.decisionStatus } : {}),
    ...(body.contractStatus !== undefined ? { contractStatus: body.contractStatus } : {}),
    ...(body.contractSubStatus !== undefined ? { contractSubStatus: body.contractSubStatus } : {}),
    ...(body.approvedAmount !== undefined ? { approvedAmount: body.approvedAmount } : {}),
    ...(body.fundedAmount !== undefined ? { fundedAmount: body.fundedAmount } : {}),
    ...(body.data !== undefined ? { data: body.data } : {}),
  };
}

/**
 * Applies a verified callback. The lender is asked what the callback means (a thin event is read back by its status
 * call) before the application is locked, so a slow lender never holds the row.
 */
async function applyCallback(services: Services, body: LenderCallback, callbackId: string): Promise<CallbackResult> {
  const { db } = services;
  const adapter = catalogueOf(services).get(body.lenderCode);
  const [app] = await db.select().from(applications).where(eq(applications.id, body.appId));
  const [lender] = await db.select({ id: lenders.id, code: lenders.code, name: lenders.name }).from(lenders).where(eq(lenders.code, body.lenderCode));
  if (!app) return { status: 404, detail: 'The application could not be found.' };
  const [asked] = lender ? await db.select().from(applicationLenders).where(and(eq(applicationLenders.appId, app.id), eq(applicationLenders.lenderId, lender.id))) : [];
  if (!adapter || !lender || !asked) return { status: 404, detail: 'The lender has no answer for this application.' };
  const event = eventOf(body);
  const applicant = app.ssnEnc ? applicantOf(app, services.settings.piiKey) : undefined;
  // An application not filled in yet has no applicant to decide on; what it says of the contract still counts.
  const effect: LenderEventEffect = applicant ? await adapter.callback(event, applicant, { discountRate: await discountRateOf(db, app.officeId, lender.id) }) : contractEffectOf(event);
  const logData = { callbackId, lender: body.lenderCode, eventType: body.eventType, occurredAtUtc: body.occurredAtUtc, requestId: body.lenderAppId, ...(body.data ? { details: body.data } : {}) };
  try {
    const message = await db.transaction(async (tx) => {
      const locked = await lockApplication(tx, app.id);
      const [answer] = await tx.select().from(applicationLenders).where(and(eq(applicationLenders.appId, app.id), eq(applicationLenders.lenderId, lender.id)));
      // Asked and not answered yet (its pre-qualification still waits, or was cut off by a restart): the signed callback
      // names the lender's id of this application.
      const unanswered = answer!.status === 'Pending' && answer!.lenderAppId === null;
      if (answer!.lenderAppId !== body.lenderAppId && !unanswered) throw HttpProblem.conflict("lenderAppId is not the lender's id of this application.");
      if (effect.decision) return applyDecision(tx, services, locked, lender, body.lenderAppId, effect.decision, { message: `Lender callback: ${body.eventType}`, data: logData });
      const money = body.eventType === 'Funding' || body.eventType === 'Refund';
      if (money || effect.contractStatus !== undefined || effect.contractSubStatus !== undefined) {
        if (locked.lenderId !== lender.id) throw HttpProblem.conflict("The lender is not the application's selected lender.");
        const funded = body.eventType === 'Funding' ? fundedByLender(locked, lender.name) : {};
        await moveApplication(tx, locked, LENDER, { ...contractChange(locked, effect.contractStatus, effect.contractSubStatus as SubStatus | undefined), ...funded }, `Lender callback: ${body.eventType}`, logData);
        if (body.eventType === 'Refund') return refundTakenByLender(tx, locked, lender.name, body.data);
        return 'Processed.';
      }
      await writeLogs(tx, app.id, LENDER, [{ kind: 'Event', message: `Lender callback: ${body.eventType}`, data: logData }]);
      return 'Recorded.';
    });
    return { status: 200, message };
  } catch (error) {
    if (error instanceof HttpProblem && (error.status === 404 || error.status === 409)) return { status: error.status, detail: error.detail ?? error.message };
    throw error;
  }
}

/** One poll of a decision under review: applied when the lender has decided, asked again later when it has not. */
async function pollDecision(services: Services, job: ClaimedJob): Promise<JobOutcome> {
  const { appId, lenderId, lenderAppId } = job.payload as { appId: number; lenderId: number; lenderAppId: string };
  const { db } = services;
  const [app] = await db.select().from(applications).where(eq(applications.id, appId));
  const [lender] = await db.select({ id: lenders.id, code: lenders.code }).from(lenders).where(eq(lenders.id, lenderId));
  const [answer] = await db.select().from(applicationLenders).where(and(eq(applicationLenders.appId, appId), eq(applicationLenders.lenderId, lenderId)));
  const adapter = lender ? catalogueOf(services).get(lender.code) : undefined;
  if (!app || !lender || !adapter || !answer || answer.lenderAppId !== lenderAppId || !stillDeciding(answer.status)) return { done: { outcome: 'no longer under review' } };
  const effect = await adapter.status({ appId, lenderAppId });
  const decision = effect?.decision;
  if (!decision || stillDeciding(decision.status) || decision.status === 'Error') {
    return { later: { delayMs: Math.min(DECISION_POLL.capMs, DECISION_POLL.firstMs * 2 ** job.attempts), reason: 'the lender has not decided yet' } };
  }
  try {
    const message = await db.transaction(async (tx) =>
      applyDecision(tx, services, await lockApplication(tx, appId), lender, lenderAppId, decision, { message: 'Lender decision read by the portal', data: { lender: lender.code, requestId: lenderAppId } }),
    );
    return { done: { outcome: message } };
  } catch (error) {
    if (error instanceof HttpProblem && error.status === 409) return { done: { outcome: error.detail ?? error.message } };
    throw error;
  }
}

/** The queues of lender news, for the process's job runner (server/domain/jobs.ts). */
export function lenderNewsQueues(services: Services): Record<string, QueueWork> {
  return {
    [CALLBACK_QUEUE]: {
      run: async (job) => ({ done: await applyCallback(services, job.payload.callback as LenderCallback, job.key!) }),
      retry: { baseMs: 10_000, capMs: 3_600_000 },
    },
    [DECISION_POLL_QUEUE]: { run: (job) => pollDecision(services, job), retry: { baseMs: DECISION_POLL.firstMs, capMs: DECISION_POLL.capMs } },
  };
}
