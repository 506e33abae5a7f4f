import { eq, sql } from 'drizzle-orm';
import type { components } from '../../../codegen/generated/api.ts';
import { decryptPii, encryptPii, last4 } from '../../crypto/pii.ts';
import type { Db } from '../../db/index.ts';
import { officeOwners, offices, userOffices, users } from '../../db/schema.ts';
import { isInternal, type Caller } from '../../http/caller.ts';
import { HttpProblem } from '../../http/problem.ts';
import { toCents } from '../values.ts';
import { BANK_ACCOUNT_TYPES } from './mapping.ts';
import { recordStatusChange } from './review-status.ts';
import { SUBMITTED_REASON } from './review-transitions.ts';
import { requiredDocuments } from './required-documents.ts';
import { addressColumns, assertCodeFree, assertWebUrl, codeTaken, given, isUniqueViolation, lockOffice, staffId } from './records.ts';

type OfficeUpsert = components['schemas']['OfficeUpsert'];
type OfficeRecord = typeof offices.$inferSelect;
type OfficeValues = Partial<typeof offices.$inferInsert>;

/** The profile and bank columns of an upsert; fields left out keep what `stored` holds (nothing for a new office). */
function profileValues(body: OfficeUpsert, stored: OfficeRecord | undefined): OfficeValues {
  const keep = <K extends keyof OfficeRecord>(value: OfficeRecord[K] | undefined, key: K) => given(value, stored ? stored[key] : null);
  return {
    name: body.name,
    legalName: body.legalName,
    phone: body.phone,
    fax: keep(body.fax, 'fax'),
    website: keep(body.website, 'website'),
    licenseNo: keep(body.licenseNo, 'licenseNo'),
    licenseState: keep(body.licenseState, 'licenseState'),
    category: keep(body.category, 'category'),
    taxId: keep(body.taxId, 'taxId'),
    businessType: keep(body.businessType, 'businessType'),
    annualRevenue: body.annualRevenue === undefined ? (stored?.annualRevenue ?? null) : body.annualRevenue === null ? null : toCents(body.annualRevenue),
    code: keep(body.code, 'code'),
    groupCode: keep(body.groupCode, 'groupCode'),
    promoCode: keep(body.promoCode, 'promoCode'),
    howHeard: keep(body.howHeard, 'howHeard'),
    locationCount: keep(body.locationCount, 'locationCount'),
    ...addressColumns(body.address),
    timeZone: body.timeZone,
    bankAccountType: body.bankAccountType === undefined ? (stored?.bankAccountType ?? null) : body.bankAccountType === null ? null : BANK_ACCOUNT_TYPES[body.bankAccountType],
    bankName: keep(body.bankName, 'bankName'),
    googlePlaceId: keep(body.googlePlaceId, 'googlePlaceId'),
    utmSource: keep(body.utmSource, 'utmSource'),
    utmMedium: keep(body.utmMedium, 'utmMedium'),
    utmCampaign: keep(body.utmCampaign, 'utmCampaign'),
  };
}

/** Full bank numbers are stored only as ciphertext, with the last four digits in clear for display. */
export function bankNumberValues(piiKey: Buffer, routingNumber: string, accountNumber: string): OfficeValues {
  return {
    bankRoutingNumberEnc: encryptPii(piiKey, routingNumber),
    bankRoutingLast4: last4(routingNumber),
    bankAccountNumberEnc: encryptPii(piiKey, accountNumber),
    bankAccountLast4: last4(accountNumber),
  };
}

/**
 * A different bank account is not the one the ACH provider verified, nor the one the office authorised
 * debits from: verification and debit authorisation start again. A verification locked after wrong tries
 * stays locked (decision 0152): typing another account number is no way around the platform admin.
 */
function bankChange(piiKey: Buffer, stored: OfficeRecord, routingNumber: string, accountNumber: string): OfficeValues {
  const same =
    stored.bankRoutingNumberEnc !== null &&
    stored.bankAccountNumberEnc !== null &&
    decryptPii(piiKey, stored.bankRoutingNumberEnc) === routingNumber &&
    decryptPii(piiKey, stored.bankAccountNumberEnc) === accountNumber;
  if (same) return {};
  const values = bankNumberValues(piiKey, routingNumber, accountNumber);
  if (stored.achProvider === null && stored.achVerifyStatus === null) return values;
  const verification = stored.achVerifyStatus === 'Locked' ? {} : ({ achVerifyStatus: 'NotStarted', achVerifyFailures: 0 } as const);
  return {
    ...values, ...verification, achAccountId: null, achAccountStatus: null, achVerifiedAt: null, achDepositsSentAt: null,
    achDebitStatus: 'NotAuthorized', achDebitAuthorizedAt: null,
  };
}

function checkRequest(body: OfficeUpsert, caller: Caller, stored: OfficeRecord | undefined): void {
  assertWebUrl(body.website, 'website');
  // The group code puts an office on another office's multi-office landing page: the platform decides that.
  const groupCode = body.groupCode ?? null;
  if (body.groupCode !== undefined && groupCode !== (stored?.groupCode ?? null) && !isInternal(caller)) {
    throw new HttpProblem(403, 'Only platform administrators can set the group code.');
  }
}

async function saveCode(tx: Db, body: OfficeUpsert, stored: OfficeRecord | undefined): Promise<void> {
  if (body.code && body.code !== stored?.code) await assertCodeFree(tx, body.code, stored?.id);
}

