import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { encryptPii } from '../../server/crypto/pii.ts';
import { achSandboxDeposits, applications, files, lenders, officeLenders, officeOwners, offices, otpChallenges, refunds, userOffices, users } from '../../server/db/schema.ts';
import { bankNumberValues } from '../../server/domain/offices/enrollment.ts';
import { hashCode } from '../../server/domain/otp/challenge.ts';
import { issueInvite } from '../../server/domain/users/invites.ts';
import { issueLenderESignToken } from '../../server/domain/offices/lenders.ts';
import type { Harness } from '../support/harness.ts';
import { PRODUCT_OWNER, SECOND_OWNER } from '../support/demo-accounts.ts';
import { overlayHash } from '../../server/descriptors/live.ts';
import { ROOT } from '../../core/contract/documents.ts';
import { SAMPLE, uploadBody } from '../support/multipart.ts';
import { insertApplication, insertLenderTransaction, insertRefund, insertStipulation } from './apps-fixtures.ts';
import { JOURNEY_PLACEHOLDER, journeyExampleFixtures, journeyExamples, type JourneyExampleFixtures } from './journey-examples.ts';

/** Ids from the demo seed (server/seed/): offices from 100, applications from 1000. */
export const DEMO = {
  brightSmiles: 100,
  lakeside: 101,
  pendingOffice: 102,
  brightSmilesCode: 'brightsmiles',
  groupCode: 'demogroup',
} as const;

export interface Example {
  operationId: string;
  /** Staff e-mail to call as, or a borrower's application id. */
  as?: string;
  borrowerOf?: number;
  request: InjectOptions & { url: string };
}

const put = (url: string, payload: object): InjectOptions & { url: string } => ({ method: 'PUT', url, payload });
const post = (url: string, payload: object): InjectOptions & { url: string } => ({ method: 'POST', url, payload });
const get = (url: string): InjectOptions & { url: string } => ({ method: 'GET', url });

/** A studio draft: the error page's fallback title in other words. */
const errorPage = JSON.parse(readFileSync(join(ROOT, 'screens', 'pages', 'error.json'), 'utf8')) as Record<string, unknown>;
const STUDIO_DRAFT = { 'pages/error.json': { ...errorPage, title: { or: [{ var: 'route.query.message' }, 'Something went wrong'] } } };
/**
 * Pages of the platform admin's office screens whose titles a fixture changes, a different one for each set of fixtures
 * a process makes, so that undoing one set's publication (Studio_Revert) is never refused for another set's change of
 * the same file. The examples' last studio call makes the deployed files live again.
 */
const REVERTED_PAGES = ['admin-office-bank', 'admin-office-decision', 'admin-office-profile', 'admin-users-id'];
let studioFixtures = 0;
async function studioPublication(h: Harness): Promise<number> {
  const page = REVERTED_PAGES[studioFixtures++ % REVERTED_PAGES.length]!;
  const doc = JSON.parse(readFileSync(join(ROOT, 'screens', 'pages', `${page}.json`), 'utf8')) as { title: string };
  const published = await h.request(PRODUCT_OWNER, 'POST', '/api/Studio/Publish', { files: { [`pages/${page}.json`]: { ...doc, title: `${doc.title} (example)` } }, note: 'A publication the examples undo' });
  if (published.statusCode !== 200) throw new Error(`the studio fixture was not published: ${published.body}`);
  return (published.json() as { id: number }).id;
}
/** A change asked for review, which the examples' second owner comments on (Studio_DecideReview). */
async function studioReview(h: Harness): Promise<number> {
  const asked = await h.request(PRODUCT_OWNER, 'POST', '/api/Studio/AskReview', { files: STUDIO_DRAFT, note: 'A change the examples review', publishOutOfDate: true });
  if (asked.statusCode !== 200) throw new Error(`the studio review fixture was not asked: ${asked.body}`);
  return (asked.json() as { id: number }).id;
}
const upload = (url: string, body: ReturnType<typeof uploadBody>): InjectOptions & { url: string } => ({ method: 'POST', url, payload: body.payload, headers: body.headers });

/**
 * Records the write examples work on, made for the run so that they never change the demo rows other
 * tests read: an office in enrollment and a published office, both administered by a user of their own.
 */
export interface ExampleFixtures {
  /** Office admin of both offices. */
  adminEmail: string;
  /** An office in enrollment (New): the examples enroll it end to end. */
  officeId: number;
  /** An approved office with a public landing page and a logo. */
  publishedOfficeId: number;
  /** An enrollment document of officeId. */
  fileId: string;
  /** The owner of officeId, whose photo-id is on file (an enrollment needs one per owner, decision 0148). */
  ownerId: number;
  /** The logo of publishedOfficeId. */
  logoFileId: string;
  /** An approved office whose two sandbox micro-deposits, `deposits`, wait to be confirmed. */
  bankOfficeId: number;
  deposits: [number, number];
  /** Lender ids by code. */
  lenderIds: Record<string, number>;
  /** A studio publication of one page's title, which Studio_Revert undoes. */
  studioPublicationId: number;
  /** A change asked for review, still pending. */
  studioReviewId: number;
  /** A lender e-sign return token for officeId and lenders.ally. */
  eSignToken: string;
  /** Identity examples: see identityFixtures below. */
  identity: IdentityFixtures;
  /** Application follow-up, funding and refund examples: see appExampleFixtures below. */
  apps: AppExampleFixtures;
  /** Borrower-journey examples: see journey-examples.ts. */
  journey: JourneyExampleFixtures;
}

/**
 * Records the identity and user examples work on: a person invited to the published office (their
 * account, the pending link and the invitation token), and a passcode waiting for an application of
 * Lakeside (so that it is not the application other examples use).
 */
