import { and, eq, notInArray, sql } from 'drizzle-orm';
import type { components } from '../../../codegen/generated/api.ts';
import { encryptPii, last4 } from '../../crypto/pii.ts';
import type { Db } from '../../db/index.ts';
import { officeOwners } from '../../db/schema.ts';
import { HttpProblem } from '../../http/problem.ts';
import { fromUsDate, toCents } from '../values.ts';
import { lockOffice, message } from './records.ts';

type OwnersUpsert = components['schemas']['OwnersUpsert'];
type OwnerUpsert = components['schemas']['OwnerUpsert'];
type OwnerValues = Omit<typeof officeOwners.$inferInsert, 'officeId'>;

/** Street addresses compare case-insensitively and regardless of spacing (spec §5). */
const sameStreet = (a: string | null, b: string) => a !== null && a.trim().replace(/\s+/g, ' ').toLowerCase() === b.trim().replace(/\s+/g, ' ').toLowerCase();

/** MM/dd/yyyy that names a real day (the pattern alone lets 02/31 through). */
function isCalendarDate(us: string): boolean {
  const iso = fromUsDate(us);
  const date = new Date(`${iso}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === iso;
}

/** SSNs are kept as ###-##-#### ciphertext whatever dashes were typed. */
const formatSsn = (ssn: string) => {
  const digits = ssn.replace(/\D/g, '');
  return `${digits.slice(0, 3)}-${digits.slice(3, 5)}-${digits.slice(5)}`;
};

/**
 * The owner list replaces the stored one, field for field, except the write-only dob and ssn: an
 * edit that leaves them out keeps the stored ciphertext.
 */
function ownerValues(piiKey: Buffer, owner: OwnerUpsert): OwnerValues {
  return {
    firstName: owner.firstName,
    lastName: owner.lastName,
    email: owner.email.toLowerCase(),
    mobilePhone: owner.mobilePhone ?? null,
    homePhone: owner.homePhone ?? null,
    title: owner.title ?? null,
    ...(owner.dob !== undefined && { dobEnc: encryptPii(piiKey, fromUsDate(owner.dob)) }),
    ...(owner.ssn !== undefined && { ssnEnc: encryptPii(piiKey, formatSsn(owner.ssn)), ssnLast4: last4(owner.ssn) }),
    ownershipPercent: owner.ownership,
    streetAddress: owner.address.streetAddress,
    suiteNo: owner.address.suiteNo ?? null,
    city: owner.address.city,
    state: owner.address.state,
    zipCode: owner.address.zipCode,
    annualIncome: owner.annualIncome === undefined || owner.annualIncome === null ? null : toCents(owner.annualIncome),
    netWorth: owner.netWorth === undefined || owner.netWorth === null ? null : toCents(owner.netWorth),
    primaryIncomeSource: owner.primaryIncomeSource ?? null,
    secondaryIncomeSource: owner.secondaryIncomeSource ?? null,
    isPrimary: owner.isPrimary ?? false,
  };
}

/**
 * The rules the schema cannot state: they need the office's stored address, or a real calendar. The
 * ownership total (100) is the schema's `x-sum`, which every request passes through before a handler
 * runs; Office_SubmitOffice checks the stored total again before an enrollment is submitted.
 */
function checkOwners(body: OwnersUpsert, officeStreet: string | null): void {
  const errors: Record<string, string[]> = {};
  const seen = new Set<number>();
  body.owners.forEach((owner, index) => {
    if (sameStreet(officeStreet, owner.address.streetAddress)) errors[`owners.${index}.address.streetAddress`] = [message('ownerAddressDiffers')];
    if (owner.dob !== undefined && !isCalendarDate(owner.dob)) errors[`owners.${index}.dob`] = [message('invalidFormat')];
    if (owner.id !== undefined) {
      if (seen.has(owner.id)) errors[`owners.${index}.id`] = [message('notAllowedValue')];
      seen.add(owner.id);
    }
  });
  if (Object.keys(errors).length > 0) throw HttpProblem.validation(errors);
}

/**
 * Office_UpsertOwners: owners with an id are updated, owners without one are added, stored owners
 * left out are removed — all in one transaction. An id that is not an owner of this office is a 404
 * and nothing is written.
 */
export async function upsertOwners(db: Db, piiKey: Buffer, body: OwnersUpsert): Promise<void> {
  await db.transaction(async (tx) => {
    const office = await lockOffice(tx, body.officeId);
    checkOwners(body, office.streetAddress);
    const stored = new Set((await tx.select({ id: officeOwners.id }).from(officeOwners).where(eq(officeOwners.officeId, office.id))).map((row) => row.id));
    const kept = body.owners.flatMap((owner) => (owner.id === undefined ? [] : [owner.id]));
    if (kept.some((id) => !stored.has(id))) throw new HttpProblem(404, 'The owner could not be found.');

    await tx.delete(officeOwners).where(and(eq(officeOwners.officeId, office.id), kept.length > 0 ? notInArray(officeOwners.id, kept) : undefined));
    for (const owner of body.owners) {
      const values = ownerValues(piiKey, owner);
      if (owner.id === undefined) {
        await tx.insert(officeOwners).values({ ...values, officeId: office.id });
      } else {
        await tx
          .update(officeOwners)
          .set({ ...values, updatedAt: sql`now()` })
          .where(and(eq(officeOwners.id, owner.id), eq(officeOwners.officeId, office.id)));
      }
    }
    await tx.execute(sql`update offices set updated_at = now() where id = ${office.id}`);
  });
}
