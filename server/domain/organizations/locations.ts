import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { components } from '../../../codegen/generated/api.ts';
import type { Db } from '../../db/index.ts';
import { officeOwners, offices, organizations, userOffices, users } from '../../db/schema.ts';
import type { Caller } from '../../http/caller.ts';
import { HttpProblem } from '../../http/problem.ts';
import { addressColumns, lockOffice } from '../offices/records.ts';
import { belonging, locationsInView } from '../users/locations.ts';

type Schemas = components['schemas'];
type Staff = Extract<Caller, { kind: 'staff' }>;

/** Office_GetOrganization: the office's organization and those of its locations the caller belongs to. */
export async function organizationOf(db: Db, caller: Caller, officeId: number): Promise<Schemas['Organization']> {
  const [office] = await db
    .select({ organizationId: offices.organizationId, name: organizations.name })
    .from(offices)
    .leftJoin(organizations, eq(organizations.id, offices.organizationId))
    .where(eq(offices.id, officeId));
  const ids = await locationsInView(db, caller, officeId, belonging);
  const rows = await db
    .select({ id: offices.id, name: offices.name, city: offices.city, state: offices.state, enrollmentStatus: offices.enrollmentStatus })
    .from(offices)
    .where(inArray(offices.id, ids))
    .orderBy(asc(offices.name), asc(offices.id));
  return {
    id: office?.organizationId ?? null,
    name: office?.name ?? null,
    locations: rows.map((row) => ({
      officeId: row.id,
      officeName: row.name,
      city: row.city,
      state: row.state,
      enrollmentStatus: row.enrollmentStatus,
      permissions: (caller.kind === 'staff' ? [...(caller.permissions.get(row.id) ?? [])] : []) as Schemas['OfficePermission'][],
    })),
  };
}

/**
 * Office_AddLocation: a new office of the organization of `fromOfficeId`, formed now if the office had none and named by
 * its legal name. The business is the same, so its profile and owners are copied; its place, phone and time zone are the
 * location's own, and so are its landing code, bank account, documents, lenders and review: it starts at 'New'.
 */
export async function addLocation(db: Db, caller: Staff, body: Schemas['LocationAdd']): Promise<number> {
  return db.transaction(async (tx) => {
    const from = await lockOffice(tx, body.fromOfficeId);
    const organizationId = from.organizationId ?? (await formOrganization(tx, from));
    const [office] = await tx
      .insert(offices)
      .values({
        organizationId,
        name: body.name,
        phone: body.phone,
        ...addressColumns(body.address),
        timeZone: body.timeZone,
        legalName: from.legalName,
        website: from.website,
        category: from.category,
        taxId: from.taxId,
        businessType: from.businessType,
        licenseNo: from.licenseNo,
        licenseState: from.licenseState,
        groupCode: from.groupCode,
        enrollmentStatus: 'New',
      })
      .returning({ id: offices.id });
    const officeId = office!.id;
    const owners = await tx.select().from(officeOwners).where(eq(officeOwners.officeId, from.id)).orderBy(asc(officeOwners.id));
    if (owners.length > 0) await tx.insert(officeOwners).values(owners.map(({ id: _id, createdAt: _created, updatedAt: _updated, ...owner }) => ({ ...owner, officeId })));
    const [link] = await tx
      .select({ title: userOffices.title, title2: users.title })
      .from(users)
      .leftJoin(userOffices, and(eq(userOffices.userId, users.id), eq(userOffices.officeId, from.id)))
      .where(eq(users.id, caller.userId));
    await tx.insert(userOffices).values({ userId: caller.userId, officeId, role: 'admin', title: link?.title ?? link?.title2 ?? null, timeZone: body.timeZone, isPrimary: true });
    return officeId;
  });
}

/** A new organization around an office that had none, named by its legal name: the office is its first location. */
async function formOrganization(tx: Db, office: { id: number; name: string; legalName: string | null }): Promise<number> {
  const [created] = await tx.insert(organizations).values({ name: office.legalName ?? office.name }).returning({ id: organizations.id });
  await tx.update(offices).set({ organizationId: created!.id }).where(eq(offices.id, office.id));
  return created!.id;
}

/**
 * AdminOffices_SetOrganization: a platform admin groups an office that enrolled apart with another office's organization
 * (formed now if it has none), or takes it out; an organization left without offices goes. Access is untouched.
 */
export async function setOrganization(db: Db, body: Schemas['OfficeOrganizationSet']): Promise<void> {
  await db.transaction(async (tx) => {
    const office = await lockOffice(tx, body.officeId);
    let organizationId: number | null = null;
    if (body.withOfficeId !== undefined && body.withOfficeId !== null) {
      if (body.withOfficeId === body.officeId) throw HttpProblem.validation({ withOfficeId: ['Choose another office than this one.'] });
      const [other] = await tx.select().from(offices).where(eq(offices.id, body.withOfficeId)).for('update');
      if (!other) throw HttpProblem.validation({ withOfficeId: ['No office has this id.'] });
      organizationId = other.organizationId ?? (await formOrganization(tx, other));
    }
    await tx.update(offices).set({ organizationId, updatedAt: new Date() }).where(eq(offices.id, office.id));
    const before = office.organizationId;
    if (before !== null && before !== organizationId) {
      await tx.delete(organizations).where(and(eq(organizations.id, before), sql`not exists (select 1 from offices o where o.organization_id = ${before})`));
    }
  });
}
