import { timingSafeEqual } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { components } from '../../../codegen/generated/api.ts';
import { applicationLenders, applications, lenders, offers } from '../../db/schema.ts';
import type { Caller } from '../../http/caller.ts';
import { HttpProblem } from '../../http/problem.ts';
import { clientNetwork } from '../../http/client.ts';
import { recordSecurityEvent } from '../../http/security-events.ts';
import { lenderCallbackKey, signLenderCallback } from '../../../core/lenders/callback-signature.ts';
import { tellLenderNews, waterfallOver } from '../../lenders/http/news.ts';
import type { Services } from '../../services.ts';
import type { Application } from '../applications/detail.ts';
import { applicationWithRoute } from './application-read.ts';
import { appStipulations } from '../applications/followup.ts';
import { lockApplication } from '../applications/records.ts';
import { toDollars, toUtc } from '../values.ts';
import { offerList } from './offers.ts';
import { moveApplication } from '../applications/moves.ts';
import { adapterOf, catalogueOf } from '../offices/office-lenders.ts';
import { sha256Hex } from '../../esign/consent.ts';
import { enqueue } from '../../jobs/queue.ts';
import { createJobRunner } from '../../jobs/runner.ts';
import { CALLBACK_ATTEMPTS, CALLBACK_QUEUE, lenderNewsQueues, type CallbackResult } from './lender-news.ts';

type Schemas = components['schemas'];
type SubStatus = Schemas['ContractSubStatus'];

declare module 'fastify' {
  interface FastifyRequest {
    /** The exact bytes of the body, kept for App_ProcessLenderCallback's signature only (server/app.ts). */
    rawBody?: Buffer;
  }
}

/** A callback signed longer ago (or further ahead) than this is refused: a captured request cannot be replayed later. */
export const CALLBACK_TOLERANCE_SECONDS = 300;

// ---- App_ProcessLenderCallback --------------------------------------------------------------------

const unauthorized = (detail: string) => new HttpProblem(401, detail);

/** X-Lender-Signature over X-Lender-Timestamp + "." + the raw body, with the lender's own key (0020, 0110). */
export function verifyCallback(services: Services, request: FastifyRequest, lenderCode: string): void {
  const signature = request.headers['x-lender-signature'];
  const timestamp = request.headers['x-lender-timestamp'];
  if (typeof signature !== 'string' || typeof timestamp !== 'string' || !request.rawBody) throw unauthorized('The callback signature is missing.');
  const age = Math.abs(Date.now() / 1000 - Number(timestamp));
  if (!Number.isFinite(age) || age > CALLBACK_TOLERANCE_SECONDS) throw unauthorized('The callback timestamp is outside the 5-minute window.');
  if (!catalogueOf(services).get(lenderCode)) throw unauthorized('The callback signature is not valid.');
  const expected = Buffer.from(signLenderCallback(lenderCallbackKey(services.settings, lenderCode), timestamp, request.rawBody));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw unauthorized('The callback signature is not valid.');
}

/** How long after a waiting pre-qualification's deadline the callback that woke it is applied. */
const AFTER_THE_WATERFALL_MS = 5_000;
/**
 * The longest a callback that woke a waterfall is held for that waterfall's answer before its backstop is written:
 * lenders time out their callbacks (the lender service after 10 s) and would send it again. Past it, the backstop is
 * written beside the waterfall, as it was before decision 0297.
 */
const BACKSTOP_WAIT_MS = 2_000;

/** A callback stored and not applied yet (it will be, by the job queue): the lender need not send it again. */
const ACCEPTED = { status: 202, body: { success: true, message: 'The callback is stored and will be applied shortly.' } } as const;

function callbackAnswer(result: CallbackResult, repeated: boolean): { status: 200; body: Schemas['SuccessResult'] } {
  if (result.status !== 200) throw new HttpProblem(result.status, result.detail);
  return { status: 200, body: { success: true, message: repeated ? 'This callback was already processed.' : result.message } };
}

/**
 * Takes a verified lender callback once (decision 0262): it is stored as a job keyed by the SHA-256 of its raw body
 * before it is applied, then applied at once by this process (or, when it woke a waterfall of this process, left to
 * that waterfall, the job a backstop: decision 0297). A repeat (a lender retrying, or a replay inside the
 * window) finds the first and changes nothing; a callback that could not be applied now (the lender's status call
 * failed, the database was busy) answers 202 and is applied by the queue, after a restart too.
 */
