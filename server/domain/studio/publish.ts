/**
 * The studio's writes and checks (issue 18, decision 0228): a draft is checked over the live set exactly as the build
 * checks screens/, and only a set that passes becomes live; each publication and rollback is a row naming who, when,
 * why and which files changed.
 */
import { asc, desc, eq, gt, lt, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/index.ts';
import type { Services } from '../../services.ts';
import { descriptorPublications, users } from '../../db/schema.ts';
import { HttpProblem } from '../../http/problem.ts';
import { contractContext, formSchemaNames, loadValidators } from '../../../core/descriptors/screens.ts';
import { checkSet, overlaid, type SetChecks } from '../../../core/descriptors/set.ts';
import { kindOfPath } from '../../../core/descriptors/kinds.ts';
import { hostMatches } from '../../../core/brand.ts';
import { builtFiles, liveSetOf, nowLive, overlayHash, readLiveSet, servedFiles, type LiveSet } from '../../descriptors/live.ts';
import type { components } from '../../../codegen/generated/api.ts';
import { publishedLenders, syncLenderRows } from '../../lenders/registry.ts';
import { quoted, shortened } from '../../../core/descriptors/errors.ts';
import { draftLanguageStates, outOfDateRefusal } from './translations.ts';
import { canonicalJson } from '../../../core/canonical-json.ts';
import { servedContract } from '../../contract.ts';

type Schemas = components['schemas'];
/** Files by path under screens/: a document, or null for 'as deployed' (a file the deployment lacks is removed, decision 0239). */
export type Draft = Record<string, Record<string, unknown> | null>;

/** One studio write at a time: each publication is made over the one before it. */
const STUDIO_LOCK = 7_228;

let checks: SetChecks | undefined;

/** What a draft is checked against: the build's validators and contract, and the forms the web app was built with. */
async function setChecks(): Promise<SetChecks> {
  return (checks ??= { validators: await loadValidators(), context: contractContext(servedContract()), builtForms: new Set(formSchemaNames(builtFiles())) });
}

/**
 * The hosts of the draft's brands on which staff cannot sign in: sign-in trusts only the hosts the platform operator
 * approved (SIGN_IN_HOSTS, decision 0248), so a product owner learns it before publishing, not from a staff member.
 */
export function unapprovedHosts(draft: Draft, approved: readonly string[]): string[] {
  return Object.entries(draft).flatMap(([path, doc]) => {
    if (!doc || kindOfPath(path) !== 'brand' || !Array.isArray(doc.hosts)) return [];
    return doc.hosts.flatMap((host, i) =>
      typeof host !== 'string' || approved.includes(host) || (!host.includes('*') && approved.some((pattern) => hostMatches(pattern, host)))
        ? []
        : [`screens/${path}#/hosts/${i}: patients see this brand on ${quoted(host)} once published; staff can sign in there only after the platform operator approves the host.`],
    );
  });
}

/** How many problems an answer holds, and how long each (schemas/api/studio-check.json). */
const ANSWER = { problems: 500, length: 2_000 };

/**
 * The problems as an answer carries them (decision 0249): each cut to its length, and after the last that fits, how many
 * more there are. A message quotes a draft's names shortened, but a place may nest deep under long keys, and a draft may
 * break a rule thousands of times.
 */
function withinAnswer(problems: string[]): string[] {
  const lines = problems.map((line) => shortened(line, ANSWER.length - 1));
  return lines.length <= ANSWER.problems ? lines : [...lines.slice(0, ANSWER.problems - 1), `… and ${lines.length - ANSWER.problems + 1} more problems.`];
}

/** The problems of the live set with the draft in it. */
export async function draftProblems(live: LiveSet, draft: Draft): Promise<string[]> {
  return withinAnswer(await setProblems(overlayAfter(live, draft)));
}

/** The checks of the descriptor set (core/descriptors/set.ts) over the deployed files with an overlay. */
async function setProblems(overlay: Readonly<Record<string, unknown>>): Promise<string[]> {
  return checkSet(overlaid(builtFiles(), overlay), await setChecks()).errors;
}

/** The overlay of a set after a draft: a file put back as it was built, or as deployed (null), leaves the overlay. */
export function overlayAfter(live: LiveSet, draft: Draft): Record<string, unknown> {
  const builtText = new Map(builtFiles().map((f) => [f.relative, canonicalJson(JSON.parse(f.text))]));
  const overlay: Record<string, unknown> = {};
  for (const [path, doc] of Object.entries({ ...live.overlay, ...draft })) if (doc !== null && builtText.get(path) !== canonicalJson(doc)) overlay[path] = doc;
  return overlay;
}

/** The files two overlays make different (a file absent from an overlay is as built). */
export function changedBetween(before: Readonly<Record<string, unknown>>, after: Readonly<Record<string, unknown>>): string[] {
  const paths = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...paths].filter((path) => canonicalJson(before[path]) !== canonicalJson(after[path])).sort();
}

