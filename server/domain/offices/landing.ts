import { and, eq, inArray, sql } from 'drizzle-orm';
import type { components } from '../../../codegen/generated/api.ts';
import type { Db } from '../../db/index.ts';
import { files, offices } from '../../db/schema.ts';
import type { UploadedFile } from '../../http/handler-types.ts';
import { HttpProblem } from '../../http/problem.ts';
import { checkUpload, IMAGE_RULE, storeFile } from '../files/uploads.ts';
import { LANDING_LOGO_KIND, LANDING_PICTURE_KIND } from './mapping.ts';
import { assertCodeFree, assertWebUrl, codeTaken, given, isUniqueViolation, lockOffice } from './records.ts';

/** The client shows the logo at most 200 by 60: a megabyte is plenty. The picture is a photo. */
export const LOGO_MAX_BYTES = 1_048_576;
export const PICTURE_MAX_BYTES = 5_242_880;

interface Image {
  file: UploadedFile;
  contentType: string;
}

function checkImages(logo: UploadedFile | undefined, picture: UploadedFile | undefined, uploadLimit: number): { logo?: Image; picture?: Image } {
  const errors: Record<string, string[]> = {};
  const images: { logo?: Image; picture?: Image } = {};
  for (const [part, file, max] of [['logo', logo, LOGO_MAX_BYTES], ['picture', picture, PICTURE_MAX_BYTES]] as const) {
    if (!file) continue;
    const checked = checkUpload(file, IMAGE_RULE(Math.min(max, uploadLimit)));
    if ('error' in checked) errors[part] = [checked.error];
    else images[part] = { file, contentType: checked.contentType };
  }
  if (Object.keys(errors).length > 0) throw HttpProblem.validation(errors);
  return images;
}

/**
 * Office_UpsertLandingPage: code, text, map and images of the office's public page, in one
 * transaction. A new logo or picture replaces the stored one; removeLogo / removePicture drop it.
 * A code another office uses (in any letter case) is a 409.
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
          landingDescription: given(model.description, office.landingDescription),
          showMaps: model.showMaps ?? false,
          mapsUrl: given(model.mapsUrl, office.mapsUrl),
          logoFileId,
          pictureFileId,
          updatedAt: sql`now()`,
        })
        .where(eq(offices.id, office.id));
      const dropped = [office.logoFileId !== logoFileId ? office.logoFileId : null, office.pictureFileId !== pictureFileId ? office.pictureFileId : null].filter((id): id is string => id !== null);
      if (dropped.length > 0) await tx.delete(files).where(and(eq(files.officeId, office.id), inArray(files.id, dropped)));
    })
    .catch((error: unknown) => {
      if (isUniqueViolation(error, 'offices_code_key')) throw codeTaken();
      throw error;
    });
}