export async function processCallback(services: Services, body: Schemas['LenderCallback'], request: FastifyRequest) {
  try {
    verifyCallback(services, request, body.lenderCode);
  } catch (error) {
    // A refused callback is kept for the security audit: someone may be forging a lender's decisions.
    if (error instanceof HttpProblem) await recordSecurityEvent(services.db, { kind: 'lender-callback-refused', actor: `lender:${body.lenderCode}`, ip: clientNetwork(request), detail: { reason: error.detail ?? error.message, appId: body.appId } });
    throw error;
  }
  // A pre-qualification of this process waiting on this lender's decision reads it now, and records it with the other
  // lenders' answers: the callback is then applied by the queue once that waterfall is over, as a backstop (it finds
  // the decision recorded), not beside it.
  const awaited = tellLenderNews(body.lenderCode, body.lenderAppId);
  // With an Idempotency-Key the call runs in that key's transaction (decision 0253), and so do the job and its work.
  const { db } = services;
  // The backstop is written once that waterfall has recorded its answers, so the borrower's answer does not wait for
  // it; until then the lender has no acknowledgement, and sends it again should this process stop. Not inside a key's
  // transaction: on the embedded database the waterfall's own writes would wait for it.
  if (awaited && db === services.database.db) await waterfallOver(body.appId, BACKSTOP_WAIT_MS);
  const delayMs = awaited ? services.settings.lenderTimeoutMs + AFTER_THE_WATERFALL_MS : 0;
  const stored = await enqueue(db, { queue: CALLBACK_QUEUE, key: sha256Hex(request.rawBody!), payload: { callback: body }, maxAttempts: CALLBACK_ATTEMPTS, delayMs });
  if (!stored.created) return stored.state === 'Done' ? callbackAnswer(stored.result as CallbackResult, true) : ACCEPTED;
  if (awaited) return ACCEPTED;
  const outcome = await createJobRunner(db, lenderNewsQueues(services), services.log).runNow(stored.id);
  return outcome && 'done' in outcome ? callbackAnswer(outcome.done as CallbackResult, false) : ACCEPTED;
}

// ---- App_UpdateContractStatus ---------------------------------------------------------------------

/**
 * The sub-statuses the web app reports as the borrower reads a step (docs/decisions/0111); every other
 * sub-status is moved by the server itself (e-sign, KBA, refunds, funding), and the contract status by
 * the lender. A move the table does not list answers 409.
 */
const PRESENTED: Partial<Record<SubStatus, { stages: readonly string[]; from: readonly SubStatus[]; text: string }>> = {
  TermsPresented: { stages: ['OfferSelected'], from: ['NotApplicable', 'TermsPresented'], text: 'Borrower is reading the terms' },
  AgreementPresented: { stages: ['SigningRequired'], from: ['KBAPassed', 'AgreementPresented'], text: 'Borrower is reading the loan agreement' },
  PaymentMethodPresented: { stages: ['ReadyToFinalize'], from: ['KBAPassed', 'AgreementPresented', 'PaymentMethodPresented', 'ESignLinkSent', 'NotApplicable'], text: 'Borrower is setting up payments' },
};

export async function updateContractStatus(services: Services, caller: Caller, body: Schemas['ContractStatusUpdate']): Promise<Application> {
  await services.db.transaction(async (tx) => {
    const app = await lockApplication(tx, body.appId);
    if (body.contractStatus !== undefined && body.contractStatus !== app.contractStatus) {
      throw HttpProblem.conflict('The contract status is reported by the lender and cannot be set here.');
    }
    const rule = PRESENTED[body.contractSubStatus];
    if (!rule || !rule.stages.includes(app.stage) || !rule.from.includes(app.contractSubStatus)) {
      throw HttpProblem.conflict(`The contract sub-status cannot move from ${app.contractSubStatus} to ${body.contractSubStatus} at stage ${app.stage}.`);
    }
    if (app.contractSubStatus === body.contractSubStatus) return;
    await moveApplication(tx, app, caller, { contractSubStatus: body.contractSubStatus, statusText: rule.text }, rule.text);
  });
  return applicationWithRoute(services, body.appId);
}

// ---- App_GetLenderApp -----------------------------------------------------------------------------

export async function lenderApplication(services: Services, appId: number): Promise<Schemas['LenderApp']> {
  const { db } = services;
  const [app] = await db.select().from(applications).where(eq(applications.id, appId));
  if (!app) throw new HttpProblem(404, 'The application could not be found.');
  const adapter = adapterOf(catalogueOf(services), app.lenderCode);
  const [lender] = await db.select().from(lenders).where(eq(lenders.id, app.lenderId!));
  const [answer] = await db.select().from(applicationLenders).where(and(eq(applicationLenders.appId, appId), eq(applicationLenders.lenderId, app.lenderId!)));
  const all = await offerList(services, appId, undefined);
  const decision = answer?.status ?? 'Pending';
  const products = adapter.descriptor.sandbox.products;
  const lines = await db.select({ maxLine: offers.maxLine }).from(offers).where(and(eq(offers.appId, appId), eq(offers.lenderId, app.lenderId!)));
  const line = lines.length ? Math.max(...lines.map((l) => l.maxLine ?? 0)) : null;
  return {
    appId,
    lenderCode: adapter.code,
    lenderName: lender?.name ?? adapter.descriptor.name,
    lenderAppId: answer?.lenderAppId ?? null,
    lenderAppUrl: app.lenderAppUrl,
    decisionStatus: decision,
    disposition: answer
      ? {
          lenderCode: adapter.code,
          lenderName: (lender?.name ?? adapter.descriptor.name).slice(0, 100),
          decision,
          adverseActionReason: answer.adverseActionReason,
          reasonCodes: [],
          decidedAtUtc: answer.respondedAt ? toUtc(answer.respondedAt) : null,
        }
      : null,
    offers: all.filter((offer) => offer.lenderCode === adapter.code),
    creditCardPlans: products
      .filter((p) => p.promoTerm)
      .map((p, index) => ({
        planCode: p.code,
        name: p.name,
        description: (p.messages ?? []).join(' ') || null,
        promoTerm: p.promoTerm ?? null,
        promoAPR: p.promoApr ?? null,
        apr: p.apr,
        minAmount: p.minAmount,
        maxAmount: line === null ? p.maxAmount : Math.min(p.maxAmount, toDollars(line)),
        isDefault: index === 0,
      })),
    stipulations: await appStipulations(db, appId),
  };
}
