import { and, eq, inArray, sql } from 'drizzle-orm';
import type { components } from '../../../codegen/generated/api.ts';
import type { Db } from '../../db/index.ts';
import { applicationLenders, applications, offers } from '../../db/schema.ts';
import { decryptPii, encryptPii, last4 } from '../../crypto/pii.ts';
import type { Caller } from '../../http/caller.ts';
import { HttpProblem } from '../../http/problem.ts';
import { askLenders, type WaterfallAnswer, type WaterfallEntry } from '../../lenders/waterfall.ts';
import { whileAsking } from '../../lenders/http/news.ts';
import type { Services } from '../../services.ts';
import { appLenderAnswers } from '../applications/followup.ts';
import { calendarDate, lockApplication, staffUserId, writeLogs, type ApplicationRecord, type LogEntry } from '../applications/records.ts';
import { displayFlags } from '../applications/status.ts';
import { toCents } from '../values.ts';
import { ineligibility, patientOnlyApplication, type Borrower } from '../../../core/eligibility.ts';
import { stateRules } from '../../descriptors/states.ts';
import type { LenderCatalogue } from '../../lenders/registry.ts';
import { sendAdverseActionNotice } from '../applications/adverse-action.ts';
import { applicantOf } from './applicant.ts';
import { catalogueOf, officeLenderEntries } from '../offices/office-lenders.ts';
import { officeOf, requireApprovedOffice } from '../offices/lookup.ts';
import { nextRoute } from './routing.ts';
import { requirePersonalEmail } from './send.ts';
import { enqueueDecisionPoll } from './decision-polls.ts';
import { recordApplicationChange } from '../../events/application-events.ts';
import { recordApplicationEvent } from '../../events/application-events.ts';

type Schemas = components['schemas'];
type SubmitBody = Schemas['SubmitApp'];

const ssnDigits = (ssn: string) => ssn.replace(/\D/g, '');

/** Stages in which the borrower's form may be submitted (again): never answered, no offers, declined, expired. */
function canSubmit(app: ApplicationRecord): boolean {
  return (app.stage === 'NotApplicable' && !app.isOfferMatch) || app.stage === 'Declined' || app.stage === 'Expired';
}

/** The application and, for an existing one, that the body's office is its office. */
async function existing(db: Db, body: { id: number; officeId: number }): Promise<ApplicationRecord | undefined> {
  if (body.id === 0) return undefined;
  const [app] = await db.select().from(applications).where(eq(applications.id, body.id));
  if (!app) throw new HttpProblem(404, 'The application could not be found.');
  if (app.officeId !== body.officeId) throw HttpProblem.field('officeId', 'This field does not match the application.');
  return app;
}

function ssnMismatch(app: ApplicationRecord | undefined, piiKey: Buffer, ssn: string): boolean {
  if (!app?.ssnEnc) return false;
  return ssnDigits(decryptPii(piiKey, app.ssnEnc)) !== ssnDigits(ssn);
}

/**
 * App_ValidateBorrower: the contract's schema has already checked every §5 rule of the form (a 400
 * naming the field otherwise); here the rules that need stored data — the personal e-mail — and the
 * SSN against the one on file (docs/decisions/0106).
 */
export async function validateBorrower(services: Services, body: SubmitBody): Promise<Schemas['ValidateBorrowerResult']> {
  const app = await existing(services.db, body);
  await requirePersonalEmail(services.db, body.officeId, body.email);
  if (body.serviceDate) calendarDate(body.serviceDate, 'serviceDate');
  calendarDate(body.dob, 'dob');
  const isSSNMismatch = ssnMismatch(app, services.settings.piiKey, body.ssn);
  return { isValid: !isSSNMismatch, isSSNMismatch };
}