function translateUniqueCode(error: unknown): never {
  if (isUniqueViolation(error, 'offices_code_key')) throw codeTaken();
  throw error;
}

/**
 * Office_UpsertOffice with id 0: the signed-in user enrolls a new office (status New) and becomes its
 * primary office admin, in one transaction.
 */
export async function enrollOffice(db: Db, piiKey: Buffer, caller: Caller, body: OfficeUpsert): Promise<number> {
  if (caller.kind !== 'staff') throw new HttpProblem(401, 'Sign-in is required.');
  checkRequest(body, caller, undefined);
  return db
    .transaction(async (tx) => {
      await saveCode(tx, body, undefined);
      const [office] = await tx
        .insert(offices)
        .values({
          ...profileValues(body, undefined),
          ...(body.routingNumber && body.accountNumber ? bankNumberValues(piiKey, body.routingNumber, body.accountNumber) : {}),
          name: body.name,
          enrollmentStatus: 'New' as const,
        })
        .returning({ id: offices.id });
      const officeId = office!.id;
      const [user] = await tx.select({ title: users.title }).from(users).where(eq(users.id, caller.userId));
      await tx.insert(userOffices).values({ userId: caller.userId, officeId, role: 'admin', title: user?.title ?? null, timeZone: body.timeZone, isPrimary: true });
      return officeId;
    })
    .catch(translateUniqueCode);
}

/** Office_UpsertOffice for an existing office: profile and bank information. */
export async function updateOffice(db: Db, piiKey: Buffer, caller: Caller, body: OfficeUpsert): Promise<void> {
  await db
    .transaction(async (tx) => {
      const stored = await lockOffice(tx, body.id);
      checkRequest(body, caller, stored);
      await saveCode(tx, body, stored);
      await tx
        .update(offices)
        .set({
          ...profileValues(body, stored),
          ...(body.routingNumber && body.accountNumber ? bankChange(piiKey, stored, body.routingNumber, body.accountNumber) : {}),
          updatedAt: sql`now()`,
        })
        .where(eq(offices.id, body.id));
    })
    .catch(translateUniqueCode);
}

/** What a submission needs, by the office column that holds it. */
const REQUIRED_PROFILE: ReadonlyArray<readonly [keyof OfficeRecord, string]> = [
  ['legalName', 'legal name'],
  ['phone', 'phone'],
  ['streetAddress', 'address'],
  ['timeZone', 'time zone'],
  ['category', 'category'],
  ['businessType', 'business type'],
  ['taxId', 'tax id'],
];

const OWNERSHIP_TOTAL = 100;

/** What is still missing before the enrollment can be submitted (empty when complete). */
export async function missingForSubmission(tx: Db, office: OfficeRecord): Promise<string[]> {
  const missing: string[] = [];
  const profile = REQUIRED_PROFILE.filter(([column]) => office[column] === null || office[column] === '').map(([, label]) => label);
  if (profile.length > 0) missing.push(`the profile (${profile.join(', ')})`);
  const owners = await tx
    .select({ ownership: officeOwners.ownershipPercent, dobEnc: officeOwners.dobEnc, ssnEnc: officeOwners.ssnEnc })
    .from(officeOwners)
    .where(eq(officeOwners.officeId, office.id));
  const total = owners.reduce((sum, owner) => sum + (owner.ownership ?? 0), 0);
  if (owners.length === 0) missing.push('the owners');
  else if (Math.abs(total - OWNERSHIP_TOTAL) > 0.001) missing.push(`the owners' ownership, which totals ${total}% instead of ${OWNERSHIP_TOTAL}%`);
  if (owners.some((owner) => !owner.dobEnc || !owner.ssnEnc)) missing.push("an owner's date of birth or SSN");
  if (!office.bankAccountType || !office.bankRoutingNumberEnc || !office.bankAccountNumberEnc) missing.push('the bank information');
  const documents = (await requiredDocuments(tx, office.id)).filter((document) => !document.isUploaded);
  if (documents.length > 0) missing.push(`the documents (${documents.map((document) => document.name).join(', ')})`);
  return missing;
}

/**
 * Office_SubmitOffice: a complete enrollment becomes Submitted, and the office's status history says so
 * (decision 0150). A repeated submission of a Submitted office changes nothing (the client retries failed
 * calls); one already past review is a conflict.
 */
export async function submitOffice(db: Db, caller: Caller, officeId: number): Promise<void> {
  await db.transaction(async (tx) => {
    const office = await lockOffice(tx, officeId);
    if (office.isEnrollmentCompleted) {
      if (office.enrollmentStatus === 'Submitted') return;
      throw HttpProblem.conflict(`The enrollment was already submitted; the office is ${office.enrollmentStatus}.`);
    }
    const missing = await missingForSubmission(tx, office);
    if (missing.length > 0) {
      throw new HttpProblem(409, `The enrollment cannot be submitted yet. Missing: ${missing.join('; ')}.`, { extensions: { missing } });
    }
    await tx
      .update(offices)
      .set({ isEnrollmentCompleted: true, enrollmentStatus: 'Submitted', submittedAt: sql`now()`, statusReason: null, statusChangedAt: sql`now()`, updatedAt: sql`now()` })
      .where(eq(offices.id, officeId));
    await recordStatusChange(tx, { officeId, from: office.enrollmentStatus, to: 'Submitted', reason: SUBMITTED_REASON, changedBy: staffId(caller) });
  });
}
