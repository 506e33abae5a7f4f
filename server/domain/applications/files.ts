import { and, desc, eq } from 'drizzle-orm';
import type { components } from '../../../codegen/generated/api.ts';
import type { Db } from '../../db/index.ts';
import { files, users } from '../../db/schema.ts';
import type { Caller } from '../../http/caller.ts';
import type { UploadedFile } from '../../http/handler-types.ts';
import { HttpProblem } from '../../http/problem.ts';
import { checkUpload, DOCUMENT_RULE, storeFile } from '../files/uploads.ts';
import { message } from '../offices/records.ts';
import { toUtc } from '../values.ts';
import { lockApplication, staffUserId, writeLogs } from './records.ts';

type Schemas = components['schemas'];

/** The kind of an application file uploaded without a type. */
const DEFAULT_KIND = 'Other';

const columns = {
  id: files.id,
  appId: files.appId,
  kind: files.kind,
  fileName: files.fileName,
  contentType: files.contentType,
  sizeBytes: files.sizeBytes,
  description: files.description,
  createdAt: files.createdAt,
  firstName: users.firstName,
  lastName: users.lastName,
};

function toAppFile(row: { id: string; appId: number | null; kind: string; fileName: string; contentType: string; sizeBytes: number; description: string | null; createdAt: Date; firstName: string | null; lastName: string | null }): Schemas['AppFile'] {
  return {
    id: row.id,
    appId: row.appId!,
    fileName: row.fileName,
    fileType: row.kind.slice(0, 50),
    contentType: row.contentType,
    size: row.sizeBytes,
    description: row.description,
    uploadedBy: row.firstName === null ? null : `${row.firstName} ${row.lastName}`.slice(0, 51),
    uploadedAtUtc: toUtc(row.createdAt),
  };
}

/** App_GetAppFiles: newest first; the bytes are read with Files_GetContent. */
export async function appFileList(db: Db, appId: number): Promise<Schemas['AppFile'][]> {
  const rows = await db
    .select(columns)
    .from(files)
    .leftJoin(users, eq(users.id, files.createdBy))
    .where(eq(files.appId, appId))
    .orderBy(desc(files.createdAt), desc(files.id));
  return rows.map(toAppFile);
}

/**
 * App_UploadFile: one document (PDF, PNG, JPEG or HEIC, typed by its bytes, within UPLOAD_LIMIT) kept
 * on the application, in its office's files so that Files_GetContent's office check covers it.
 */
export async function uploadAppFile(db: Db, uploadLimit: number, caller: Caller, model: Schemas['UploadFileModel'], upload: UploadedFile | undefined): Promise<Schemas['AppFile']> {
  if (!upload) throw HttpProblem.validation({ file: [message('required')] });
  const checked = checkUpload(upload, DOCUMENT_RULE(uploadLimit));
  if ('error' in checked) throw HttpProblem.validation({ file: [checked.error] });
  const id = await db.transaction(async (tx) => {
    const app = await lockApplication(tx, model.appId);
    const fileId = await storeFile(tx, {
      officeId: app.officeId,
      appId: app.id,
      kind: model.fileType?.trim() || DEFAULT_KIND,
      file: upload,
      contentType: checked.contentType,
      createdBy: staffUserId(caller),
    });
    if (model.description) await tx.update(files).set({ description: model.description }).where(eq(files.id, fileId));
    await writeLogs(tx, app.id, caller, [
      { kind: 'Event', message: 'File uploaded', data: { fileId, fileName: upload.fileName.slice(0, 255), contentType: checked.contentType, size: upload.data.length } },
    ]);
    return fileId;
  });
  const [row] = await db.select(columns).from(files).leftJoin(users, eq(users.id, files.createdBy)).where(and(eq(files.id, id)));
  return toAppFile(row!);
}
