import { and, asc, eq, inArray, notInArray, sql } from 'drizzle-orm';
import type { components } from '../../../codegen/generated/api.ts';
import type { Db } from '../../db/index.ts';
import { files, lenders, officeLenders, officeOwners, offices, organizations, users } from '../../db/schema.ts';
import { HttpProblem } from '../../http/problem.ts';
import { primaryOfficeUser } from '../users/reads.ts';
import { requiredDocuments } from './required-documents.ts';
import { LANDING_KINDS, officeFileColumns, PHOTO_ID_KIND, toOfficeCore, toOfficeFile, toOwner } from './mapping.ts';

type Schemas = components['schemas'];

async function officeRecord(db: Db, id: number) {
  const [office] = await db.select().from(offices).where(eq(offices.id, id));
  if (!office) throw new HttpProblem(404, 'The office could not be found.');
  return office;
}

export async function getOffice(db: Db, piiKey: Buffer, id: number): Promise<Schemas['Office']> {
  const office = await officeRecord(db, id);
  const [owners, officeFiles, primary, documents, organization] = await Promise.all([
    db.select().from(officeOwners).where(eq(officeOwners.officeId, id)).orderBy(asc(officeOwners.id)),
    db
      .select(officeFileColumns)
      .from(files)
      .leftJoin(users, eq(users.id, files.createdBy))
      .where(and(eq(files.officeId, id), sql`${files.appId} is null`, notInArray(files.kind, [...LANDING_KINDS])))
      .orderBy(asc(files.createdAt)),
    primaryOfficeUser(db, id),
    requiredDocuments(db, id),
    organizationSummary(db, office.organizationId),
  ]);
  const photoIds = new Set(officeFiles.filter((f) => f.ownerId !== null && f.kind === PHOTO_ID_KIND).map((f) => f.ownerId));
  return {
    ...toOfficeCore(office),
    owners: owners.map((owner) => toOwner(piiKey, owner, photoIds.has(owner.id))),
    files: officeFiles.map(toOfficeFile),
    primaryUser: primary,
    requiredDocuments: documents,
    organization,
  };
}

/** The practice group an office is a location of, with its count of locations (decision 0281). */
async function organizationSummary(db: Db, organizationId: number | null): Promise<Schemas['Office']['organization']> {
  if (organizationId === null) return null;
  const [[row], locationCount] = await Promise.all([
    db.select({ id: organizations.id, name: organizations.name }).from(organizations).where(eq(organizations.id, organizationId)),
    db.$count(offices, eq(offices.organizationId, organizationId)),
  ]);
  return row ? { ...row, locationCount } : null;
}

export async function officeLenderList(db: Db, officeId: number, excludeDisabled: boolean): Promise<Schemas['OfficeLender'][]> {
  await officeRecord(db, officeId);
  const rows = await db
    .select({ link: officeLenders, lender: lenders })
    .from(officeLenders)
    .innerJoin(lenders, eq(lenders.id, officeLenders.lenderId))
    .where(and(eq(officeLenders.officeId, officeId), excludeDisabled ? and(eq(officeLenders.isEnabled, true), eq(lenders.isActive, true)) : undefined))
    .orderBy(asc(officeLenders.numOrder), asc(lenders.name));
  return rows.map(({ link, lender }) => ({
    lenderId: lender.id,
    officeId: link.officeId,
    code: lender.code,
    name: lender.name,
    lenderOfficeId: link.lenderOfficeId,
    status: link.status,
    notes: link.notes,
    numOrder: link.numOrder,
    programUrl: link.programUrl,
    officeApplyMode: link.officeApplyMode,
    isEnrollmentCompleted: link.isEnrollmentCompleted,
    isReviewed: link.isReviewed,
    isEnabled: link.isEnabled,
    discountRate: link.discountRate,
    showApply: link.showApply,
  }));
}

/**
 * Active lenders the office has no link with yet: the 'new lenders' popup offers them. Only lenders of the live
 * catalogue (`codes`): a lender whose publication was rolled back keeps its row but is offered no more (decision 0231).
 */
export async function newLenders(db: Db, officeId: number, codes: readonly string[]): Promise<Schemas['OfficeLender'][]> {
  await officeRecord(db, officeId);
  const linked = db.select({ id: officeLenders.lenderId }).from(officeLenders).where(eq(officeLenders.officeId, officeId));
  const rows = await db
    .select()
    .from(lenders)
    .where(and(eq(lenders.isActive, true), notInArray(lenders.id, linked), inArray(lenders.code, [...codes])))
    .orderBy(asc(lenders.name));
  return rows.map((lender, index) => ({
    lenderId: lender.id,
    officeId,
    code: lender.code,
    name: lender.name,
    lenderOfficeId: null,
    status: null,
    notes: null,
    numOrder: index,
    programUrl: null,
    officeApplyMode: null,
    isEnrollmentCompleted: false,
    isReviewed: false,
    isEnabled: false,
    discountRate: null,
    showApply: true,
  }));
}
