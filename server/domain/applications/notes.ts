import { and, desc, eq, sql } from 'drizzle-orm';
import type { components } from '../../../codegen/generated/api.ts';
import type { Db } from '../../db/index.ts';
import { appNotes, users } from '../../db/schema.ts';
import { isInternal, type Caller } from '../../http/caller.ts';
import { HttpProblem } from '../../http/problem.ts';
import { toUtc } from '../values.ts';
import { lockApplication, staffUserId, writeLogs } from './records.ts';

type Schemas = components['schemas'];

const columns = {
  note: appNotes,
  firstName: users.firstName,
  lastName: users.lastName,
};

type NoteRecord = { note: typeof appNotes.$inferSelect; firstName: string | null; lastName: string | null };

function toNote({ note, firstName, lastName }: NoteRecord): Schemas['AppNote'] {
  return {
    id: note.id,
    appId: note.appId,
    note: note.note,
    createdBy: firstName === null ? null : `${firstName} ${lastName}`.slice(0, 51),
    createdByUserId: note.createdBy,
    createdAtUtc: toUtc(note.createdAt),
    // Null until the note is edited.
    updatedAtUtc: note.updatedAt.getTime() === note.createdAt.getTime() ? null : toUtc(note.updatedAt),
  };
}

/** App_GetAppNotes: newest first. */
export async function appNoteList(db: Db, appId: number): Promise<Schemas['AppNote'][]> {
  const rows = await db
    .select(columns)
    .from(appNotes)
    .leftJoin(users, eq(users.id, appNotes.createdBy))
    .where(eq(appNotes.appId, appId))
    .orderBy(desc(appNotes.createdAt), desc(appNotes.id));
  return rows.map(toNote);
}

/**
 * App_UpsertAppNote: adds a note, or edits one (`id`) of this application. A note is its author's:
 * others in the office read it but only the author (or a platform admin) may change it.
 */
export async function upsertAppNote(db: Db, caller: Caller, body: Schemas['AppNoteUpsert']): Promise<Schemas['AppNote']> {
  const id = await db.transaction(async (tx) => {
    await lockApplication(tx, body.appId);
    if (body.id === undefined) {
      const [added] = await tx.insert(appNotes).values({ appId: body.appId, note: body.note, createdBy: staffUserId(caller) }).returning({ id: appNotes.id });
      await writeLogs(tx, body.appId, caller, [{ kind: 'Event', message: 'Note added', data: { noteId: added!.id } }]);
      return added!.id;
    }
    const [existing] = await tx.select().from(appNotes).where(and(eq(appNotes.id, body.id), eq(appNotes.appId, body.appId))).for('update');
    if (!existing) throw new HttpProblem(404, 'The note could not be found.');
    if (existing.createdBy !== staffUserId(caller) && !isInternal(caller)) throw new HttpProblem(403, 'Only the author of a note may change it.');
    if (existing.note !== body.note) {
      await tx.update(appNotes).set({ note: body.note, updatedAt: sql`now()` }).where(eq(appNotes.id, existing.id));
      await writeLogs(tx, body.appId, caller, [{ kind: 'Event', message: 'Note edited', data: { noteId: existing.id, before: { note: existing.note }, after: { note: body.note } } }]);
    }
    return existing.id;
  });
  const [row] = await db.select(columns).from(appNotes).leftJoin(users, eq(users.id, appNotes.createdBy)).where(eq(appNotes.id, id));
  return toNote(row!);
}
