import { and, eq, inArray } from 'drizzle-orm';
import type { components } from '../../../codegen/generated/api.ts';
import type { Db } from '../../db/index.ts';
import { configItems, offices, officeSettings } from '../../db/schema.ts';
import { HttpProblem } from '../../http/problem.ts';
import { isUniqueViolation, lockOffice, message } from './records.ts';

type Schemas = components['schemas'];
type SettingType = Schemas['OfficeSettingType'];
type Upsert = Schemas['OfficeConfigItemsUpsert'];

/** The platform config item types an office sets for itself, in the order Settings lists them (decision 0160). */
const SETTING_TYPES: readonly SettingType[] = ['OfficeAlertTypes', 'Terms', 'PromoTerms'];
/** A setting whose value is where it is sent: it needs one while it is on. */
const ALERTS: SettingType = 'OfficeAlertTypes';

const DUPLICATE = 'Another setting of this office has the same type and name.';

interface CatalogueEntry {
  label: string;
  displayOrder: number;
}

const keyOf = (type: string, name: string) => `${type}\u0000${name}`;

/** The enabled platform config items an office may set, by type and value. */
async function catalogue(db: Db): Promise<Map<string, CatalogueEntry>> {
  const rows = await db
    .select({ type: configItems.type, name: configItems.name, value: configItems.value, displayOrder: configItems.displayOrder })
    .from(configItems)
    .where(and(inArray(configItems.type, [...SETTING_TYPES]), eq(configItems.isEnabled, true)));
  return new Map(rows.map((row) => [keyOf(row.type, row.value ?? row.name), { label: row.name, displayOrder: row.displayOrder }]));
}

/**
 * Office_GetConfigItems: every setting the office can set — each enabled platform config item of the setting types —
 * with what the office saved for it, or off and without a value when it saved nothing. A saved setting whose config
 * item was disabled since is still listed, so nothing the office chose is hidden from it.
 */
export async function officeSettingList(db: Db, officeId: number): Promise<Schemas['OfficeSetting'][]> {
  const [office] = await db.select({ id: offices.id }).from(offices).where(eq(offices.id, officeId));
  if (!office) throw new HttpProblem(404, 'The office could not be found.');
  const [entries, saved] = await Promise.all([
    catalogue(db),
    db.select().from(officeSettings).where(and(eq(officeSettings.officeId, officeId), inArray(officeSettings.type, [...SETTING_TYPES]))),
  ]);
  const settings = new Map<string, Schemas['OfficeSetting']>();
  for (const [key, entry] of entries) {
    const [type, name] = key.split('\u0000') as [SettingType, string];
    settings.set(key, { type, name, label: entry.label, value: null, displayOrder: entry.displayOrder, isEnabled: false, officeId });
  }
  for (const row of saved) {
    const key = keyOf(row.type, row.name);
    const label = entries.get(key)?.label ?? row.name;
    settings.set(key, { id: row.id, type: row.type as SettingType, name: row.name, label, value: row.value, displayOrder: row.displayOrder, isEnabled: row.isEnabled, officeId });
  }
  return [...settings.values()].sort(
    (a, b) => SETTING_TYPES.indexOf(a.type) - SETTING_TYPES.indexOf(b.type) || a.displayOrder - b.displayOrder || a.label.localeCompare(b.label),
  );
}

/**
 * Office_UpsertConfigItems: the office's own settings, all in one transaction or none. An item with an id changes that
 * setting of this office (another office's id is not found); one without is found by type and name, or added. Each
 * must name an enabled platform config item of its type; an alert that is on needs the address it goes to.
 */
export async function upsertOfficeSettings(db: Db, body: Upsert): Promise<void> {
  await db
    .transaction(async (tx) => {
      const office = await lockOffice(tx, body.officeId);
      const entries = await catalogue(tx);
      const stored = await tx.select().from(officeSettings).where(eq(officeSettings.officeId, office.id));
      const byId = new Map(stored.map((row) => [row.id, row]));
      const byKey = new Map(stored.map((row) => [keyOf(row.type, row.name), row]));
      const errors: Record<string, string[]> = {};
      for (const [index, item] of body.items.entries()) {
        const entry = entries.get(keyOf(item.type, item.name));
        if (!entry) {
          errors[`items.${index}.name`] = [message('notAllowedValue')];
          continue;
        }
        const current = item.id === undefined ? byKey.get(keyOf(item.type, item.name)) : byId.get(item.id);
        if (item.id !== undefined && !current) throw new HttpProblem(404, 'The setting could not be found.');
        const row = {
          type: item.type,
          name: item.name,
          value: item.value === undefined ? (current?.value ?? null) : item.value,
          displayOrder: item.displayOrder ?? current?.displayOrder ?? entry.displayOrder,
          isEnabled: item.isEnabled ?? current?.isEnabled ?? false,
        };
        if (row.type === ALERTS && row.isEnabled && !row.value) {
          errors[`items.${index}.value`] = [message('required')];
          continue;
        }
        if (current) await tx.update(officeSettings).set(row).where(and(eq(officeSettings.id, current.id), eq(officeSettings.officeId, office.id)));
        else await tx.insert(officeSettings).values({ officeId: office.id, ...row });
      }
      // Nothing is kept of a request with a refused item (the transaction rolls back).
      if (Object.keys(errors).length > 0) throw HttpProblem.validation(errors);
    })
    .catch((error: unknown) => {
      if (isUniqueViolation(error)) throw HttpProblem.conflict(DUPLICATE);
      throw error;
    });
}
