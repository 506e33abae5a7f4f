import { and, asc, count, eq, ilike, isNotNull, or, sql } from 'drizzle-orm';
import type { components } from '../../../codegen/generated/api.ts';
import type { Db } from '../../db/index.ts';
import { lenders, officeLenders, offices } from '../../db/schema.ts';
import { HttpProblem } from '../../http/problem.ts';
import { escapeLike } from '../search.ts';
import { addressOf, fileUrl, publicFileUrl, toOfficeProfile } from './mapping.ts';

/** The offices' public pages: landing page, multi-office landing page, locator, and the office's own view of its page. */

type Schemas = components['schemas'];

const NOT_FOUND = 'This page could not be found';

/**
 * Public pages show only offices that are approved, active and have published a landing code; Files GetPublicContent
 * serves the images of exactly these (decision 0031).
 */
const publicOffice = and(eq(offices.isApproved, true), eq(offices.isActive, true), isNotNull(offices.code));

/** The lenders the page shows: the office's enabled links to active lenders that it chose to show. */
async function landingLenders(db: Db, officeId: number): Promise<Schemas['LandingLender'][]> {
  return db
    .select({ code: lenders.code, name: lenders.name, programUrl: officeLenders.programUrl, numOrder: officeLenders.numOrder })
    .from(officeLenders)
    .innerJoin(lenders, eq(lenders.id, officeLenders.lenderId))
    .where(and(eq(officeLenders.officeId, officeId), eq(officeLenders.isEnabled, true), eq(officeLenders.showOnLanding, true), eq(lenders.isActive, true)))
    .orderBy(asc(officeLenders.numOrder), asc(lenders.name));
}

/**
 * A published page links its images to Files GetPublicContent, which an <img> opens without a token; a page not
 * published yet only to Files GetContent, for the office's staff (decision 0161).
 */
async function landingPageOf(db: Db, office: typeof offices.$inferSelect, isPublished: boolean): Promise<Schemas['LandingPage']> {
  const urlOf = isPublished ? publicFileUrl : fileUrl;
  const shown = await landingLenders(db, office.id);
  return {
    office: toOfficeProfile(office, urlOf),
    code: office.code ?? '',
    description: office.landingDescription,
    showMaps: office.showMaps,
    mapsUrl: office.mapsUrl,
    pictureUrl: urlOf(office.pictureFileId),
    lenders: shown,
    lenderCodes: shown.map((lender) => lender.code),
    isPublished,
  };
}

/** The public office of a landing page code; the 404 of a page that does not exist otherwise. */
export async function publicOfficeByCode(db: Db, code: string): Promise<typeof offices.$inferSelect> {
  const [office] = await db.select().from(offices).where(and(eq(sql`lower(${offices.code})`, code.toLowerCase()), publicOffice));
  if (!office) throw new HttpProblem(404, NOT_FOUND);
  return office;
}

export async function landingPageByCode(db: Db, code: string): Promise<Schemas['LandingPage']> {
  return landingPageOf(db, await publicOfficeByCode(db, code), true);
}

/** The office's own view of its landing page, published or not. */
export async function landingPageOfOffice(db: Db, officeId: number): Promise<Schemas['LandingPage']> {
  const [row] = await db.select({ office: offices, isPublished: sql<boolean>`coalesce(${publicOffice}, false)` }).from(offices).where(eq(offices.id, officeId));
  if (!row) throw new HttpProblem(404, 'The office could not be found.');
  return landingPageOf(db, row.office, row.isPublished);
}

export async function multiLandingPage(db: Db, groupCode: string): Promise<Schemas['MultiLandingPageItem'][]> {
  const rows = await db
    .select()
    .from(offices)
    .where(and(eq(sql`lower(${offices.groupCode})`, groupCode.toLowerCase()), publicOffice))
    .orderBy(asc(offices.name));
  if (rows.length === 0) throw new HttpProblem(404, NOT_FOUND);
  return rows.map((office) => ({ office: toOfficeProfile(office), landingPageCode: office.code! }));
}

/** The public locator: published offices by name, city or zip code. */
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
