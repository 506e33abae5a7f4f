import { sql } from 'drizzle-orm';
import type { components } from '../../../codegen/generated/api.ts';
import type { Db } from '../../db/index.ts';
import { isInternal, type Caller } from '../../http/caller.ts';
import { holding, locationsInView } from '../users/locations.ts';

type OfficePermission = components['schemas']['OfficePermission'];

type Choices = components['schemas']['Report']['choices'];

/** The most choices a filter lists; a platform with more offices is filtered by typing the office's id into the URL. */
const MOST = 1000;

type Choice = { value: number | string; label: string };

const rowsOf = async (db: Db, query: ReturnType<typeof sql>): Promise<Choice[]> =>
  (await db.execute<Choice>(query)).rows.map((row) => ({ value: row.value, label: row.label }));

/**
 * The locations a caller may choose: a platform admin every office; anyone else the locations of the organization of the
 * office in view where they hold `permission` (decision 0281) — with one location, nothing to choose.
 */
export async function officeChoices(db: Db, caller: Caller, officeId: number | undefined, permission: OfficePermission): Promise<Choice[]> {
  if (isInternal(caller)) return rowsOf(db, sql`select id as value, name as label from offices order by name, id limit ${MOST}`);
  if (officeId === undefined) return [];
  const ids = await locationsInView(db, caller, officeId, holding(permission));
  if (ids.length < 2) return [];
  return rowsOf(db, sql`select id as value, name as label from offices where id = any(${`{${ids.join(',')}}`}::int[]) order by name, id`);
}

/**
 * What the report's filters offer this caller, from what it may see: its locations (officeChoices); the lenders of the
 * offices reported on (of every office when none is); their staff (a staff member belongs to an office, so none without
 * one).
 */
export async function reportChoices(db: Db, caller: Caller, officeId: number | undefined, officeIds: readonly number[] | undefined): Promise<Choices> {
  const inView = officeIds === undefined ? undefined : `{${officeIds.join(',')}}`;
  const [offices, lenders, staff] = await Promise.all([
    officeChoices(db, caller, officeId, 'seeReports'),
    rowsOf(
      db,
      inView === undefined
        ? sql`select id as value, name as label from lenders order by name limit ${MOST}`
        : sql`select distinct l.id as value, l.name as label from lenders l join office_lenders ol on ol.lender_id = l.id where ol.office_id = any(${inView}::int[]) order by l.name`,
    ),
    inView === undefined
      ? Promise.resolve([])
      : rowsOf(
          db,
          sql`select distinct u.id as value, u.first_name || ' ' || u.last_name as label, u.first_name, u.last_name from users u join user_offices uo on uo.user_id = u.id
            where uo.office_id = any(${inView}::int[]) order by u.first_name, u.last_name, u.id limit ${MOST}`,
        ),
  ]);
  return { offices, lenders, staff };
}
