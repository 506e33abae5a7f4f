import { and, eq, ne, sql } from 'drizzle-orm';
import type { components } from '../../../codegen/generated/api.ts';
import { loadMessageCatalogue } from '../../../core/contract/documents.ts';
import type { Db } from '../../db/index.ts';
import { offices } from '../../db/schema.ts';
import type { Caller } from '../../http/caller.ts';
import { HttpProblem } from '../../http/problem.ts';

/** Helpers the office writes share: row locks, the §5 message texts, code uniqueness, URL and caller checks. */

let catalogue: ReturnType<typeof loadMessageCatalogue>['messages'] | undefined;

/** A text of schemas/messages.json, verbatim, with `{limit}` filled in when given. */
export function message(key: string, limit?: string | number): string {
  catalogue ??= loadMessageCatalogue().messages;
  const text = catalogue[key];
  if (text === undefined) throw new Error(`no message '${key}' in schemas/messages.json`);
  return limit === undefined ? text : text.replace('{limit}', String(limit));
}

/**
 * The office row, locked until the transaction ends: writes to an office and its owners, documents
 * and lender links serialise on it, so a submission never sees half of a concurrent edit.
 */
export async function lockOffice(tx: Db, officeId: number) {
  const [row] = await tx.select().from(offices).where(eq(offices.id, officeId)).for('update');
  if (!row) throw new HttpProblem(404, 'The office could not be found.');
  return row;
}

/** PostgreSQL's unique_violation, through drizzle's wrapper (PGlite and pg both carry `code`). */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  for (let cause = error, depth = 0; cause && typeof cause === 'object' && depth < 5; cause = (cause as { cause?: unknown }).cause, depth += 1) {
    const { code, constraint: name, message: text } = cause as { code?: unknown; constraint?: unknown; message?: unknown };
    if (code === '23505') return !constraint || name === constraint || String(text ?? '').includes(constraint);
  }
  return false;
}

export const CODE_TAKEN = 'This code is already taken. Please choose another one.';

/**
 * Landing page codes are looked up case-insensitively (/landing/{code}), so they must be unique that
 * way too; the unique index on `code` catches an exact-case race, this check the rest.
 */
export async function assertCodeFree(tx: Db, code: string, officeId: number | undefined): Promise<void> {
  const [taken] = await tx
    .select({ id: offices.id })
    .from(offices)
    .where(and(eq(sql`lower(${offices.code})`, code.toLowerCase()), officeId === undefined ? undefined : ne(offices.id, officeId)))
    .limit(1);
  if (taken) throw codeTaken();
}

export function codeTaken(): HttpProblem {
  return new HttpProblem(409, CODE_TAKEN, { errors: { code: [CODE_TAKEN] } });
}

/**
 * `format: uri` lets any scheme through, `javascript:` included; links that pages render (website,
 * maps, lender programs) must be http(s).
 */
export function assertWebUrl(value: string | null | undefined, field: string): void {
  if (value === null || value === undefined) return;
  let scheme = '';
  try {
    scheme = new URL(value).protocol;
  } catch {
    // reported below
  }
  if (scheme !== 'https:' && scheme !== 'http:') throw HttpProblem.validation({ [field]: [message('invalidFormat')] });
}


export function staffId(caller: Caller): string | null {
  return caller.kind === 'staff' ? caller.userId : null;
}

/** `undefined` (left out of the request) keeps the stored value; `null` clears it. */
export function given<T>(value: T | undefined, stored: T): T {
  return value === undefined ? stored : value;
}

/** An address of the contract as an office's columns. */
export const addressColumns = (address: components['schemas']['Address']) => ({
  streetAddress: address.streetAddress,
  suiteNo: address.suiteNo ?? null,
  city: address.city,
  state: address.state,
  zipCode: address.zipCode,
});
