import { and, asc, eq } from 'drizzle-orm';
import type { components } from '../../../codegen/generated/api.ts';
import type { Db } from '../../db/index.ts';
import { configItems } from '../../db/schema.ts';

type ConfigItem = components['schemas']['ConfigItem'];
type ConfigItemType = components['schemas']['ConfigItemType'];

function toItem(row: typeof configItems.$inferSelect): ConfigItem {
  return { ...row, type: row.type as ConfigItemType };
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