export interface IdentityFixtures {
  tag: string;
  inviteeEmail: string;
  inviteeUserId: string;
  inviteToken: string;
  /** A second person invited to the published office: their invitation is resent, then revoked. */
  pendingUserId: string;
  otpChallengeId: string;
  otpCode: string;
}

async function identityFixtures(h: Harness, publishedOfficeId: number): Promise<IdentityFixtures> {
  const db = h.database.db;
  const tag = randomBytes(4).toString('hex');
  const inviteeEmail = `invitee-${tag}@demo.test`;
  // An application without a challenge: a code used spends every challenge of its application, another set's too.
  const [otpApp] = await db
    .select({ id: applications.id })
    .from(applications)
    .where(and(eq(applications.officeId, DEMO.lakeside), sql`not exists (select 1 from otp_challenges where app_id = ${applications.id})`))
    .orderBy(desc(applications.id))
    .limit(1);
  const otpCode = '246810';
  return db.transaction(async (tx) => {
    const [invitee] = await tx.insert(users).values({ email: inviteeEmail, firstName: 'Ivy', lastName: 'Invitee', role: 'support', timeZone: 'CT' }).returning({ id: users.id });
    await tx.insert(userOffices).values({ userId: invitee!.id, officeId: publishedOfficeId, role: 'support', isInvited: true });
    const { token } = await issueInvite(tx, { officeId: publishedOfficeId, email: inviteeEmail, role: 'support', createdBy: null });
    const pendingEmail = `pending-${tag}@demo.test`;
    const [pending] = await tx.insert(users).values({ email: pendingEmail, firstName: 'Pat', lastName: 'Pending', role: 'sales', timeZone: 'CT' }).returning({ id: users.id });
    await tx.insert(userOffices).values({ userId: pending!.id, officeId: publishedOfficeId, role: 'sales', isInvited: true });
    await issueInvite(tx, { officeId: publishedOfficeId, email: pendingEmail, role: 'sales', createdBy: null });
    // A challenge of its own each time fixtures are made: the files that make them never spend one another's code.
    const otpChallengeId = randomUUID();
    const codeHash = hashCode(h.settings.borrowerTokenSecret, otpChallengeId, otpCode);
    await tx.insert(otpChallenges).values({ id: otpChallengeId, appId: otpApp!.id, channel: 'Sms', codeHash, expiresAt: new Date(Date.now() + 600_000) });
    return { tag, inviteeEmail, inviteeUserId: invitee!.id, inviteToken: token, pendingUserId: pending!.id, otpChallengeId, otpCode };
  });
}

const PLACEHOLDER: ExampleFixtures = {
  adminEmail: 'office.admin@demo.test',
  officeId: DEMO.brightSmiles,
  publishedOfficeId: DEMO.brightSmiles,
  fileId: '00000000-0000-4000-8000-000000000000',
  ownerId: 1,
  logoFileId: '00000000-0000-4000-8000-000000000000',
  bankOfficeId: DEMO.brightSmiles,
  deposits: [0.12, 0.34],
  lenderIds: {},
  studioPublicationId: 1,
  studioReviewId: 1,
  eSignToken: 'x'.repeat(16),
  identity: {
    tag: 'placeholder',
    inviteeEmail: 'office.support@demo.test',
    inviteeUserId: '00000000-0000-4000-8000-000000000000',
    inviteToken: '00000000-0000-4000-8000-000000000000',
    pendingUserId: '00000000-0000-4000-8000-000000000000',
    otpChallengeId: '00000000-0000-4000-8000-000000000000',
    otpCode: '000000',
  },
  apps: { officeId: DEMO.brightSmiles, awaitingRefundId: 1, openAppId: 1000, readyAppId: 1000, awaitingAppId: 1000, fundedAppId: 1000, refundedAppId: 1000, refundId: 1, transactionId: 1, deadJobId: 1, webhookEndpointId: 1, webhookDeliveryId: 1, spareEndpointId: 1, apiKeyId: 1, sentAppId: 1000 },
  journey: JOURNEY_PLACEHOLDER,
};

export async function exampleFixtures(h: Harness): Promise<ExampleFixtures> {
  const base = await officeExampleFixtures(h);
  return {
    ...base,
    studioPublicationId: await studioPublication(h),
    studioReviewId: await studioReview(h),
    identity: await identityFixtures(h, base.publishedOfficeId),
    apps: await appExampleFixtures(h, base.publishedOfficeId),
    journey: await journeyExampleFixtures(h, base.publishedOfficeId, base.adminEmail),
  };
}