/** The borrower's form as application columns (personal data encrypted). */
function formColumns(body: SubmitBody, piiKey: Buffer) {
  return {
    firstName: body.firstName.trim(),
    lastName: body.lastName.trim(),
    email: body.email?.toLowerCase() ?? null,
    mobilePhone: body.mobilePhone ?? null,
    homePhone: body.homePhone ?? null,
    streetAddress: body.address.streetAddress.trim(),
    suiteNo: body.address.suiteNo ?? null,
    city: body.address.city.trim(),
    state: body.address.state,
    zipCode: body.address.zipCode,
    dobEnc: encryptPii(piiKey, calendarDate(body.dob, 'dob')),
    ssnEnc: encryptPii(piiKey, ssnDigits(body.ssn)),
    last4Ssn: last4(body.ssn),
    annualIncome: toCents(body.annualIncome),
    otherIncome: body.additionalIncome === undefined ? null : toCents(body.additionalIncome),
    monthlyHousingPayment: body.monthlyHousingPayment === undefined ? null : toCents(body.monthlyHousingPayment),
    residenceStatus: body.residenceStatus,
    employmentStatus: body.employmentStatus,
    employerName: body.employerName ?? null,
    employmentMonths: body.monthsEmployed ?? null,
    isActiveMilitary: body.isActiveMilitary ?? false,
    amount: toCents(body.amount),
    serviceDate: body.serviceDate ? calendarDate(body.serviceDate, 'serviceDate') : null,
  };
}

/** A lender the borrower is not sent to, and why (decision 0213). */
interface NotSent {
  lender: string;
  reason: string;
}

/**
 * The lenders that may be asked about this borrower — the state they live in, their age there, the amount — and the
 * others with the reason. None eligible is a 409 that names every lender and reason, before anything is written.
 */
function eligibleEntries(entries: WaterfallEntry[], borrower: Borrower): { eligible: WaterfallEntry[]; notSent: NotSent[] } {
  const rules = stateRules();
  const today = new Date().toISOString().slice(0, 10);
  const eligible: WaterfallEntry[] = [];
  const notSent: NotSent[] = [];
  for (const entry of entries) {
    const reason = ineligibility(rules, entry.adapter.descriptor.eligibility, borrower, today);
    if (reason) notSent.push({ lender: entry.adapter.descriptor.name, reason });
    else eligible.push(entry);
  }
  if (eligible.length === 0 && notSent.length) {
    throw HttpProblem.conflict(`No lender of the office can consider this application: ${notSent.map((n) => `${n.lender} ${n.reason}`).join('; ')}.`);
  }
  return { eligible, notSent };
}

/**
 * Where the office's state wants the patient alone to fill in the application (N.Y. Gen. Bus. Law §349-g), staff may
 * not submit it, new or again: the patient does, from the link the office sends (decision 0213).
 */
function refuseStaffWherePatientOnly(office: { state: string | null }): void {
  if (patientOnlyApplication(stateRules(), office.state)) {
    throw new HttpProblem(403, `In ${office.state}, the patient fills in the application: send the patient the application link (text or e-mail).`);
  }
}

const notSentLogs = (notSent: NotSent[]): LogEntry[] =>
  notSent.map((n) => ({ kind: 'Event' as const, message: `Not sent to ${n.lender}: it ${n.reason}`, data: { lender: n.lender, reason: n.reason } }));

/**
 * App_SubmitApp: saves the form (a new application for id 0) and runs the waterfall. The lenders'
 * answers are awaited outside any transaction (each at most LENDER_TIMEOUT_MS), then written together.
 * `language` is the one the form was filled in: what is written to the borrower later is in it (decision 0216).
 */
