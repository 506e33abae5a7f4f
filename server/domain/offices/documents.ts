import { and, eq, inArray, isNull, notInArray, sql } from 'drizzle-orm';
import type { components } from '../../../codegen/generated/api.ts';
import type { Db } from '../../db/index.ts';
import { configItems, files, officeOwners, users } from '../../db/schema.ts';
import type { UploadedFile } from '../../http/handler-types.ts';
import { HttpProblem } from '../../http/problem.ts';
import { checkUpload, DOCUMENT_RULE, storeFile } from '../files/uploads.ts';
import { LANDING_KINDS, officeFileColumns, PHOTO_ID_KIND, toOfficeFile } from './mapping.ts';
import { lockOffice, message } from './records.ts';

type Schemas = components['schemas'];

/** One document to store: the bytes, their checked type, and what they are. */
interface DocumentInput {
  file: UploadedFile;
  contentType: string;
  kind: string;
  ownerId: number | null;
}

/** The office file types (config items OfficeFileTypes) an office may upload, by their code. */
async function fileTypes(db: Db): Promise<Set<string>> {
  const rows = await db
    .select({ value: configItems.value, name: configItems.name })
    .from(configItems)
    .where(and(eq(configItems.type, 'OfficeFileTypes'), eq(configItems.isEnabled, true)));
  return new Set(rows.map((row) => row.value ?? row.name));
}

/** Owners named by the documents must be owners of this office; anything else is not found. */
async function checkOwners(tx: Db, officeId: number, ownerIds: number[]): Promise<void> {
  if (ownerIds.length === 0) return;
  const unique = [...new Set(ownerIds)];
  const found = await tx
    .select({ id: officeOwners.id })
    .from(officeOwners)
    .where(and(eq(officeOwners.officeId, officeId), inArray(officeOwners.id, unique)));
  if (found.length !== unique.length) throw new HttpProblem(404, 'The owner could not be found.');
}

/**
 * Stores documents of an office. An owner has one photo-id: a new one replaces the previous, so the
 * lender reviews the current document only.
 */
async function storeDocuments(tx: Db, officeId: number, createdBy: string | null, documents: DocumentInput[]): Promise<string[]> {
  const replaced = documents.filter((d) => d.kind === PHOTO_ID_KIND && d.ownerId !== null).map((d) => d.ownerId!);
  if (replaced.length > 0) {
    await tx.delete(files).where(and(eq(files.officeId, officeId), isNull(files.appId), eq(files.kind, PHOTO_ID_KIND), inArray(files.ownerId, replaced)));
  }
  const ids: string[] = [];
  for (const document of documents) {
    ids.push(await storeFile(tx, { officeId, ownerId: document.ownerId, kind: document.kind, file: document.file, contentType: document.contentType, createdBy }));
  }
  return ids;
}

/**
 * Office_UpsertDocs: the i-th 'files' part is described by model.files[i]; model.deleteFileIds are
 * removed. Every part is checked before anything is written, and everything is written in one
 * transaction.
 */
export async function upsertDocs(db: Db, uploadLimit: number, createdBy: string | null, model: Schemas['UpsertDocsModel'], uploads: UploadedFile[]): Promise<void> {
  const errors: Record<string, string[]> = {};
  if (uploads.length !== model.files.length) {
    errors.files = [`Send one 'files' part for each entry of model.files (${model.files.length} described, ${uploads.length} sent).`];
    throw HttpProblem.validation(errors);
  }
  const allowed = await fileTypes(db);
  const documents: DocumentInput[] = [];
  model.files.forEach((described, index) => {
    const upload = uploads[index]!;
    const checked = checkUpload(upload, DOCUMENT_RULE(uploadLimit));
    if ('error' in checked) errors[`files.${index}`] = [checked.error];
    if (!allowed.has(described.fileType)) errors[`files.${index}.fileType`] = [message('notAllowedValue')];
    if (described.fileType === PHOTO_ID_KIND && !described.ownerId) errors[`files.${index}.ownerId`] = [message('ownerForPhotoId')];
    if ('contentType' in checked) documents.push({ file: upload, contentType: checked.contentType, kind: described.fileType, ownerId: described.ownerId ?? null });
  });
  if (Object.keys(errors).length > 0) throw HttpProblem.validation(errors);

  await db.transaction(async (tx) => {
    await lockOffice(tx, model.officeId);
    await checkOwners(tx, model.officeId, documents.flatMap((d) => (d.ownerId === null ? [] : [d.ownerId])));
    const removed = model.deleteFileIds ?? [];
    if (removed.length > 0) {
      // Enrollment documents only: application files and landing page images have calls of their own.
      const deleted = await tx
        .delete(files)
        .where(and(eq(files.officeId, model.officeId), isNull(files.appId), notInArray(files.kind, [...LANDING_KINDS]), inArray(files.id, removed)))
        .returning({ id: files.id });
      if (deleted.length !== removed.length) throw new HttpProblem(404, 'The file could not be found.');
    }
    await storeDocuments(tx, model.officeId, createdBy, documents);
    await tx.execute(sql`update offices set updated_at = now() where id = ${model.officeId}`);
  });
}

/** Office_UploadDoc: one document, e.g. an owner's photo-id (which needs the owner, spec §5). */
export async function uploadDoc(db: Db, uploadLimit: number, createdBy: string | null, model: Schemas['UploadDocModel'], upload: UploadedFile | undefined): Promise<Schemas['OfficeFile']> {
  const errors: Record<string, string[]> = {};
  const kind = model.isPhotoId ? PHOTO_ID_KIND : model.fileType;
  if (!upload) errors.file = [message('required')];
  const checked = upload ? checkUpload(upload, DOCUMENT_RULE(uploadLimit)) : undefined;
  if (checked && 'error' in checked) errors.file = [checked.error];
  if (!(await fileTypes(db)).has(kind)) errors.fileType = [message('notAllowedValue')];
  if (kind === PHOTO_ID_KIND && !model.ownerId) errors.ownerId = [message('ownerForPhotoId')];
  if (Object.keys(errors).length > 0 || !upload || !checked || !('contentType' in checked)) throw HttpProblem.validation(errors);

  const id = await db.transaction(async (tx) => {
    await lockOffice(tx, model.officeId);
    await checkOwners(tx, model.officeId, model.ownerId ? [model.ownerId] : []);
    const [stored] = await storeDocuments(tx, model.officeId, createdBy, [{ file: upload, contentType: checked.contentType, kind, ownerId: model.ownerId ?? null }]);
    await tx.execute(sql`update offices set updated_at = now() where id = ${model.officeId}`);
    return stored!;
  });
  const [row] = await db
    .select(officeFileColumns)
    .from(files)
    .leftJoin(users, eq(users.id, files.createdBy))
    .where(eq(files.id, id));
  return toOfficeFile(row!);
}