async function officeExampleFixtures(h: Harness): Promise<Omit<ExampleFixtures, 'identity' | 'apps' | 'journey' | 'studioPublicationId' | 'studioReviewId'>> {
  const db = h.database.db;
  const tag = randomBytes(4).toString('hex');
  const adminEmail = `examples-${tag}@demo.test`;
  const lenderRows = await db.select({ id: lenders.id, code: lenders.code }).from(lenders).where(inArray(lenders.code, ['ally', 'gsky', 'lpoint']));
  const lenderIds = Object.fromEntries(lenderRows.map((l) => [l.code, l.id]));
  return db.transaction(async (tx) => {
    const [user] = await tx.insert(users).values({ email: adminEmail, firstName: 'Example', lastName: 'Admin', role: 'admin', timeZone: 'CT' }).returning({ id: users.id });
    const profile = {
      legalName: 'Example Dental PLLC', phone: '(512) 555-0100', category: 'Dental', businessType: 'LLC', taxId: '12-3456789',
      streetAddress: '100 Example Way', city: 'Austin', state: 'TX', zipCode: '78701', timeZone: 'CT' as const,
    };
    const [office] = await tx.insert(offices).values({ ...profile, name: `Example Enrollment ${tag}` }).returning({ id: offices.id });
    const approved = { enrollmentStatus: 'Approved' as const, isApproved: true, isReviewed: true, isEnrollmentCompleted: true };
    // Funding goes to verified bank accounts only (decision 0152).
    const [published] = await tx
      .insert(offices)
      .values({ ...profile, ...approved, name: `Example Published ${tag}`, code: `example_${tag}`, achProvider: 'sandbox', achVerifyStatus: 'Verified', achVerifiedAt: new Date() })
      .returning({ id: offices.id });
    const deposits: [number, number] = [0.12, 0.34];
    const accountId = `ba_example_${tag}`;
    const [bank] = await tx
      .insert(offices)
      .values({
        ...profile, ...approved, name: `Example Bank ${tag}`, ...bankNumberValues(h.settings.piiKey, '110000000', '000123456789'),
        achProvider: 'sandbox', achAccountId: accountId, achVerifyStatus: 'Pending', achDepositsSentAt: new Date(),
      })
      .returning({ id: offices.id });
    await tx.insert(achSandboxDeposits).values({ accountId, officeId: bank!.id, amountsEnc: encryptPii(h.settings.piiKey, deposits.map((dollars) => Math.round(dollars * 100)).join(',')) });
    const file = (officeId: number, kind: string, data: Buffer, contentType: string, fileName: string) => ({
      officeId, kind, fileName, contentType, sizeBytes: data.length, sha256: 'example', bytes: data, createdBy: user!.id,
    });
    const [document] = await tx.insert(files).values(file(office!.id, 'W9', SAMPLE.pdf, 'application/pdf', 'Formulaire W-9 — signé.pdf')).returning({ id: files.id });
    const [owner] = await tx
      .insert(officeOwners)
      .values({
        officeId: office!.id, firstName: 'Erin', lastName: 'Example', email: 'erin@example.test', mobilePhone: '(512) 555-0101', ownershipPercent: 100,
        dobEnc: encryptPii(h.settings.piiKey, '1975-04-12'), ssnEnc: encryptPii(h.settings.piiKey, '900-12-3456'), ssnLast4: '3456',
        streetAddress: '7 Residence Ln', city: 'Austin', state: 'TX', zipCode: '78704', isPrimary: true,
      })
      .returning({ id: officeOwners.id });
    await tx.insert(files).values({ ...file(office!.id, 'PhotoId', SAMPLE.pdf, 'application/pdf', 'erin-id.pdf'), ownerId: owner!.id });
    const [logo] = await tx.insert(files).values(file(published!.id, 'LandingLogo', SAMPLE.png, 'image/png', 'logo.png')).returning({ id: files.id });
    await tx.update(offices).set({ logoFileId: logo!.id }).where(eq(offices.id, published!.id));
    await tx.insert(userOffices).values([
      { userId: user!.id, officeId: office!.id, role: 'admin', isPrimary: true },
      { userId: user!.id, officeId: published!.id, role: 'admin', isPrimary: true },
      { userId: user!.id, officeId: bank!.id, role: 'admin', isPrimary: true },
    ]);
    await tx.insert(officeLenders).values([
      { officeId: office!.id, lenderId: lenderIds.ally!, status: 'OfficeSubmitted', numOrder: 1 },
      { officeId: office!.id, lenderId: lenderIds.gsky!, status: 'OfficeSubmitted', numOrder: 2 },
    ]);
    return {
      adminEmail,
      officeId: office!.id,
      publishedOfficeId: published!.id,
      fileId: document!.id,
      ownerId: owner!.id,
      logoFileId: logo!.id,
      bankOfficeId: bank!.id,
      deposits,
      lenderIds,
      eSignToken: await issueLenderESignToken(tx, h.settings.borrowerTokenSecret, office!.id, lenderIds.ally!),
    };
  });
}

/** The application of Bright Smiles Dental the examples act on: the first of the demo data with an offer selected. */
export async function exampleAppId(h: Harness): Promise<number> {
  const rows = await h.database.db.execute<{ id: number }>(sql`select id from applications where office_id = 100 and stage = 'OfferSelected' order by id limit 1`);
  return Number(rows.rows[0]!.id);
}

/**
 * A valid request for every implemented operation, made by a caller it allows, on the demo data.
 * The contract test requires one for each operation that is not pending.
 */
