import { createHmac } from 'node:crypto';
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/index.ts';
import { appLogs, applications, kbaQuizzes, lenders, linkTokens, officeLenders, offices } from '../../db/schema.ts';
import { decryptPii } from '../../crypto/pii.ts';
import type { Caller } from '../../http/caller.ts';
import { HttpProblem } from '../../http/problem.ts';
import { chain, type ChainedEvent, type ESignEventType } from '../../esign/audit.ts';
import { lenderCatalogue, type LenderCatalogue } from '../../lenders/registry.ts';
import type { Applicant, LenderAdapter } from '../../lenders/types.ts';
import type { WaterfallEntry } from '../../lenders/waterfall.ts';
import type { Services } from '../../services.ts';
import { outboxDispatcher } from '../../notify/outbox.ts';
import { newToken, tokenHash } from '../../identity/secrets.ts';
import { writeLogs, type ApplicationRecord, type LogEntry } from '../applications/records.ts';
import { nextRoute, routePath, type JourneyState } from './routing.ts';

/** Shared parts of the borrower journey (docs/decisions/0100-0119). */

export const catalogueOf = (services: Services): LenderCatalogue => lenderCatalogue(services.settings);

/** After a commit that queued messages: deliver now when SMTP / an SMS gateway is configured. */
export function kickOutbox(services: Services): void {
  outboxDispatcher(services.db, services.settings, services.log).kick();
}

export function conflict(detail: string): HttpProblem {
  return new HttpProblem(409, detail);
}

/** A field error with a given text (server rules of the journey). */
export function fieldProblem(field: string, text: string): HttpProblem {
  return HttpProblem.validation({ [field]: [text] });
}

/** Where a request came from, for the e-sign audit trail. */
export function clientOf(request: FastifyRequest): { ip: string | null; userAgent: string | null } {
  const agent = request.headers['user-agent'];
  return { ip: request.ip ?? null, userAgent: typeof agent === 'string' ? agent.slice(0, 300) : null };
}

// ---- applicant ----------------------------------------------------------------------------------

/** The applicant as a lender sees it; 409 when the borrower has not completed the application yet. */
export function applicantOf(app: ApplicationRecord, piiKey: Buffer): Applicant {
  if (!app.ssnEnc || !app.dobEnc || !app.streetAddress || !app.city || !app.state || !app.zipCode || app.annualIncome === null) {
    throw conflict('The borrower has not completed the application yet.');
  }
  return {
    appId: app.id,
    firstName: app.firstName,
    lastName: app.lastName,
    email: app.email,
    mobilePhone: app.mobilePhone,
    homePhone: app.homePhone,
    address: { streetAddress: app.streetAddress, suiteNo: app.suiteNo, city: app.city, state: app.state, zipCode: app.zipCode },
    dob: decryptPii(piiKey, app.dobEnc),
    ssn: decryptPii(piiKey, app.ssnEnc).replace(/\D/g, ''),
    annualIncome: app.annualIncome,
    additionalIncome: app.otherIncome,
    monthlyHousingPayment: app.monthlyHousingPayment,
    employmentStatus: app.employmentStatus,
    employerName: app.employerName,
    monthsEmployed: app.employmentMonths,
    residenceStatus: app.residenceStatus,
    isActiveMilitary: app.isActiveMilitary,
    amount: app.amount,
    serviceDate: app.serviceDate,
  };
}

// ---- lenders of an office -----------------------------------------------------------------------

/**
 * The lenders the office works with today: its link is Completed and enabled, the lender is active,
 * and a lender file serves it. Optionally only the codes named.
 */
export async function officeLenderEntries(db: Db, catalogue: LenderCatalogue, officeId: number, codes?: readonly string[]): Promise<WaterfallEntry[]> {
  const rows = await db
    .select({ id: lenders.id, code: lenders.code, discountRate: officeLenders.discountRate })
    .from(officeLenders)
    .innerJoin(lenders, eq(lenders.id, officeLenders.lenderId))
    .where(and(eq(officeLenders.officeId, officeId), eq(officeLenders.status, 'Completed'), eq(officeLenders.isEnabled, true), eq(lenders.isActive, true)))
    .orderBy(asc(officeLenders.numOrder), asc(lenders.code));
  const entries: WaterfallEntry[] = [];
  for (const row of rows) {
    if (codes && !codes.includes(row.code)) continue;
    const adapter = catalogue.get(row.code);
    if (adapter) entries.push({ adapter, lenderId: row.id, discountRate: row.discountRate });
  }
  return entries;
}

