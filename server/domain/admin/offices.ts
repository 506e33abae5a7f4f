import { and, asc, desc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { components } from '../../../codegen/generated/api.ts';
import type { Db } from '../../db/index.ts';
import { lenders, officeLenders, offices } from '../../db/schema.ts';
import { HttpProblem } from '../../http/problem.ts';
import { DEFAULT_PAGE_SIZE, paged, totalRows, type Page } from '../paging.ts';
import { escapeLike, withinDates } from '../search.ts';
import { officeLenderList } from '../offices/reads.ts';
import { assertWebUrl, lockOffice, message } from '../offices/records.ts';
import { toUtc } from '../values.ts';

type Schemas = components['schemas'];

/** Columns of list-query.sortBy an office row has; the others are ignored (newest first). */
const SORTABLE = {
  id: offices.id,
  name: offices.name,
  officeName: offices.name,
  status: offices.enrollmentStatus,
  createdAtUtc: offices.createdAt,
  updatedAtUtc: offices.updatedAt,
  submittedAtUtc: offices.submittedAt,
} as const;

/** 'Search offices': part of the name, code or city, or the office id. */
function officeSearch(search: string | undefined): SQL | undefined {
  const text = search?.trim();
  if (!text) return undefined;
  const pattern = `%${escapeLike(text)}%`;
  return or(ilike(offices.name, pattern), ilike(offices.code, pattern), ilike(offices.city, pattern), /^\d{1,9}$/.test(text) ? eq(offices.id, Number(text)) : undefined);
}

/** drizzle leaves the table name off columns of a one-table select, so the outer office is named in full. */
const primaryUser = (column: SQL) => sql<string | null>`(
  select ${column} from user_offices uo join users u on u.id = uo.user_id
  where uo.office_id = ${sql.identifier('offices')}.${sql.identifier('id')} and uo.is_primary order by uo.created_at limit 1)`;

/** AdminOffices_GetOffices: every office, paged, filtered by search, enrollment status and creation date. */
export async function listOffices(db: Db, query: Schemas['ListQuery']): Promise<Page<Schemas['OfficeRow']>> {
  const where = and(
    query.officeId === undefined ? undefined : eq(offices.id, query.officeId),
    query.enrollmentStatuses?.length ? inArray(offices.enrollmentStatus, query.enrollmentStatuses) : undefined,
    officeSearch(query.search),
    withinDates(offices.createdAt, query),
  );
  const column = SORTABLE[query.sortBy as keyof typeof SORTABLE];
  const direction = column ? (query.sortDesc ? desc : asc) : desc;
  return paged(
    query,
    (limit, offset) =>
      db
        .select({
          office: offices,
          primaryUserName: primaryUser(sql`u.first_name || ' ' || u.last_name`),
          primaryUserEmail: primaryUser(sql`u.email`),
          total: totalRows(),
        })
        .from(offices)
        .where(where)
        .orderBy(direction(column ?? offices.createdAt), direction(offices.id))
        .limit(limit ?? DEFAULT_PAGE_SIZE)
        .offset(offset),
    () => db.$count(offices, where),
    ({ office, primaryUserName, primaryUserEmail }): Schemas['OfficeRow'] => ({
      id: office.id,
      name: office.name,
      code: office.code,
      phone: office.phone,
      city: office.city,
      state: office.state,
      category: office.category,
      isActive: office.isActive,
      isEnrollmentCompleted: office.isEnrollmentCompleted,
      isApproved: office.isApproved,
      isReviewed: office.isReviewed,
      enrollmentStatus: office.enrollmentStatus,
      primaryUserName: primaryUserName === null ? null : primaryUserName.slice(0, 51),
      primaryUserEmail,
      createdAtUtc: toUtc(office.createdAt),
      submittedAtUtc: toUtc(office.submittedAt),
    }),
  );
}

/**
 * AdminOffices_UpsertLenders: adds or edits the office's lender links, in one transaction. Fields
 * left out keep their stored value (or the column default for a new link); links not listed stay.
 */
export async function upsertOfficeLenders(db: Db, body: Schemas['OfficeLendersUpsert']): Promise<Schemas['OfficeLender'][]> {
  const errors: Record<string, string[]> = {};
  const seen = new Set<number>();
  body.lenders.forEach((link, index) => {
    try {
      assertWebUrl(link.programUrl, `lenders.${index}.programUrl`);
    } catch (problem) {
      Object.assign(errors, (problem as HttpProblem).errors);
    }
    if (seen.has(link.lenderId)) errors[`lenders.${index}.lenderId`] = [message('notAllowedValue')];
    seen.add(link.lenderId);
  });
  if (Object.keys(errors).length > 0) throw HttpProblem.validation(errors);

  await db.transaction(async (tx) => {
    await lockOffice(tx, body.officeId);
    const ids = body.lenders.map((link) => link.lenderId);
    const known = await tx.select({ id: lenders.id }).from(lenders).where(inArray(lenders.id, ids));
    if (known.length !== ids.length) throw new HttpProblem(404, 'The lender could not be found.');
    for (const { lenderId, ...fields } of body.lenders) {
      const values = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<typeof officeLenders.$inferInsert>;
      await tx
        .insert(officeLenders)
        .values({ ...values, officeId: body.officeId, lenderId })
        .onConflictDoUpdate({ target: [officeLenders.officeId, officeLenders.lenderId], set: { ...values, updatedAt: sql`now()` } });
    }
  });
  return officeLenderList(db, body.officeId, false);
}