export function examples(appOfBrightSmiles: number, fixtures: ExampleFixtures = PLACEHOLDER): Example[] {
  const admin = 'office.admin@demo.test';
  const { officeId, lenderIds } = fixtures;
  const owner = fixtures.adminEmail;
  const address = { streetAddress: '100 Example Way', city: 'Austin', state: 'TX', zipCode: '78701' };
  return [
    { operationId: 'Health_GetHealth', request: get('/api/health') },
    { operationId: 'Auth_GetClientConfig', request: get('/auth-config.json') },
    // The studio: a harmless change published, its set read by its hash, then the deployed files again.
    { operationId: 'Descriptors_GetLive', request: get('/api/Descriptors/GetLive') },
    { operationId: 'Studio_GetFiles', as: PRODUCT_OWNER, request: get('/api/Studio/GetFiles') },
    { operationId: 'Studio_CheckDraft', as: PRODUCT_OWNER, request: post('/api/Studio/CheckDraft', { files: STUDIO_DRAFT }) },
    { operationId: 'Studio_TryLender', as: PRODUCT_OWNER, request: post('/api/Studio/TryLender', { files: {}, code: 'ally', sample: 'Approve', amount: 4500 }) },
    { operationId: 'Studio_SaveDraft', as: PRODUCT_OWNER, request: put('/api/Studio/SaveDraft', { files: { 'pages/error.json': '{ "title": "Something went wrong", ' } }) },
    { operationId: 'Studio_GetDrafts', as: PRODUCT_OWNER, request: get('/api/Studio/GetDrafts') },
    { operationId: 'Studio_AskReview', as: PRODUCT_OWNER, request: post('/api/Studio/AskReview', { files: STUDIO_DRAFT, note: 'A plainer title, for a second look', publishOutOfDate: true, publishAt: new Date(Date.now() + 86_400_000).toISOString() }) },
    { operationId: 'Studio_GetReviews', as: SECOND_OWNER, request: get('/api/Studio/GetReviews') },
    { operationId: 'Studio_DecideReview', as: SECOND_OWNER, request: post('/api/Studio/DecideReview', { id: fixtures.studioReviewId, decision: 'comment', comment: 'Would "Something went wrong" read better?' }) },
    { operationId: 'Studio_Revert', as: PRODUCT_OWNER, request: post('/api/Studio/Revert', { id: fixtures.studioPublicationId, note: 'The example publication undone' }) },
    { operationId: 'Studio_Publish', as: PRODUCT_OWNER, request: post('/api/Studio/Publish', { files: STUDIO_DRAFT, note: 'A plainer title for the error page', publishOutOfDate: true }) },
    { operationId: 'Descriptors_GetSet', request: { ...get(`/api/Descriptors/GetSet/${overlayHash(STUDIO_DRAFT)}`), headers: {} } },
    { operationId: 'Studio_GetHistory', as: PRODUCT_OWNER, request: get('/api/Studio/GetHistory') },
    { operationId: 'Studio_Rollback', as: PRODUCT_OWNER, request: post('/api/Studio/Rollback', { id: 0, note: 'Back to the deployed files' }) },
    { operationId: 'Config_GetConfigItems', request: get('/api/Config/GetConfigItems/States') },
    { operationId: 'Config_GetAllConfigItems', request: get('/api/Config/GetAllConfigItems') },
    { operationId: 'Office_GetConfigItems', as: admin, request: get(`/api/Office/GetConfigItems/${DEMO.brightSmiles}`) },
    { operationId: 'Reports_GetReport', as: admin, request: put('/api/Reports/GetReport', { officeId: DEMO.brightSmiles, period: 'last12Months', interval: 'month' }) },
    { operationId: 'Reports_GetReportCSV', as: admin, request: put('/api/Reports/GetReportCSV/lenders', { officeId: DEMO.brightSmiles, period: 'last12Months' }) },
    { operationId: 'Office_GetOfficeInfo', as: admin, request: get(`/api/Office/GetOfficeInfo/${DEMO.brightSmiles}`) },
    { operationId: 'Office_GetUserOffices', as: admin, request: get('/api/Office/GetUserOffices/-1/1') },
    { operationId: 'Office_GetOrganization', as: admin, request: get(`/api/Office/GetOrganization/${DEMO.brightSmiles}`) },
    { operationId: 'Office_GetOfficeLandingPage', as: admin, request: get(`/api/Office/GetOfficeLandingPage/${DEMO.brightSmiles}`) },
    { operationId: 'Office_GetLandingPage', request: get(`/api/Office/GetLandingPage/${DEMO.brightSmilesCode}`) },
    { operationId: 'Office_GetMultiLandingPage', request: get(`/api/Office/GetMultiLandingPage/${DEMO.groupCode}`) },
    { operationId: 'Office_SearchOffices', request: post('/api/Office/SearchOffices', { search: 'dental', page: 1, pageSize: 10 }) },
    { operationId: 'Office_GetLenders', as: admin, request: get(`/api/Office/GetLenders/${DEMO.brightSmiles}/true`) },
    { operationId: 'Office_CheckNewLenders', as: admin, request: get(`/api/Office/CheckNewLenders/${DEMO.brightSmiles}/newLenders`) },
    { operationId: 'Users_GetUserOfficeInfo', as: admin, request: get(`/api/Users/GetUserOfficeInfo/${DEMO.lakeside}`) },
    { operationId: 'App_GetApp', as: admin, request: get(`/api/App/GetApp/${appOfBrightSmiles}/false`) },
    {
      operationId: 'App_GetOfficeApps',
      as: admin,
      request: put('/api/App/GetOfficeApps', { officeId: DEMO.brightSmiles, page: 1, pageSize: 25, sortBy: 'createdAtUtc', sortDesc: true }),
    },
    { operationId: 'App_GetOfficeInactiveApps', as: admin, request: put('/api/App/GetOfficeInactiveApps', { officeId: DEMO.brightSmiles }) },
    { operationId: 'App_GetOfficeAppsByStage', as: admin, request: put('/api/App/GetOfficeAppsByStage', { officeId: DEMO.brightSmiles }) },
      // Enrollment of the fixture office, in the order of the wizard (each example relies on the ones before).
    {
      operationId: 'Office_UpdateLenderESign',
      request: post('/api/Office/UpdateLenderESign', { officeId, lenderId: lenderIds.ally ?? 1, token: fixtures.eSignToken, event: 'Completed' }),
    },
    {
      operationId: 'Office_UpsertOffice',
      as: owner,
      request: post('/api/Office/UpsertOffice', {
        id: officeId, name: 'Example Enrollment', legalName: 'Example Dental PLLC', phone: '(512) 555-0100', address, timeZone: 'CT',
        bankAccountType: 0, bankName: 'First Example Bank', routingNumber: '110000000', accountNumber: '000123456789',
      }),
    },
    {
      operationId: 'Office_AddLocation',
      as: owner,
      request: post('/api/Office/AddLocation', { fromOfficeId: officeId, name: 'Example Enrollment North', phone: '(512) 555-0101', address, timeZone: 'CT' }),
    },
    {
      operationId: 'Office_UpsertOwners',
      as: owner,
      request: post('/api/Office/UpsertOwners', {
        officeId,
        // The owner on file keeps the date of birth and SSN it has when they are left out.
        owners: [{
          id: fixtures.ownerId, firstName: 'Erin', lastName: 'Example', email: 'erin@example.test', mobilePhone: '(512) 555-0101',
          ownership: 100, address: { ...address, streetAddress: '7 Residence Ln' }, isPrimary: true,
        }],
      }),
    },
    {
      operationId: 'Office_UpsertDocs',
      as: owner,
      request: upload('/api/Office/UpsertDocs', uploadBody({ officeId, files: [{ fileType: 'VoidedCheck' }] }, [{ name: 'files', fileName: 'check.pdf', contentType: 'application/pdf', data: SAMPLE.pdf }])),
    },
    {
      operationId: 'Office_UploadDoc',
      as: owner,
      request: upload('/api/Office/UploadDoc', uploadBody({ officeId, fileType: 'BusinessLicense' }, [{ name: 'file', fileName: 'license.pdf', contentType: 'application/pdf', data: SAMPLE.pdf }])),
    },
    { operationId: 'Office_SubmitOffice', as: owner, request: { method: 'PUT', url: `/api/Office/SubmitOffice/${officeId}` } },
    // Review of the submitted fixture office, and bank verification of the approved one with deposits waiting.
    {
      operationId: 'AdminOffices_UpdateOfficeStatus',
      as: 'admin@demo.test',
      request: put('/api/admin/Offices/UpdateOfficeStatus', { officeId, status: 'Approved', reason: 'Documents and owners checked.' }),
    },
    { operationId: 'AdminOffices_GetOfficeHistory', as: 'dfi@demo.test', request: get(`/api/admin/Offices/GetOfficeHistory/${officeId}`) },
    // The location added above leaves the organization it formed with the fixture office.
    { operationId: 'AdminOffices_SetOrganization', as: 'admin@demo.test', request: put('/api/admin/Offices/SetOrganization', { officeId, withOfficeId: null }) },
    { operationId: 'Office_StartBankVerification', as: owner, request: post('/api/Office/StartBankVerification', { officeId: fixtures.bankOfficeId }) },
    {
      operationId: 'Office_ConfirmBankVerification',
      as: owner,
      request: post('/api/Office/ConfirmBankVerification', { officeId: fixtures.bankOfficeId, amount1: fixtures.deposits[1], amount2: fixtures.deposits[0] }),
    },
    {
      operationId: 'Office_UpsertConfigItems',
      as: owner,
      request: put('/api/Office/UpsertConfigItems', { officeId, items: [{ type: 'OfficeAlertTypes', name: 'NewApplication', value: owner, displayOrder: 1 }] }),
    },
    { operationId: 'Office_ApplyLender', as: owner, request: post('/api/Office/ApplyLender', { officeId, lenderIds: [lenderIds.lpoint ?? 1] }) },
    { operationId: 'Office_SubmitOfficeToLender', as: owner, request: post('/api/Office/SubmitOfficeToLender', { officeId, lenderId: lenderIds.gsky ?? 1 }) },
    {
      operationId: 'AdminOffices_SubmitOfficeToLender',
      as: 'dfi@demo.test',
      request: post('/api/admin/Offices/SubmitOfficeToLender', { officeId, lenderId: lenderIds.lpoint ?? 1 }),
    },
    {
      operationId: 'Office_UpsertLandingPage',
      as: owner,
      request: upload('/api/Office/UpsertLandingPage', uploadBody(
        { officeId, code: `landing_${officeId}`, description: 'Payment plans for every smile.', showMaps: false },
        [{ name: 'logo', fileName: 'logo.png', contentType: 'image/png', data: SAMPLE.png }],
      )),
    },
    { operationId: 'Files_GetContent', as: owner, request: get(`/api/Files/GetContent/${fixtures.fileId}`) },
    { operationId: 'Files_GetPublicContent', request: get(`/api/Files/GetPublicContent/${fixtures.logoFileId}`) },
    {
      operationId: 'AdminAch_UpsertAchInfo',
      as: 'admin@demo.test',
      request: post(`/api/admin/Ach/UpsertAchInfo?officeId=${officeId}`, { achProvider: 'sandbox', achAccountId: 'ba_example', achVerifyStatus: 'Pending', achDebitStatus: 'NotAuthorized' }),
    },
    {
      operationId: 'AdminOffices_GetOffices',
      as: 'dfi@demo.test',
      request: put('/api/admin/Offices/GetOffices', { search: 'example', enrollmentStatuses: ['Submitted', 'Approved'], sortBy: 'name', page: 1, pageSize: 10 }),
    },
    { operationId: 'AdminOffices_GetLenders', as: 'dfi@demo.test', request: get(`/api/admin/Offices/GetLenders/${officeId}`) },
    {
      operationId: 'AdminOffices_UpsertLenders',
      as: 'admin@demo.test',
      request: put('/api/admin/Offices/UpsertLenders', { officeId, lenders: [{ lenderId: lenderIds.gsky ?? 1, numOrder: 3, discountRate: 4.5, isEnabled: true }] }),
    },
    // Users and invites (identity), on the published fixture office.
    ...identityExamples(appOfBrightSmiles, fixtures),
    // Application follow-up, finalize, funding and refunds, on applications of the published fixture office.
    ...appExamples(fixtures),
    // The borrower journey, on applications of the published fixture office in each state a call needs.
    ...journeyExamples(fixtures.journey, owner),
  ];
}