const approvers = alias(users, 'approvers');

/** Publications with who made them, newest first: one (`id`) or the latest 200. */
async function publications(db: Db, id?: number): Promise<Schemas['StudioPublication'][]> {
  const rows = await db
    .select({
      id: descriptorPublications.id,
      hash: descriptorPublications.hash,
      note: descriptorPublications.note,
      changed: descriptorPublications.changed,
      restoredFrom: descriptorPublications.restoredFrom,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
      approver: sql<string | null>`${approvers.firstName} || ' ' || ${approvers.lastName} || ' (' || ${approvers.email} || ')'`,
      publishedAt: descriptorPublications.publishedAt,
    })
    .from(descriptorPublications)
    .innerJoin(users, eq(users.id, descriptorPublications.publishedBy))
    .leftJoin(approvers, eq(approvers.id, descriptorPublications.approvedBy))
    .where(id === undefined ? undefined : eq(descriptorPublications.id, id))
    .orderBy(desc(descriptorPublications.id))
    .limit(200);
  return rows.map((row) => ({
    id: row.id,
    hash: row.hash,
    note: row.note,
    changed: row.changed,
    restoredFrom: row.restoredFrom,
    publishedBy: `${row.firstName} ${row.lastName} (${row.email})`,
    approvedBy: row.approver,
    publishedAt: row.publishedAt.toISOString(),
  }));
}

export type Studio = Pick<Services, 'db' | 'database' | 'afterCommit'>;

/** Who publishes: the owner who made the change, and the second owner who approved it (four eyes, decision 0288). */
export interface Publisher {
  by: string;
  approvedBy?: string;
  /** Written in the publication's transaction, with its id: what else the publication makes so (a review's state). */
  alongside?(tx: Db, publicationId: number): Promise<void>;
}

