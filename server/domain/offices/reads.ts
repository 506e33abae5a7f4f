import { and, asc, count, eq, ilike, isNotNull, notInArray, or, sql } from 'drizzle-orm';
import type { components } from '../../../codegen/generated/api.ts';
import type { Db } from '../../db/index.ts';
import { files, lenders, officeLenders, officeOwners, offices, userOffices, users } from '../../db/schema.ts';
import { HttpProblem } from '../../http/problem.ts';
import { paged, totalRows } from '../paging.ts';
import { activeLink, primaryOfficeUser } from '../users/reads.ts';
import { escapeLike } from '../search.ts';
import { addressOf, fileUrl, LANDING_KINDS, officeFileColumns, PHOTO_ID_KIND, publicFileUrl, toOfficeCore, toOfficeFile, toOfficeProfile, toOwner } from './mapping.ts';

type Schemas = components['schemas'];

async function officeRecord(db: Db, id: number) {
  const [office] = await db.select().from(offices).where(eq(offices.id, id));
  if (!office) throw new HttpProblem(404, 'The office could not be found.');
  return office;
}

export async function getOffice(db: Db, piiKey: Buffer, id: number): Promise<Schemas['Office']> {
  const office = await officeRecord(db, id);
  const [owners, officeFiles, primary] = await Promise.all([
    db.select().from(officeOwners).where(eq(officeOwners.officeId, id)).orderBy(asc(officeOwners.id)),
    db
      .select(officeFileColumns)
      .from(files)
      .leftJoin(users, eq(users.id, files.createdBy))
      .where(and(eq(files.officeId, id), sql`${files.appId} is null`, notInArray(files.kind, [...LANDING_KINDS])))
      .orderBy(asc(files.createdAt)),
    primaryOfficeUser(db, id),
  ]);
  const photoIds = new Set(officeFiles.filter((f) => f.ownerId !== null && f.kind === PHOTO_ID_KIND).map((f) => f.ownerId));
  return {
    ...toOfficeCore(office),
    owners: owners.map((owner) => toOwner(piiKey, owner, photoIds.has(owner.id))),
    files: officeFiles.map(toOfficeFile),
    primaryUser: primary,
  };
}

/** The signed-in user's offices; pageSize -1 means all of them (the header's Switch Offices list). */
export async function userOfficePage(db: Db, userId: string, pageSize: number, page: number) {
  // An invitation that is not accepted yet grants nothing, so its office is not offered either.
  const where = and(eq(userOffices.userId, userId), activeLink);
  const query = db
    .select({ link: userOffices, office: offices, total: totalRows() })
    .from(userOffices)
    .innerJoin(offices, eq(offices.id, userOffices.officeId))
    .where(where)
    .orderBy(asc(offices.name), asc(offices.id));
  return paged(
    { page, pageSize },
    (limit, offset) => (limit === undefined ? query : query.limit(limit).offset(offset)),
    () => db.$count(userOffices, where),
    ({ link, office }): Schemas['UserOffice'] => ({
      officeId: office.id,
      officeName: office.name,
      city: office.city,
      state: office.state,
      role: link.role,
      title: link.title,
      timeZone: link.timeZone ?? office.timeZone,
      isPrimary: link.isPrimary,
      isEnrollmentCompleted: office.isEnrollmentCompleted,
      isApproved: office.isApproved,
    }),
  );
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

/** Active lenders the office has no link with yet: the 'new lenders' popup offers them. */
export async function newLenders(db: Db, officeId: number): Promise<Schemas['OfficeLender'][]> {
  await officeRecord(db, officeId);
  const linked = db.select({ id: officeLenders.lenderId }).from(officeLenders).where(eq(officeLenders.officeId, officeId));
  const rows = await db.select().from(lenders).where(and(eq(lenders.isActive, true), notInArray(lenders.id, linked))).orderBy(asc(lenders.name));
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

/** Public pages show only offices that are approved, active and have published a landing code. */
const publicOffice = and(eq(offices.isApproved, true), eq(offices.isActive, true), isNotNull(offices.code));

async function landingLenders(db: Db, officeId: number): Promise<Schemas['LandingLender'][]> {
  const rows = await db
    .select({ code: lenders.code, name: lenders.name, programUrl: officeLenders.programUrl, numOrder: officeLenders.numOrder })
    .from(officeLenders)
    .innerJoin(lenders, eq(lenders.id, officeLenders.lenderId))
    .where(and(eq(officeLenders.officeId, officeId), eq(officeLenders.isEnabled, true), eq(lenders.isActive, true)))
    .orderBy(asc(officeLenders.numOrder), asc(lenders.name));
  return rows;
}

/** Public pages link images to Files GetPublicContent; the office's own editor to Files GetContent. */
async function landingPageOf(db: Db, office: typeof offices.$inferSelect, urlOf: (id: string | null) => string | null): Promise<Schemas['LandingPage']> {
  return {
    office: toOfficeProfile(office, urlOf),
    code: office.code ?? '',
    description: office.landingDescription,
    showMaps: office.showMaps,
    mapsUrl: office.mapsUrl,
    pictureUrl: urlOf(office.pictureFileId),
    lenders: await landingLenders(db, office.id),
  };
}

export async function landingPageByCode(db: Db, code: string): Promise<Schemas['LandingPage']> {
  const [office] = await db.select().from(offices).where(and(eq(sql`lower(${offices.code})`, code.toLowerCase()), publicOffice));
  if (!office) throw new HttpProblem(404, 'This page could not be found');
  return landingPageOf(db, office, publicFileUrl);
}

/** The office's own view of its landing page, published or not. */
export async function landingPageOfOffice(db: Db, officeId: number): Promise<Schemas['LandingPage']> {
  return landingPageOf(db, await officeRecord(db, officeId), fileUrl);
}

export async function multiLandingPage(db: Db, groupCode: string): Promise<Schemas['MultiLandingPageItem'][]> {
  const rows = await db
    .select()
    .from(offices)
    .where(and(eq(sql`lower(${offices.groupCode})`, groupCode.toLowerCase()), publicOffice))
    .orderBy(asc(offices.name));
  if (rows.length === 0) throw new HttpProblem(404, 'This page could not be found');
  return rows.map((office) => ({ office: toOfficeProfile(office), landingPageCode: office.code! }));
}


/** The public locator: approved offices by name, city or zip code. */
export async function searchOffices(db: Db, query: Schemas['SearchOffices']): Promise<Schemas['SearchOfficesResult']> {
  const page = query.page ?? 1;
  const pageSize = query.pageSize ?? 25;
  const text = query.search?.trim();
  const pattern = text ? `%${escapeLike(text)}%` : undefined;
  const where = and(
    publicOffice,
    pattern ? or(ilike(offices.name, pattern), ilike(offices.city, pattern), ilike(offices.zipCode, `${escapeLike(text!)}%`)) : undefined,
    query.zipCode ? eq(sql`left(${offices.zipCode}, 5)`, query.zipCode.slice(0, 5)) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db.select().from(offices).where(where).orderBy(asc(offices.name), asc(offices.id)).limit(pageSize).offset((page - 1) * pageSize),
    db.select({ value: count() }).from(offices).where(where),
  ]);
  return {
    items: rows.map((office) => ({
      id: office.id,
      name: office.name,
      phone: office.phone,
      category: office.category,
      address: addressOf(office),
      logoUrl: publicFileUrl(office.logoFileId),
      landingPageCode: office.code,
    })),
    count: total?.value ?? 0,
  };
}