export async function discountRateOf(db: Db, officeId: number, lenderId: number): Promise<number | null> {
  const [row] = await db
    .select({ rate: officeLenders.discountRate })
    .from(officeLenders)
    .where(and(eq(officeLenders.officeId, officeId), eq(officeLenders.lenderId, lenderId)));
  return row?.rate ?? null;
}

export function adapterOf(catalogue: LenderCatalogue, code: string | null): LenderAdapter {
  const adapter = code ? catalogue.get(code) : undefined;
  if (!adapter) throw conflict('No lender has been selected for this application yet.');
  return adapter;
}

export async function officeOf(db: Db, officeId: number) {
  const [office] = await db.select().from(offices).where(eq(offices.id, officeId));
  if (!office) throw new HttpProblem(404, 'The office could not be found.');
  return office;
}

/** New applications need an office that is approved and active (the 'New Application' button's rule). */
export async function requireApprovedOffice(db: Db, officeId: number) {
  const office = await officeOf(db, officeId);
  if (!office.isApproved || !office.isActive) throw conflict('The office must be approved and active to start applications.');
  return office;
}

// ---- state changes ------------------------------------------------------------------------------

type AppChange = Partial<typeof applications.$inferInsert>;

/**
 * Writes a change of the application with its audit lines: an Event line saying what happened, and a
 * Contract line whenever the stage or the sub-status moves (what the office's lists and detail read).
 */
export async function moveApplication(tx: Db, app: ApplicationRecord, caller: Caller, change: AppChange, event: string, data: Record<string, unknown> = {}): Promise<void> {
  await tx.update(applications).set({ ...change, updatedAt: sql`now()` }).where(eq(applications.id, app.id));
  const entries: LogEntry[] = [{ kind: 'Event', message: event, data }];
  const stage = change.stage ?? app.stage;
  const subStatus = change.contractSubStatus ?? app.contractSubStatus;
  const contractStatus = change.contractStatus === undefined ? app.contractStatus : change.contractStatus;
  if (stage !== app.stage || subStatus !== app.contractSubStatus || contractStatus !== app.contractStatus) {
    entries.push({
      kind: 'Contract',
      message: event,
      data: {
        stage,
        contractSubStatus: subStatus,
        contractStatus,
        before: { stage: app.stage, contractSubStatus: app.contractSubStatus, contractStatus: app.contractStatus },
        ...(app.lenderCode || change.lenderCode ? { lender: change.lenderCode ?? app.lenderCode } : {}),
      },
    });
  }
  await writeLogs(tx, app.id, caller, entries);
}

// ---- link tokens --------------------------------------------------------------------------------

export const hashToken = tokenHash;

/** A single-use link token (256 bits), stored as its SHA-256 only. */
export async function issueLinkToken(tx: Db, appId: number, ttlHours: number): Promise<string> {
  const token = newToken();
  await tx.insert(linkTokens).values({ tokenHash: tokenHash(token), appId, expiresAt: new Date(Date.now() + ttlHours * 3_600_000) });
  return token;
}

/** The borrower sign-in page of the application with the link token: `PUBLIC_URL/#/app/auth/{id}?t=…`. */
/** The borrower's link; `language` (kept with the application) opens it in theirs (decision 0216). */
export function borrowerLink(publicUrl: string, appId: number, token: string, language: string | null = null): string {
  return `${publicUrl}/#${routePath('app-auth-id', { id: appId })}?t=${token}${language ? `&lang=${language}` : ''}`;
}

// ---- e-sign audit events (app_logs, data.esign) -------------------------------------------------