function identityExamples(appOfBrightSmiles: number, fixtures: ExampleFixtures): Example[] {
  const { publishedOfficeId: office, adminEmail: owner } = fixtures;
  const { tag, inviteToken, inviteeEmail, inviteeUserId } = fixtures.identity;
  const person = (first: string, role: string) => ({ officeId: office, firstName: first, lastName: 'Example', email: `${first.toLowerCase()}-${tag}@demo.test`, role });
  return [
    { operationId: 'Users_GetUserInfo', as: owner, request: post('/api/Users/GetUserInfo', { utmSource: 'newsletter', utmMedium: 'email', utmCampaign: 'spring' }) },
    { operationId: 'Users_GetUsers', as: owner, request: get(`/api/Users/GetUsers/${office}`) },
    { operationId: 'Users_UpsertUser', as: owner, request: put('/api/Users/UpsertUser', { ...person('Casey', 'support'), title: 'Treatment Coordinator' }) },
    {
      operationId: 'Users_SetPermissions',
      as: owner,
      request: put('/api/Users/SetPermissions', { officeId: office, userId: fixtures.identity.pendingUserId, permissions: ['startApplications', 'seeReports'] }),
    },
    { operationId: 'Users_GetInviteInfo', request: get(`/api/Users/GetInviteInfo/${inviteToken}`) },
    { operationId: 'Users_ProcessInvite', as: inviteeEmail, request: post('/api/Users/ProcessInvite', { inviteId: inviteToken }) },
    { operationId: 'Users_DeleteUser', as: owner, request: { method: 'PUT', url: `/api/Users/DeleteUser/${inviteeUserId}/${office}` } },
    { operationId: 'Users_ResendInvite', as: owner, request: { method: 'PUT', url: `/api/Users/ResendInvite/${fixtures.identity.pendingUserId}/${office}` } },
    { operationId: 'Users_RevokeInvite', as: owner, request: { method: 'PUT', url: `/api/Users/RevokeInvite/${fixtures.identity.pendingUserId}/${office}` } },
    { operationId: 'AdminUsers_GetAllUsers', as: 'admin@demo.test', request: put('/api/admin/Users/GetAllUsers', { search: 'demo.test', sortBy: 'email', page: 1, pageSize: 10 }) },
    { operationId: 'AdminUsers_GetUserDetails', as: 'admin@demo.test', request: get(`/api/admin/Users/GetUserDetails/${inviteeUserId}`) },
    {
      operationId: 'AdminUsers_UpsertUsers',
      as: 'admin@demo.test',
      request: put('/api/admin/Users/UpsertUsers', { users: [{ firstName: 'Riley', lastName: 'Example', email: `riley-${tag}@demo.test`, userRole: 'dfi.admin' }] }),
    },
    {
      operationId: 'AdminUsers_UpsertUser',
      as: 'admin@demo.test',
      request: put('/api/admin/Users/UpsertUser', { firstName: 'Avery', lastName: 'Example', email: `avery-${tag}@demo.test`, userRole: 'df.admin' }),
    },
    { operationId: 'AdminOffices_GetUsers', as: 'admin@demo.test', request: get(`/api/admin/Offices/GetUsers/${office}`) },
    { operationId: 'AdminOffices_UpsertUser', as: 'admin@demo.test', request: put('/api/admin/Offices/UpsertUser', person('Jordan', 'sales')) },
    { operationId: 'AdminOffices_UpsertUsers', as: 'admin@demo.test', request: put('/api/admin/Offices/UpsertUsers', { officeId: office, users: [person('Morgan', 'tpa')] }) },
    // The borrower's way back in: the office's link, spent or not, lets them ask for a passcode (decision 0173).
    {
      operationId: 'App_StartApp',
      request: { ...post('/api/App/StartApp', { code: DEMO.brightSmilesCode, firstName: 'Rosa', lastName: 'Alvarez', channel: 'Email', email: `rosa.${Date.now().toString(36)}@gmail.com`, amount: 2400, agreeToContact: true }), remoteAddress: '192.0.2.77' },
    },
    { operationId: 'Otp_SendOtp', request: post('/api/Otp/SendOtp', { appId: fixtures.journey.sentAppId, linkToken: fixtures.journey.linkToken, channel: 'Email' }) },
    { operationId: 'Otp_VerifyOtp', request: post('/api/Otp/VerifyOtp', { challengeId: fixtures.identity.otpChallengeId, code: fixtures.identity.otpCode }) },
  ];
}

