import { and, eq, sql } from 'drizzle-orm';
import type { components } from '../../../codegen/generated/api.ts';
import type { Db } from '../../db/index.ts';
import { officeSettings } from '../../db/schema.ts';
import { HttpProblem } from '../../http/problem.ts';
import { isUniqueViolation, lockOffice } from './records.ts';

type Upsert = components['schemas']['OfficeConfigItemsUpsert'];

const DUPLICATE = 'Another setting of this office has the same type and name.';

/**
 * Office_UpsertConfigItems: the office's own settings (office_settings rows), in one transaction.
 * An item with an id updates that setting of this office (another office's id is not found); an item
 * without one adds the setting, or updates the one with the same type and name. Settings not listed
 * stay as they are (isEnabled: false turns one off). Descriptions belong to the platform's config
 * items and are not kept per office.
 */
export async function upsertOfficeSettings(db: Db, body: Upsert): Promise<void> {
  await db
    .transaction(async (tx) => {
      const office = await lockOffice(tx, body.officeId);
      const stored = new Map((await tx.select().from(officeSettings).where(eq(officeSettings.officeId, office.id))).map((row) => [row.id, row]));
      for (const item of body.items) {
        if (item.id !== undefined) {
          const current = stored.get(item.id);
          if (!current) throw new HttpProblem(404, 'The setting could not be found.');
          await tx
            .update(officeSettings)
            .set({
              type: item.type,
              name: item.name,
              value: item.value === undefined ? current.value : item.value,
              displayOrder: item.displayOrder ?? current.displayOrder,
              isEnabled: item.isEnabled ?? current.isEnabled,
            })
            .where(and(eq(officeSettings.id, item.id), eq(officeSettings.officeId, office.id)));
          continue;
        }
        const values = { value: item.value ?? null, displayOrder: item.displayOrder ?? 0, isEnabled: item.isEnabled ?? true };
        await tx
          .insert(officeSettings)
          .values({ officeId: office.id, type: item.type, name: item.name, ...values })
          .onConflictDoUpdate({
            target: [officeSettings.officeId, officeSettings.type, officeSettings.name],
            set: {
              value: item.value === undefined ? sql`${officeSettings.value}` : item.value,
              displayOrder: item.displayOrder ?? sql`${officeSettings.displayOrder}`,
              isEnabled: item.isEnabled ?? sql`${officeSettings.isEnabled}`,
            },
          });
      }
    })
    .catch((error: unknown) => {
      if (isUniqueViolation(error)) throw new HttpProblem(409, DUPLICATE);
      throw error;
    });
}