/** The ceremony's events for the application's current contract, in order. */
export async function esignEvents(db: Db, appId: number, contractId: string | null): Promise<ChainedEvent[]> {
  if (!contractId) return [];
  const rows = await db
    .select({ data: appLogs.data })
    .from(appLogs)
    .where(and(eq(appLogs.appId, appId), sql`${appLogs.data} -> 'esign' ->> 'contractId' = ${contractId}`))
    .orderBy(asc(appLogs.id));
  return rows.map((row) => (row.data as { esign: ChainedEvent }).esign);
}

const EVENT_MESSAGES: Record<ESignEventType, string> = {
  'documents-generated': 'Loan documents generated',
  'link-sent': 'Signing link sent to the borrower',
  opened: 'Borrower opened the loan documents',
  consented: 'Borrower gave the ESIGN consent',
  'kba-passed': 'Borrower passed the identity questions',
  'kba-failed': 'Borrower failed the identity questions',
  'document-viewed': 'Borrower viewed the loan agreement',
  signed: 'Borrower signed the loan agreement',
  completed: 'Signed loan agreement stored',
};

/** Appends an event to the ceremony's hash chain (the caller holds the application's row lock). */
export async function appendESignEvent(
  tx: Db,
  app: Pick<ApplicationRecord, 'id' | 'contractId'>,
  caller: Caller,
  client: { ip: string | null; userAgent: string | null },
  type: ESignEventType,
  data: Record<string, string | number | boolean | null> = {},
): Promise<ChainedEvent> {
  if (!app.contractId) throw conflict('No offer has been selected for this application yet.');
  const events = await esignEvents(tx, app.id, app.contractId);
  const event = chain(events[events.length - 1], { type, at: new Date().toISOString(), ip: client.ip, userAgent: client.userAgent, contractId: app.contractId, data });
  await writeLogs(tx, app.id, caller, [{ kind: 'Event', message: EVENT_MESSAGES[type], data: { esign: event } }]);
  return event;
}

// ---- KBA ----------------------------------------------------------------------------------------

export const KBA_ATTEMPTS = 2;
export const KBA_MINUTES = 15;

/** Answers are kept as HMACs under a key derived from the borrower token secret, per quiz and question. */
export function kbaAnswerHash(secret: Buffer, quizId: string, questionId: string, choiceId: string): string {
  const key = createHmac('sha256', secret).update('kba-answers/v1').digest();
  return createHmac('sha256', key).update(`${quizId}\n${questionId}\n${choiceId}`).digest('hex');
}

export async function kbaSummary(db: Db, appId: number): Promise<{ status: 'Pending' | 'Passed' | 'Failed' | null; failed: number }> {
  const rows = await db.select({ status: kbaQuizzes.status }).from(kbaQuizzes).where(eq(kbaQuizzes.appId, appId)).orderBy(desc(kbaQuizzes.id));
  const failed = rows.filter((r) => r.status === 'Failed').length;
  if (rows.some((r) => r.status === 'Passed')) return { status: 'Passed', failed };
  if (failed >= KBA_ATTEMPTS) return { status: 'Failed', failed };
  return { status: rows.length ? 'Pending' : null, failed };
}

// ---- where the borrower goes next ---------------------------------------------------------------

export async function journeyStateOf(db: Db, app: ApplicationRecord): Promise<JourneyState> {
  const events = app.stage === 'SigningRequired' ? await esignEvents(db, app.id, app.contractId) : [];
  const kba = app.stage === 'SigningRequired' ? await kbaSummary(db, app.id) : { status: null };
  return {
    id: app.id,
    stage: app.stage,
    decisionStatus: app.decisionStatus,
    isOfferMatch: app.isOfferMatch,
    lenderCode: app.lenderCode,
    lenderAppUrl: app.lenderAppUrl,
    consented: events.some((e) => e.type === 'consented'),
    kbaPassed: kba.status === 'Passed',
  };
}

export async function nextRouteOf(services: Services, appId: number): Promise<string | null> {
  const [app] = await services.db.select().from(applications).where(eq(applications.id, appId));
  if (!app) return null;
  return nextRoute(catalogueOf(services), await journeyStateOf(services.db, app));
}