export async function submitApplication(services: Services, caller: Caller, body: SubmitBody, language: string | null = null): Promise<Schemas['AppResult']> {
  const { db, settings } = services;
  const catalogue = catalogueOf(services);
  const known = await existing(db, body);
  if (body.id === 0 || caller.kind === 'staff') {
    const office = body.id === 0 ? await requireApprovedOffice(db, body.officeId) : await officeOf(db, body.officeId);
    if (caller.kind === 'staff') refuseStaffWherePatientOnly(office);
  }
  await requirePersonalEmail(db, body.officeId, body.email);
  const active = await officeLenderEntries(db, catalogue, body.officeId, body.lenderCodes);
  if (active.length === 0) throw HttpProblem.conflict(body.lenderCodes ? 'None of these lenders is active for the office.' : 'The office has no active lenders.');
  const { eligible: entries, notSent } = eligibleEntries(active, { state: body.address.state, dob: calendarDate(body.dob, 'dob'), amountCents: toCents(body.amount) });
  const columns = formColumns(body, settings.piiKey);
  const waiting = { decisionStatus: 'Pending' as const, isPending: true, statusText: `Waiting for ${entries.length} lender${entries.length === 1 ? '' : 's'}` };
  const saved = await db.transaction(async (tx) => {
    let app: ApplicationRecord;
    if (known) {
      const locked = await lockApplication(tx, known.id);
      if (!canSubmit(locked)) throw HttpProblem.conflict('The application cannot be submitted again in its current state.');
      [app] = await tx
        .update(applications)
        .set({
          ...columns,
          language,
          isSsnMismatch: locked.isSsnMismatch || ssnMismatch(locked, settings.piiKey, body.ssn),
          enableRemoteSign: body.enableRemoteSign ?? locked.enableRemoteSign,
          ...waiting,
          updatedAt: sql`now()`,
        })
        .where(eq(applications.id, locked.id))
        .returning() as [ApplicationRecord];
      await tx.delete(offers).where(eq(offers.appId, app.id));
      await tx.delete(applicationLenders).where(eq(applicationLenders.appId, app.id));
    } else {
      const [row] = await tx
        .insert(applications)
        .values({ officeId: body.officeId, createdBy: staffUserId(caller), ...columns, language, ...waiting, inOfficeApply: body.inOfficeApply ?? caller.kind === 'staff', enableRemoteSign: body.enableRemoteSign ?? false })
        .returning();
      app = row!;
    }
    await tx.insert(applicationLenders).values(entries.map((e) => ({ appId: app.id, lenderId: e.lenderId, status: 'Pending' as const })));
    await writeLogs(tx, app.id, caller, [
      ...(known ? [] : [{ kind: 'Event' as const, message: 'Application created', data: { inOfficeApply: app.inOfficeApply, amountCents: app.amount } }]),
      // The borrower's credit report authorization named these lenders (the form's, FCRA §604(a)(2), decision 0218).
      { kind: 'Event', message: `Submitted to ${entries.length} lender${entries.length === 1 ? '' : 's'}`, data: { lenders: entries.map((e) => e.adapter.code), authorized: active.map((e) => e.adapter.descriptor.name), language } },
      ...notSentLogs(notSent),
    ]);
    if (!known) await recordApplicationEvent(tx, app, 'application.created', { inOfficeApply: app.inOfficeApply, amount: app.amount / 100 });
    return app;
  });
  return runWaterfall(services, caller, saved, entries);
}

/** Asks the lenders about the application as saved and records their answers; the application's result. */
async function runWaterfall(services: Services, caller: Caller, saved: ApplicationRecord, entries: WaterfallEntry[]): Promise<Schemas['AppResult']> {
  const { db, settings } = services;
  const appId = saved.id;
  // Until the answer is read back, a lender's callback that woke this waterfall keeps its own write for later.
  return whileAsking(appId, async () => {
    const answers = await askLenders(entries, applicantOf(saved, settings.piiKey), settings.lenderTimeoutMs);
    await db.transaction(async (tx) => {
      const app = await lockApplication(tx, appId);
      await recordAnswers(tx, app, caller, answers, catalogueOf(services));
    });
    return appResult(services, appId);
  });
}

export async function appResult(services: Services, appId: number): Promise<Schemas['AppResult']> {
  const [app] = await services.db.select().from(applications).where(eq(applications.id, appId));
  const state = { id: app!.id, stage: app!.stage, decisionStatus: app!.decisionStatus, isOfferMatch: app!.isOfferMatch, lenderCode: app!.lenderCode, lenderAppUrl: app!.lenderAppUrl, consented: false, kbaPassed: false };
  return {
    id: app!.id,
    stage: app!.stage,
    decisionStatus: app!.decisionStatus ?? 'Pending',
    isOfferMatch: app!.isOfferMatch,
    nextRoute: nextRoute(catalogueOf(services), state),
    lenders: await appLenderAnswers(services.db, appId),
  };
}

/**
 * Writes each lender's answer (status, adverse-action reason, offers) and the application's overall
 * result: offers → Approved, the office sees Offers Available; a review → Review; only declines →
 * Declined; lenders that failed or timed out without any other answer → NotApplicable to resubmit.
 */
