import { sql } from 'drizzle-orm';
import type { components } from '../../../codegen/generated/api.ts';
import type { Db } from '../../db/index.ts';
import type { Caller } from '../../http/caller.ts';

type Choices = components['schemas']['Report']['choices'];

/** The most choices a filter lists; a platform with more offices is filtered by typing the office's id into the URL. */
const MOST = 1000;

type Choice = { value: number | string; label: string };

const rowsOf = async (db: Db, query: ReturnType<typeof sql>): Promise<Choice[]> =>
  (await db.execute<Choice>(query)).rows.map((row) => ({ value: row.value, label: row.label }));

/** The locations a caller may choose: an office admin the offices it administers, a platform admin every office. */
export async function officeChoices(db: Db, caller: Caller): Promise<Choice[]> {
  const administered = caller.kind === 'staff' && !caller.userRole ? [...caller.offices].filter(([, role]) => role === 'admin').map(([id]) => id) : undefined;
  return rowsOf(
    db,
    administered === undefined
      ? sql`select id as value, name as label from offices order by name, id limit ${MOST}`
      : sql`select id as value, name as label from offices where id = any(${`{${administered.join(',')}}`}::int[]) order by name, id`,
  );
}

/**
 * What the report's filters offer this caller, from what it may see: its locations (officeChoices); the lenders of the
 * office reported on (of every office when none is); the staff of the office reported on (a staff member belongs to an
 * office, so none without one).
 */
export async function reportChoices(db: Db, caller: Caller, officeId: number | undefined): Promise<Choices> {
  const [offices, lenders, staff] = await Promise.all([
    officeChoices(db, caller),
    rowsOf(
      db,
      officeId === undefined
        ? sql`select id as value, name as label from lenders order by name limit ${MOST}`
        : sql`select l.id as value, l.name as label from lenders l join office_lenders ol on ol.lender_id = l.id where ol.office_id = ${officeId} order by l.name`,
    ),
    officeId === undefined
      ? Promise.resolve([])
      : rowsOf(
          db,
          sql`select u.id as value, u.first_name || ' ' || u.last_name as label from users u join user_offices uo on uo.user_id = u.id
            where uo.office_id = ${officeId} order by u.first_name, u.last_name, u.id limit ${MOST}`,
        ),
  ]);
  return { offices, lenders, staff };
}
