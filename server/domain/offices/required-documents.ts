import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { components } from '../../../codegen/generated/api.ts';
import type { Db } from '../../db/index.ts';
import { configItems, files, officeOwners } from '../../db/schema.ts';
import { PHOTO_ID_KIND } from './mapping.ts';

type RequiredDocument = components['schemas']['RequiredDocument'];

/**
 * The office documents every enrollment needs (decision 0148): the W-9 (the office's tax id, for the lenders' 1099s)
 * and a voided check (the account the office is paid into), besides a photo-id of each owner (know your customer).
 */
export const REQUIRED_OFFICE_FILES = ['W9', 'VoidedCheck'] as const;

/** What an office has to upload before it can submit its enrollment, and what it has. */
export async function requiredDocuments(db: Db, officeId: number): Promise<RequiredDocument[]> {
  const [owners, stored, types] = await Promise.all([
    db.select({ id: officeOwners.id, firstName: officeOwners.firstName, lastName: officeOwners.lastName }).from(officeOwners).where(eq(officeOwners.officeId, officeId)).orderBy(officeOwners.id),
    db.select({ kind: files.kind, ownerId: files.ownerId }).from(files).where(and(eq(files.officeId, officeId), isNull(files.appId))),
    db.select({ name: configItems.name, value: configItems.value }).from(configItems).where(and(eq(configItems.type, 'OfficeFileTypes'), inArray(configItems.value, [...REQUIRED_OFFICE_FILES, PHOTO_ID_KIND]))),
  ]);
  const nameOf = (kind: string) => types.find((t) => t.value === kind)?.name ?? kind;
  return [
    ...REQUIRED_OFFICE_FILES.map((kind) => ({ fileType: kind, ownerId: null, name: nameOf(kind), isUploaded: stored.some((f) => f.kind === kind) })),
    ...owners.map((owner) => ({
      fileType: PHOTO_ID_KIND,
      ownerId: owner.id,
      name: `${nameOf(PHOTO_ID_KIND)}: ${owner.firstName} ${owner.lastName}`,
      isUploaded: stored.some((f) => f.kind === PHOTO_ID_KIND && f.ownerId === owner.id),
    })),
  ];
}
