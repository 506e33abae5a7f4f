import { and, eq, inArray, sql } from 'drizzle-orm';
import type { components } from '../../../codegen/generated/api.ts';
import type { Db } from '../../db/index.ts';
import { files, lenders, officeLenders, offices } from '../../db/schema.ts';
import type { UploadedFile } from '../../http/handler-types.ts';
import { HttpProblem } from '../../http/problem.ts';
import { imageSizeProblem } from '../../../core/image-size.ts';
import { checkUpload, IMAGE_RULE, storeFile } from '../files/uploads.ts';
import { LANDING_LOGO_KIND, LANDING_PICTURE_KIND } from './mapping.ts';
import { assertCodeFree, assertWebUrl, codeTaken, isUniqueViolation, lockOffice, message } from './records.ts';

/** The logo is shown at most 200 by 60 (spec §2, §9), so it may not be larger: a megabyte is plenty. The picture is a photo. */
export const LOGO_MAX_BYTES = 1_048_576;
export const LOGO_MAX_PIXELS = { width: 200, height: 60 };
export const PICTURE_MAX_BYTES = 5_242_880;

interface Image {
  file: UploadedFile;
  contentType: string;
}

function checkImages(logo: UploadedFile | undefined, picture: UploadedFile | undefined, uploadLimit: number): { logo?: Image; picture?: Image } {
  const errors: Record<string, string[]> = {};
  const images: { logo?: Image; picture?: Image } = {};
  const rules = [
    ['logo', logo, LOGO_MAX_BYTES, LOGO_MAX_PIXELS],
    ['picture', picture, PICTURE_MAX_BYTES, {}],
  ] as const;
  for (const [part, file, maxBytes, maxPixels] of rules) {
    if (!file) continue;
    const checked = checkUpload(file, IMAGE_RULE(Math.min(maxBytes, uploadLimit)));
    // The size the image declares is read from its bytes, as the browser's file widget reads it.
    const problem = 'error' in checked ? checked.error : imageSizeProblem(file.data, maxPixels);
    if (problem) errors[part] = [problem];
    else if (!('error' in checked)) images[part] = { file, contentType: checked.contentType };
  }
  if (Object.keys(errors).length > 0) throw HttpProblem.validation(errors);
  return images;
}

/** Shows on the page the office's lenders named by code, and no other; a code that is none of its lenders is a 400. */
async function chooseLenders(tx: Db, officeId: number, codes: readonly string[]): Promise<void> {
  const links = await tx
    .select({ lenderId: officeLenders.lenderId, code: lenders.code })
    .from(officeLenders)
    .innerJoin(lenders, eq(lenders.id, officeLenders.lenderId))
    .where(eq(officeLenders.officeId, officeId));
  const known = new Set(links.map((link) => link.code));
  if (codes.some((code) => !known.has(code))) throw HttpProblem.validation({ lenders: [message('notAllowedValue')] });
  const shown = links.filter((link) => codes.includes(link.code)).map((link) => link.lenderId);
  await tx
    .update(officeLenders)
    .set({ showOnLanding: shown.length > 0 ? inArray(officeLenders.lenderId, shown) : sql`false`, updatedAt: sql`now()` })
    .where(eq(officeLenders.officeId, officeId));
}

/**
 * Office_UpsertLandingPage: the office's public page, in one transaction: code, text, map, the lenders it shows and
 * images. The model is the whole page (a text or map address left out is cleared; lenders left out stay as they are);
 * a new logo or picture replaces the stored one, removeLogo / removePicture drop it. A code another office uses (in
 * any letter case) is a 409.
 */
export async function upsertLandingPage(
  db: Db,
  uploadLimit: number,
  createdBy: string | null,
  model: components['schemas']['LandingPageUpsert'],
  parts: { logo?: UploadedFile; picture?: UploadedFile },
): Promise<void> {
  assertWebUrl(model.mapsUrl, 'mapsUrl');
  const images = checkImages(parts.logo, parts.picture, uploadLimit);
  await db
    .transaction(async (tx) => {
      const office = await lockOffice(tx, model.officeId);
      if (model.code !== office.code) await assertCodeFree(tx, model.code, office.id);
      const store = (image: Image, kind: string) => storeFile(tx, { officeId: office.id, kind, file: image.file, contentType: image.contentType, createdBy });
      const logoFileId = images.logo ? await store(images.logo, LANDING_LOGO_KIND) : model.removeLogo ? null : office.logoFileId;
      const pictureFileId = images.picture ? await store(images.picture, LANDING_PICTURE_KIND) : model.removePicture ? null : office.pictureFileId;
      await tx
        .update(offices)
        .set({
          code: model.code,
          landingDescription: model.description ?? null,
          showMaps: model.showMaps ?? false,
          mapsUrl: model.mapsUrl ?? null,
          logoFileId,
          pictureFileId,
          updatedAt: sql`now()`,
        })
        .where(eq(offices.id, office.id));
      if (model.lenders) await chooseLenders(tx, office.id, model.lenders);
      const dropped = [office.logoFileId !== logoFileId ? office.logoFileId : null, office.pictureFileId !== pictureFileId ? office.pictureFileId : null].filter((id): id is string => id !== null);
      if (dropped.length > 0) await tx.delete(files).where(and(eq(files.officeId, office.id), inArray(files.id, dropped)));
    })
    .catch((error: unknown) => {
      if (isUniqueViolation(error, 'offices_code_key')) throw codeTaken();
      throw error;
    });
}