export async function recordAnswers(tx: Db, app: ApplicationRecord, caller: Caller, answers: readonly WaterfallAnswer[], catalogue: LenderCatalogue): Promise<void> {
  const now = new Date();
  if (answers.length === 0) return;
  // One statement each for the answers, the old offers and the new ones, whatever the number of lenders.
  await tx
    .insert(applicationLenders)
    .values(answers.map((answer) => ({ appId: app.id, lenderId: answer.lenderId, status: answer.status, adverseActionReason: answer.adverseActionReason, creditScore: answer.creditScore ?? null, lenderAppId: answer.lenderAppId, respondedAt: now, latencyMs: answer.latencyMs })))
    .onConflictDoUpdate({
      target: [applicationLenders.appId, applicationLenders.lenderId],
      set: {
        status: sql`excluded.status`,
        adverseActionReason: sql`excluded.adverse_action_reason`,
        creditScore: sql`excluded.credit_score`,
        lenderAppId: sql`excluded.lender_app_id`,
        respondedAt: sql`excluded.responded_at`,
        latencyMs: sql`excluded.latency_ms`,
      },
    });
  await tx.delete(offers).where(and(eq(offers.appId, app.id), inArray(offers.lenderId, answers.map((a) => a.lenderId))));
  const offerRows = answers.flatMap((answer) =>
    answer.offers.map((offer) => ({
      appId: app.id,
      lenderId: answer.lenderId,
      productCode: offer.productCode,
      productName: offer.productName,
      productType: offer.productType,
      promoTerm: offer.promoTerm,
      term: offer.term,
      noInterestTerm: offer.noInterestTerm,
      minLine: offer.minLine,
      maxLine: offer.maxLine,
      promoApr: offer.promoApr,
      apr: offer.apr,
      interestRate: offer.interestRate,
      amount: offer.amount,
      monthlyPayment: offer.monthlyPayment,
      promoMonthlyPayment: offer.promoMonthlyPayment,
      originationFee: offer.originationFee,
      totalInterest: offer.totalInterest,
      totalCost: offer.totalCost,
      discountRate: offer.discountRate,
      discountAmount: offer.discountAmount,
      url: offer.url,
      isDefault: offer.isDefault,
      messages: offer.messages,
    })),
  );
  if (offerRows.length > 0) await tx.insert(offers).values(offerRows);
  for (const answer of answers) {
    if (answer.status === 'PendingReview' && answer.lenderAppId) await enqueueDecisionPoll(tx, app.id, answer.lenderId, answer.lenderAppId);
  }
  const logs: LogEntry[] = answers.map((answer) => ({
    kind: 'Decision',
    message: `${answer.code}: ${answer.status}`,
    data: {
      lender: answer.code,
      status: answer.status,
      requestId: answer.lenderAppId,
      adverseActionReason: answer.adverseActionReason,
      reasonCodes: answer.reasonCodes,
      approvedAmountCents: answer.approvedAmount,
      offers: answer.offers.length,
      latencyMs: answer.latencyMs,
    },
  }));
  await writeLogs(tx, app.id, { kind: 'anonymous' }, logs);
  await settleApplication(tx, app, caller, catalogue);
}

/**
 * The application's overall decision from all of its lenders' answers. Declined by every lender (a new decision): the one
 * adverse-action notice naming them all goes out in the same transaction (decision 0214).
 */
