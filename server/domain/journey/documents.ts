import { and, desc, eq, inArray } from 'drizzle-orm';
import type { components } from '../../../codegen/generated/api.ts';
import { files } from '../../db/schema.ts';
import type { Services } from '../../services.ts';
import { documentLink } from '../files/links.ts';
import { ADVERSE_ACTION_KIND } from '../applications/adverse-action.ts';
import { toUtc } from '../values.ts';
import { CONSENT_KIND, SIGNED_KIND } from './esign.ts';

type Schemas = components['schemas'];

/** What the borrower was given (decision 0220): never the office's uploads, nor an agreement before it is signed. */
const BORROWER_KINDS = [CONSENT_KIND, SIGNED_KIND, ADVERSE_ACTION_KIND];

/** App_GetMyDocuments: the borrower's records of the application, newest first, each with a short-lived link. */
export async function myDocuments(services: Services, appId: number): Promise<Schemas['BorrowerDocument'][]> {
  const rows = await services.db
    .select({ id: files.id, fileName: files.fileName, kind: files.kind, sha256: files.sha256, createdAt: files.createdAt })
    .from(files)
    .where(and(eq(files.appId, appId), inArray(files.kind, BORROWER_KINDS)))
    .orderBy(desc(files.createdAt), desc(files.id));
  return rows.map((row) => ({
    fileName: row.fileName,
    kind: row.kind as Schemas['BorrowerDocument']['kind'],
    addedAtUtc: toUtc(row.createdAt),
    sha256: row.sha256,
    ...documentLink(services.settings.borrowerTokenSecret, services.settings.publicUrl, row.id),
  }));
}
