import { eq, ne, desc } from 'drizzle-orm';
import type { components } from '../../../codegen/generated/api.ts';
import type { Db } from '../../db/index.ts';
import { studioDrafts, users } from '../../db/schema.ts';
import { toUtc } from '../values.ts';

type Schemas = components['schemas'];

/**
 * Drafts that last (issue 41, decision 0274): each product owner's drafts, as typed, in one row of their own; the
 * studio saves them a moment after each keystroke and reads them back on opening. Another owner's drafts are shown as
 * theirs, by file, so that two people do not change one file unknowingly; their text stays theirs.
 */
export async function studioDraftsOf(db: Db, userId: string): Promise<Schemas['StudioDrafts']> {
  const [mine] = await db.select().from(studioDrafts).where(eq(studioDrafts.userId, userId));
  const others = await db
    .select({ files: studioDrafts.files, updatedAt: studioDrafts.updatedAt, firstName: users.firstName, lastName: users.lastName, email: users.email })
    .from(studioDrafts)
    .innerJoin(users, eq(users.id, studioDrafts.userId))
    .where(ne(studioDrafts.userId, userId))
    .orderBy(desc(studioDrafts.updatedAt));
  return {
    mine: mine?.files ?? {},
    savedAtUtc: mine ? toUtc(mine.updatedAt) : null,
    others: others.map((row) => ({ owner: `${row.firstName} ${row.lastName} (${row.email})`, files: Object.keys(row.files).sort(), savedAtUtc: toUtc(row.updatedAt) })),
  };
}

export async function saveStudioDrafts(db: Db, userId: string, files: Record<string, string>): Promise<Schemas['StudioDrafts']> {
  if (Object.keys(files).length === 0) await db.delete(studioDrafts).where(eq(studioDrafts.userId, userId));
  else {
    await db
      .insert(studioDrafts)
      .values({ userId, files })
      .onConflictDoUpdate({ target: studioDrafts.userId, set: { files, updatedAt: new Date() } });
  }
  return studioDraftsOf(db, userId);
}