export async function settleApplication(tx: Db, app: ApplicationRecord, caller: Caller, catalogue: LenderCatalogue): Promise<void> {
  const rows = await tx
    .select({ status: applicationLenders.status })
    .from(applicationLenders)
    .where(eq(applicationLenders.appId, app.id));
  const offerRows = await tx.select({ maxLine: offers.maxLine, lenderId: offers.lenderId, createdAt: offers.createdAt }).from(offers).where(eq(offers.appId, app.id));
  const statuses = rows.map((r) => r.status);
  const lendersWithOffers = new Set(offerRows.map((o) => o.lenderId)).size;
  let change: Partial<typeof applications.$inferInsert>;
  if (offerRows.length > 0) {
    change = {
      decisionStatus: 'Approved', stage: 'NotApplicable', isOfferMatch: true, isPending: false,
      approvedAmount: Math.max(...offerRows.map((o) => o.maxLine ?? 0)),
      expiration: new Date(Date.now() + 30 * 86_400_000),
      statusText: `${offerRows.length} offer${offerRows.length === 1 ? '' : 's'} from ${lendersWithOffers} lender${lendersWithOffers === 1 ? '' : 's'}`,
    };
  } else if (statuses.includes('PendingReview') || statuses.includes('Pending')) {
    change = { decisionStatus: 'PendingReview', stage: 'Review', isOfferMatch: false, isPending: true, approvedAmount: null, statusText: 'A lender is reviewing the application' };
  } else if (statuses.length > 0 && statuses.every((s) => s === 'Declined')) {
    change = { decisionStatus: 'Declined', stage: 'Declined', isOfferMatch: false, isPending: false, approvedAmount: null, statusText: 'No offers available' };
  } else {
    change = { decisionStatus: 'Error', stage: 'NotApplicable', isOfferMatch: false, isPending: false, approvedAmount: null, statusText: 'Some lenders did not answer: submit again' };
  }
  const stage = change.stage!;
  await tx.update(applications).set({ ...change, updatedAt: sql`now()` }).where(eq(applications.id, app.id));
  await recordApplicationChange(tx, app, change);
  const entries: LogEntry[] = [{ kind: 'Event', message: `Lenders answered: ${change.statusText}`, data: { decisionStatus: change.decisionStatus, offers: offerRows.length } }];
  if (stage !== app.stage) {
    entries.push({ kind: 'Contract', message: `Stage ${stage}`, data: { stage, contractSubStatus: app.contractSubStatus, contractStatus: app.contractStatus, before: { stage: app.stage } } });
  }
  // Each decision to decline is noticed once: a resubmission declined again is a new decision, a repeat callback is not.
  if (change.decisionStatus === 'Declined' && app.decisionStatus !== 'Declined') entries.push(await sendAdverseActionNotice(tx, catalogue, app));
  await writeLogs(tx, app.id, caller, entries);
}

/** App_SubmitToLender: the office asks more (or the same) active lenders of the office. */
export async function submitToLenders(services: Services, caller: Caller, body: Schemas['SubmitToLender']): Promise<Schemas['AppResult']> {
  const { db } = services;
  const [app] = await db.select().from(applications).where(eq(applications.id, body.appId));
  if (!app) throw new HttpProblem(404, 'The application could not be found.');
  if (!displayFlags(app).showSubmitToLendersButton) throw HttpProblem.conflict('The application cannot be submitted to lenders in its current state.');
  const applicant = applicantOf(app, services.settings.piiKey);
  const active = await officeLenderEntries(db, catalogueOf(services), app.officeId, body.lenderCodes);
  const missing = body.lenderCodes.filter((code) => !active.some((e) => e.adapter.code === code));
  if (missing.length) throw HttpProblem.field('lenderCodes', `Not an active lender of the office: ${missing.join(', ')}.`);
  const { eligible: entries, notSent } = eligibleEntries(active, { state: applicant.address.state, dob: applicant.dob, amountCents: applicant.amount });
  const saved = await db.transaction(async (tx) => {
    const locked = await lockApplication(tx, app.id);
    if (!displayFlags(locked).showSubmitToLendersButton) throw HttpProblem.conflict('The application cannot be submitted to lenders in its current state.');
    const ids = entries.map((e) => e.lenderId);
    await tx.delete(offers).where(and(eq(offers.appId, app.id), inArray(offers.lenderId, ids)));
    await tx
      .insert(applicationLenders)
      .values(entries.map((e) => ({ appId: app.id, lenderId: e.lenderId, status: 'Pending' as const })))
      .onConflictDoUpdate({ target: [applicationLenders.appId, applicationLenders.lenderId], set: { status: 'Pending', adverseActionReason: null, creditScore: null, respondedAt: null } });
    await writeLogs(tx, app.id, caller, [
      { kind: 'Event', message: `Submitted to ${entries.length} more lender${entries.length === 1 ? '' : 's'}`, data: { lenders: entries.map((e) => e.adapter.code) } },
      ...notSentLogs(notSent),
    ]);
    return locked;
  });
  return runWaterfall(services, caller, saved, entries);
}