/**
 * Applications of the published fixture office that the application examples act on, one per state
 * a write needs: open (notes, files, reference code), signed (finalize), awaiting funding with a
 * funding request at the lender (mark funded, cancel the request), funded (refund) and funded with a
 * refund under way (update refund).
 */
export interface AppExampleFixtures {
  officeId: number;
  /** A refund above the office's approval amount, requested by someone else, awaiting its second approval. */
  awaitingRefundId: number;
  openAppId: number;
  readyAppId: number;
  awaitingAppId: number;
  fundedAppId: number;
  refundedAppId: number;
  refundId: number;
  transactionId: number;
  /** A lender order that gave up, on the funded application: tried again from the jobs page. */
  deadJobId: number;
  /** The office's webhook endpoint, with one delivery in its log; and one to delete. */
  webhookEndpointId: number;
  webhookDeliveryId: number;
  spareEndpointId: number;
  apiKeyId: number;
  /** Sent by link, not yet filled in: its link may be sent again. */
  sentAppId: number;
}

async function appExampleFixtures(h: Harness, officeId: number): Promise<AppExampleFixtures> {
  const secret = encryptPii(h.settings.piiKey, `whsec_${randomBytes(32).toString('base64')}`);
  return h.database.db.transaction(async (tx) => {
    const openAppId = await insertApplication(tx, { officeId, stage: 'Review', firstName: 'Olive', lastName: 'Open', approvedAmount: null });
    await insertStipulation(tx, openAppId, 'Proof of income');
    const readyAppId = await insertApplication(tx, { officeId, stage: 'ReadyToFinalize', firstName: 'Rhea', lastName: 'Ready' });
    const sentAppId = await insertApplication(tx, { officeId, stage: 'NotApplicable', firstName: 'Sam', lastName: 'Sent' });
    const awaitingAppId = await insertApplication(tx, { officeId, stage: 'SubmittedForFunding', firstName: 'Ada', lastName: 'Awaiting' });
    const transactionId = await insertLenderTransaction(tx, awaitingAppId, 'Funding', 400_000);
    const fundedAppId = await insertApplication(tx, { officeId, stage: 'Funded', firstName: 'Fay', lastName: 'Funded' });
    const refundedAppId = await insertApplication(tx, { officeId, stage: 'Funded', firstName: 'Rory', lastName: 'Refunded' });
    const refundId = await insertRefund(tx, refundedAppId, 50_000);
    const awaitingRefundId = await insertRefund(tx, refundedAppId, 10_000);
    await tx.update(refunds).set({ approval: 'Awaiting' }).where(eq(refunds.id, awaitingRefundId));
    const dead = await tx.execute<{ id: number }>(
      sql`insert into jobs (queue, key, payload, state, attempts, max_attempts, last_error, finished_at) values ('lender-fund', ${`example-${fundedAppId}`}, ${JSON.stringify({ appId: fundedAppId })}::jsonb, 'Dead', 12, 12, 'the lender answered 503', now()) returning id`,
    );
    const endpoint = async (url: string) =>
      Number((await tx.execute<{ id: number }>(sql`insert into webhook_endpoints (office_id, url, event_types, secret) values (${officeId}, ${url}, '["application.created"]'::jsonb, ${secret}) returning id`)).rows[0]!.id);
    const webhookEndpointId = await endpoint('http://localhost:9/practice-software');
    const spareEndpointId = await endpoint('http://localhost:9/old-software');
    const event = await tx.execute<{ id: number }>(sql`insert into events (type, office_id, app_id, subject) values ('application.created', ${officeId}, ${openAppId}, ${JSON.stringify({ kind: 'application', id: String(openAppId) })}::jsonb) returning id`);
    const delivery = await tx.execute<{ id: number }>(
      sql`insert into webhook_deliveries (endpoint_id, event_id, order_key, status, attempts, response_status) values (${webhookEndpointId}, ${event.rows[0]!.id}, ${`app:${openAppId}`}, 'Delivered', 1, 200) returning id`,
    );
    const apiKey = await tx.execute<{ id: number }>(
      sql`insert into api_keys (office_id, name, hash, prefix, per_minute) values (${officeId}, 'Old bridge', ${randomBytes(32).toString('hex')}, 'pk_example', 60) returning id`,
    );
    return {
      officeId, awaitingRefundId, openAppId, readyAppId, awaitingAppId, fundedAppId, refundedAppId, refundId, transactionId, deadJobId: Number(dead.rows[0]!.id),
      webhookEndpointId, webhookDeliveryId: Number(delivery.rows[0]!.id), spareEndpointId, apiKeyId: Number(apiKey.rows[0]!.id), sentAppId,
    };
  });
}

