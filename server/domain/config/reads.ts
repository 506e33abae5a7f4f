import { and, asc, eq } from 'drizzle-orm';
import type { components } from '../../../codegen/generated/api.ts';
import type { Db } from '../../db/index.ts';
import { configItems, officeSettings } from '../../db/schema.ts';

type ConfigItem = components['schemas']['ConfigItem'];
type ConfigItemType = components['schemas']['ConfigItemType'];

function toItem(row: typeof configItems.$inferSelect): ConfigItem {
  return { ...row, type: row.type as ConfigItemType, officeId: null };
}

/** Enabled platform config items, optionally of one type, in display order. */
export async function platformConfigItems(db: Db, type?: ConfigItemType): Promise<ConfigItem[]> {
  const rows = await db
    .select()
    .from(configItems)
    .where(and(eq(configItems.isEnabled, true), type ? eq(configItems.type, type) : undefined))
    .orderBy(asc(configItems.type), asc(configItems.displayOrder), asc(configItems.name));
  return rows.map(toItem);
}

/** An office's own settings (alerts, landing page, terms, promo terms), enabled or not. */
export async function officeConfigItems(db: Db, officeId: number): Promise<ConfigItem[]> {
  const rows = await db
    .select()
    .from(officeSettings)
    .where(eq(officeSettings.officeId, officeId))
    .orderBy(asc(officeSettings.type), asc(officeSettings.displayOrder), asc(officeSettings.name));
  return rows.map((row) => ({
    id: row.id,
    type: row.type as ConfigItemType,
    name: row.name,
    description: null,
    value: row.value,
    displayOrder: row.displayOrder,
    isEnabled: row.isEnabled,
    officeId: row.officeId,
  }));
}