/** Writes a new live overlay after checking it, under the studio lock; answers the publication. */
async function writeOverlay({ db, database, afterCommit }: Studio, publisher: Publisher, note: string, next: (live: LiveSet, tx: Db) => Promise<{ overlay: Record<string, unknown>; restoredFrom: number | null; problems: string[] }>): Promise<Schemas['StudioPublication']> {
  const { id, set } = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${STUDIO_LOCK})`);
    const live = await readLiveSet(tx);
    const { overlay, restoredFrom, problems } = await next(live, tx);
    if (problems.length) throw HttpProblem.validation({ files: problems });
    const changed = changedBetween(live.overlay, overlay);
    if (changed.length === 0) throw HttpProblem.conflict('Nothing to publish: the files are already live as they are.');
    const hash = overlayHash(overlay);
    const [row] = await tx
      .insert(descriptorPublications)
      .values({ hash, overlay, changed, note: note.trim(), restoredFrom, publishedBy: publisher.by, approvedBy: publisher.approvedBy ?? null })
      .returning({ id: descriptorPublications.id });
    await publisher.alongside?.(tx, row!.id);
    return { id: row!.id, set: liveSetOf(row!.id, overlay) };
  });
  // Live in this process once committed: the database's set, whatever transaction this ran in.
  await afterCommit(() => nowLive(database.db, set));
  // A lender published for the first time is a lender of the platform from now on (its row, as at a start).
  await syncLenderRows(db, { descriptors: publishedLenders(set.served) });
  return (await publications(db, id))[0]!;
}

/** The lender files the live set with the draft in it serves beside or in place of the deployed ones, as the server reads them. */
export const draftLenders = (live: LiveSet, draft: Draft) => publishedLenders(servedFiles(overlayAfter(live, draft)));

/** The languages with the draft in the live set: the texts out of date in each, those the draft makes so marked. */
export const draftLanguages = (live: LiveSet, draft: Draft) => draftLanguageStates(live.overlay, overlayAfter(live, draft));

type DraftCheck = Pick<Schemas['StudioCheck'], 'errors' | 'languages'>;

/** The live set's own check, by its hash: the studio asks for it each time it opens without drafts (0.2–0.5 s of work). */
let liveCheck: { hash: string; check: Promise<DraftCheck> } | undefined;

/** A draft's problems over the live set and, when it has none, each language's state after it. */
export function checkDraft(live: LiveSet, draft: Draft): Promise<DraftCheck> {
  if (Object.keys(draft).length > 0) return checked(live, draft);
  if (liveCheck?.hash !== live.hash) {
    const entry = { hash: live.hash, check: checked(live, draft) };
    entry.check.catch(() => {
      if (liveCheck === entry) liveCheck = undefined;
    });
    liveCheck = entry;
  }
  return liveCheck.check;
}

async function checked(live: LiveSet, draft: Draft): Promise<DraftCheck> {
  const errors = await draftProblems(live, draft);
  // A set that fails the checks may not expand; its languages are read once it passes.
  return { errors, languages: errors.length ? [] : draftLanguages(live, draft) };
}

/**
 * Publishes a draft that passes the checks. One that makes translated texts out of date needs `publishOutOfDate`: the
 * owner chose that those readers see them in English for now (decision 0255).
 */
export function publishDraft(services: Studio, publisher: Publisher, draft: Draft, note: string, publishOutOfDate = false, before?: (live: LiveSet, tx: Db) => Promise<void>): Promise<Schemas['StudioPublication']> {
  return writeOverlay(services, publisher, note, async (live, tx) => {
    await before?.(live, tx);
    const problems = await draftProblems(live, draft);
    const refusal = problems.length || publishOutOfDate ? undefined : outOfDateRefusal(draftLanguages(live, draft));
    if (refusal) throw HttpProblem.conflict(refusal);
    return { overlay: overlayAfter(live, draft), restoredFrom: null, problems };
  });
}

/** Makes the files of publication `id` (0: as deployed) live again; they must pass today's checks. */
export function rollBack(services: Studio, actorId: string, id: number, note: string): Promise<Schemas['StudioPublication']> {
  return writeOverlay(services, { by: actorId }, note, async (_live, tx) => {
    let overlay: Record<string, unknown> = {};
    if (id !== 0) {
      const [row] = await tx.select({ overlay: descriptorPublications.overlay }).from(descriptorPublications).where(eq(descriptorPublications.id, id));
      if (!row) throw new HttpProblem(404, `There is no publication ${id}.`);
      overlay = row.overlay;
    }
    return { overlay, restoredFrom: id, problems: withinAnswer(await setProblems(overlay)) };
  });
}

/**
 * Undoes one publication: each file it changed goes back to what it was just before it, the rest of what is live
 * stays. A file a later publication changed again is not taken back silently: the owner undoes that one first, or
 * edits the file. The result must pass today's checks, as any publication.
 */
export function revertPublication(services: Studio, actorId: string, id: number, note: string): Promise<Schemas['StudioPublication']> {
  return writeOverlay(services, { by: actorId }, `Undid publication ${id}: ${note.trim()}`, async (live, tx) => {
    const [undone] = await tx.select({ changed: descriptorPublications.changed }).from(descriptorPublications).where(eq(descriptorPublications.id, id));
    if (!undone) throw new HttpProblem(404, `There is no publication ${id}.`);
    const [before] = await tx.select({ overlay: descriptorPublications.overlay }).from(descriptorPublications).where(lt(descriptorPublications.id, id)).orderBy(desc(descriptorPublications.id)).limit(1);
    const later = await tx.select({ id: descriptorPublications.id, changed: descriptorPublications.changed }).from(descriptorPublications).where(gt(descriptorPublications.id, id)).orderBy(asc(descriptorPublications.id));
    const since = undone.changed.flatMap((file) => later.filter((p) => p.changed.includes(file)).map((p) => `${file} (publication ${p.id})`));
    if (since.length) throw HttpProblem.conflict(`Changed again since: ${[...new Set(since)].join(', ')}. Undo the later publication first, or edit the file.`);
    const overlay = { ...live.overlay };
    for (const file of undone.changed) {
      if (before?.overlay[file] === undefined) delete overlay[file];
      else overlay[file] = before.overlay[file];
    }
    return { overlay, restoredFrom: null, problems: withinAnswer(await setProblems(overlay)) };
  });
}

export async function publicationHistory(db: Db): Promise<Schemas['StudioHistory']> {
  return { publications: await publications(db) };
}