function appExamples(fixtures: ExampleFixtures): Example[] {
  const { adminEmail: owner } = fixtures;
  const { officeId, openAppId, readyAppId, awaitingAppId, fundedAppId, refundedAppId, refundId, awaitingRefundId, transactionId, deadJobId, webhookEndpointId, webhookDeliveryId, spareEndpointId, apiKeyId, sentAppId } =
    fixtures.apps;
  const platform = 'admin@demo.test';
  return [
    { operationId: 'App_UpsertAppNote', as: owner, request: put('/api/App/UpsertAppNote', { appId: openAppId, note: 'Called the patient about proof of income.' }) },
    { operationId: 'App_GetAppNotes', as: owner, request: { method: 'PUT', url: `/api/App/GetAppNotes?appId=${openAppId}` } },
    {
      operationId: 'App_UploadFile',
      as: owner,
      request: upload('/api/App/UploadFile', uploadBody({ appId: openAppId, fileType: 'ProofOfIncome', description: 'Pay stub, May' }, [{ name: 'file', fileName: 'paystub.pdf', contentType: 'application/pdf', data: SAMPLE.pdf }])),
    },
    { operationId: 'App_GetAppFiles', as: owner, request: { method: 'PUT', url: `/api/App/GetAppFiles?appId=${openAppId}` } },
    { operationId: 'App_GetAppStips', as: owner, request: get(`/api/App/GetAppStips/${openAppId}`) },
    { operationId: 'App_GetAppLenders', as: owner, request: { method: 'PUT', url: `/api/App/GetAppLenders?appId=${openAppId}` } },
    { operationId: 'App_AddReferenceCode', as: owner, request: post('/api/App/AddReferenceCode', { appId: openAppId, referenceCode: 'CHART_1042' }) },
    { operationId: 'App_FinalizeApp', as: owner, request: put('/api/App/FinalizeApp', { appId: readyAppId, loanAmount: 3950.5 }) },
    { operationId: 'App_SubmitTrans', as: owner, request: post('/api/App/SubmitTrans', { appId: readyAppId, type: 'Funding', amount: 3950.5, notes: 'Please fund.' }) },
    { operationId: 'App_GetLenderTrans', as: owner, request: get(`/api/App/GetLenderTrans/${awaitingAppId}`) },
    { operationId: 'App_CancelTrans', as: owner, request: put('/api/App/CancelTrans', { appId: awaitingAppId, transactionId, reason: 'Amount to be corrected.' }) },
    { operationId: 'AdminApps_GetFundedApps', as: platform, request: put('/api/admin/Apps/GetFundedApps', { forFunding: true, officeId, page: 1, pageSize: 10 }) },
    { operationId: 'AdminApps_MarkAppsFunded', as: platform, request: post('/api/admin/Apps/MarkAppsFunded', { appIds: [awaitingAppId] }) },
    { operationId: 'App_GetOfficeFundedApps', as: owner, request: put('/api/App/GetOfficeFundedApps', { officeId, sortBy: 'fundedDate', sortDesc: true }) },
    { operationId: 'App_GetOfficeFundedAppsCSV', as: owner, request: put('/api/App/GetOfficeFundedAppsCSV/fundedAppsCSV', { officeId }) },
    { operationId: 'Funding_GetTracker', as: owner, request: put('/api/Funding/GetTracker', { officeId, fundingStep: 'Deposited', sortBy: 'expectedDepositDate', page: 1, pageSize: 25 }) },
    { operationId: 'Funding_GetTrackerCSV', as: owner, request: put('/api/Funding/GetTrackerCSV/fundingCSV', { officeId }) },
    { operationId: 'Funding_GetSummary', as: owner, request: put('/api/Funding/GetSummary', { officeId }) },
    { operationId: 'Funding_Reconcile', as: owner, request: post('/api/Funding/Reconcile', { officeId, appIds: [fundedAppId], reconciled: true }) },
    { operationId: 'Office_SetRefundApproval', as: owner, request: put('/api/Office/SetRefundApproval', { officeId, approvalAbove: 2500 }) },
    { operationId: 'App_ApproveRefund', as: owner, request: post('/api/App/ApproveRefund', { appId: refundedAppId, refundId: awaitingRefundId, approve: true }) },
    { operationId: 'App_SubmitRefund', as: owner, request: post('/api/App/SubmitRefund', { appId: fundedAppId, amount: 125.25, reason: 'Treatment plan reduced' }) },
    { operationId: 'App_GetRefundRequest', as: owner, request: get(`/api/App/GetRefundRequest/${officeId}/${refundedAppId}`) },
    { operationId: 'App_GetOfficeRefunds', as: owner, request: put('/api/App/GetOfficeRefunds', { officeId }) },
    { operationId: 'AdminApps_GetRefunds', as: 'dfi@demo.test', request: put('/api/admin/Apps/GetRefunds', { officeId, page: 1, pageSize: 10 }) },
    {
      operationId: 'AdminApps_UpdateRefund',
      as: platform,
      request: put('/api/admin/Apps/UpdateRefund', { refundId, appId: refundedAppId, status: 'Processing', achStatus: 'Initiated', estimatedAchDeliveryDate: '12/15/2031' }),
    },
    { operationId: 'AdminApps_GetApps', as: 'dfi@demo.test', request: put('/api/admin/Apps/GetApps', { search: 'o', sortBy: 'officeName', page: 1, pageSize: 10 }) },
    { operationId: 'AdminApps_GetInactiveApps', as: 'dfi@demo.test', request: put('/api/admin/Apps/GetInactiveApps', { officeId: DEMO.brightSmiles }) },
    { operationId: 'AdminApps_GetAppAuditLogs', as: 'dfi@demo.test', request: { method: 'PUT', url: `/api/admin/Apps/GetAppAuditLogs?id=${readyAppId}` } },
    { operationId: 'AdminJobs_GetJobs', as: platform, request: put('/api/admin/Jobs/GetJobs', { states: ['Dead'], page: 1, pageSize: 10 }) },
    { operationId: 'AdminJobs_RetryJob', as: platform, request: put('/api/admin/Jobs/RetryJob', { jobId: deadJobId }) },
    { operationId: 'Events_Stream', as: owner, request: { ...get(`/api/Events/Stream/${officeId}?wait=0`), headers: { 'last-event-id': '0' } } },
    { operationId: 'AdminEvents_Stream', as: platform, request: get('/api/admin/Events/Stream?wait=0') },
    { operationId: 'Webhooks_GetEndpoints', as: owner, request: put('/api/Webhooks/GetEndpoints', { officeId }) },
    {
      operationId: 'Webhooks_AddEndpoint',
      as: owner,
      request: put('/api/Webhooks/AddEndpoint', { officeId, url: 'http://localhost:9/new-software', description: 'Practice software', eventTypes: ['application.signed', 'application.funded'] }),
    },
    { operationId: 'Webhooks_UpdateEndpoint', as: owner, request: put('/api/Webhooks/UpdateEndpoint', { endpointId: webhookEndpointId, description: 'Front desk', eventTypes: ['application.created', 'application.signed'] }) },
    { operationId: 'Webhooks_RotateSecret', as: owner, request: put('/api/Webhooks/RotateSecret', { endpointId: webhookEndpointId, overlapHours: 24 }) },
    { operationId: 'Webhooks_GetDeliveries', as: owner, request: put('/api/Webhooks/GetDeliveries', { endpointId: webhookEndpointId, page: 1, pageSize: 10 }) },
    { operationId: 'Webhooks_Replay', as: owner, request: put('/api/Webhooks/Replay', { endpointId: webhookEndpointId, deliveryId: webhookDeliveryId }) },
    { operationId: 'Webhooks_SendTest', as: owner, request: put('/api/Webhooks/SendTest', { endpointId: webhookEndpointId }) },
    { operationId: 'Webhooks_DeleteEndpoint', as: owner, request: put('/api/Webhooks/DeleteEndpoint', { endpointId: spareEndpointId }) },
    { operationId: 'App_ResendLink', as: owner, request: put('/api/App/ResendLink', { appId: sentAppId }) },
    { operationId: 'ApiKeys_GetKeys', as: owner, request: put('/api/ApiKeys/GetKeys', { officeId }) },
    { operationId: 'ApiKeys_AddKey', as: owner, request: put('/api/ApiKeys/AddKey', { officeId, name: 'Practice software', perMinute: 60 }) },
    { operationId: 'ApiKeys_RevokeKey', as: owner, request: put('/api/ApiKeys/RevokeKey', { keyId: apiKeyId }) },
  ];
}
