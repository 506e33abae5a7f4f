/**
 * Four eyes in the studio (issue 41, decision 0288): a product owner asks for a change to be published; a second owner
 * approves it (published at once, or at its time by the durable queue), sends it back with a comment, or comments;
 * the owner who asked may withdraw it. Where the platform requires approvals (STUDIO_APPROVALS), nothing else
 * publishes a change, no one approves their own, and a change to a place that needs more (STUDIO_APPROVERS, decision
 * 0291) goes live at its last approval. A change is checked when asked and again when it goes live.
 */
import { and, desc, eq, gt, inArray, ne, notInArray, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/index.ts';
import type { Services } from '../../services.ts';
import { descriptorPublications, studioReviews, users } from '../../db/schema.ts';
import { HttpProblem } from '../../http/problem.ts';
import { enqueue, type ClaimedJob } from '../../jobs/queue.ts';
import { jobRunnerOf, type JobOutcome, type QueueWork } from '../../jobs/runner.ts';
import { builtFiles, liveSet, type LiveSet } from '../../descriptors/live.ts';
import type { components } from '../../../codegen/generated/api.ts';
import type { JobQueue } from '../../../codegen/generated/schemas.ts';
import { changedBetween, draftLanguages, draftProblems, overlayAfter, publishDraft, type Draft, type Studio } from './publish.ts';
import { outOfDateRefusal } from './translations.ts';
import { sendEmail } from '../../notify/outbox.ts';
import { reviewAskedEmail, reviewDecidedEmail } from '../../notify/messages.ts';
import { serverBrand } from '../../descriptors/brands.ts';
import { kindOfPath, placeOfPath, type DescriptorPlace } from '../../../core/descriptors/kinds.ts';
import { overlaid, usersOfChangedParts } from '../../../core/descriptors/set.ts';

type Schemas = components['schemas'];
type Review = Schemas['StudioReview'];
type Row = typeof studioReviews.$inferSelect;
type Approval = Row['approvals'][number];

export const STUDIO_PUBLISH_QUEUE = 'studio-publish' satisfies JobQueue;
export const APPROVAL_NEEDED = "Publishing needs a second product owner's approval here: ask for a review.";
/** The furthest ahead a change may be scheduled. */
const SCHEDULE_MAX_MS = 366 * 24 * 3_600_000;
/** Decided reviews listed beside those still open. */
const DECIDED_LISTED = 50;
const OPEN: Row['state'][] = ['Pending', 'Scheduled'];

const askers = alias(users, 'askers');
const deciders = alias(users, 'deciders');
const person = (u: typeof askers | typeof deciders) => sql<string | null>`${u.firstName} || ' ' || ${u.lastName} || ' (' || ${u.email} || ')'`;

type Settings = Services['settings'];

/** How many owners other than the one who asked approve a change to these files: the most any of their places needs. */
export function approvalsNeeded(settings: Pick<Settings, 'studioApprovals' | 'studioApprovers'>, paths: readonly string[]): number {
  if (settings.studioApprovals !== 'required') return 1;
  return Math.max(1, ...paths.map((path) => settings.studioApprovers[placeOfPath(path) as DescriptorPlace] ?? 1));
}

/**
 * The approvals a change needs over the live set: a change to a shared part counts as a change to every file that
 * reads it, so a lender's mapping changed through its shared part takes a lender's approvals.
 */
async function approvalsFor(db: Db, settings: Settings, files: Draft): Promise<number> {
  const paths = Object.keys(files);
  if (settings.studioApprovals !== 'required' || !paths.some((path) => kindOfPath(path) === 'fragments' || path === 'fragments.json')) return approvalsNeeded(settings, paths);
  const live = await liveSet(db);
  return approvalsNeeded(settings, [...paths, ...usersOfChangedParts(overlaid(builtFiles(), live.overlay), overlaid(builtFiles(), overlayAfter(live, files)))]);
}

async function reviews(db: Db, settings: Settings, caller: string, where: ReturnType<typeof eq> | undefined, limit: number): Promise<Review[]> {
  const rows = await db
    .select({ review: studioReviews, askedBy: person(askers), decidedBy: person(deciders) })
    .from(studioReviews)
    .innerJoin(askers, eq(askers.id, studioReviews.askedBy))
    .leftJoin(deciders, eq(deciders.id, studioReviews.decidedBy))
    .where(where)
    .orderBy(desc(studioReviews.id))
    .limit(limit);
  return Promise.all(rows.map(async ({ review: r, askedBy, decidedBy }) => ({
    id: r.id,
    state: r.state,
    note: r.note,
    files: r.files,
    changed: Object.keys(r.files).sort(),
    publishOutOfDate: r.publishOutOfDate,
    publishAt: r.publishAt?.toISOString() ?? null,
    basedOn: r.basedOn,
    askedBy: askedBy ?? '',
    mine: r.askedBy === caller,
    askedAt: r.askedAt.toISOString(),
    decidedBy,
    decidedAt: r.decidedAt?.toISOString() ?? null,
    approvals: r.approvals.map(({ by, at }) => ({ by, at })),
    approvalsNeeded: OPEN.includes(r.state) ? await approvalsFor(db, settings, r.files) : Math.max(1, r.approvals.length),
    approvedByMe: r.approvals.some((approval) => approval.userId === caller),
    comments: r.comments,
    publicationId: r.publicationId,
    failure: r.failure,
  })));
}

const reviewOf = async (db: Db, settings: Settings, caller: string, id: number) => (await reviews(db, settings, caller, eq(studioReviews.id, id), 1))[0];

export async function reviewList(db: Db, settings: Settings, caller: string): Promise<Schemas['StudioReviews']> {
  const open = await reviews(db, settings, caller, inArray(studioReviews.state, OPEN), 500);
  const decided = await reviews(db, settings, caller, notInArray(studioReviews.state, OPEN), DECIDED_LISTED);
  return { approvalsRequired: settings.studioApprovals === 'required', reviews: [...open, ...decided] };
}

/** The same refusals as a publication's: the checks, and texts a language would have out of date unless chosen. */
async function refusals(live: LiveSet, files: Draft, publishOutOfDate: boolean): Promise<void> {
  const problems = await draftProblems(live, files);
  if (problems.length) throw HttpProblem.validation({ files: problems });
  const refusal = publishOutOfDate ? undefined : outOfDateRefusal(draftLanguages(live, files));
  if (refusal) throw HttpProblem.conflict(refusal);
}

type Mailing = Studio & Pick<Services, 'settings'>;

/** Where an e-mail about the studio leads, and the brand it is sent in: the portal's own address's. */
const studioLink = (settings: Services['settings']) => ({ url: `${settings.publicUrl}/#/studio`, brandName: serverBrand(new URL(settings.publicUrl).host).name });

export async function askReview(services: Mailing, askedBy: string, body: Schemas['StudioReviewAsk'], now = new Date()): Promise<Review> {
  const publishAt = body.publishAt === undefined ? null : new Date(body.publishAt);
  if (publishAt && (publishAt.getTime() <= now.getTime() || publishAt.getTime() - now.getTime() > SCHEDULE_MAX_MS)) {
    throw HttpProblem.validation({ publishAt: ['must be a time to come, within a year'] });
  }
  const live = await liveSet(services.db);
  await refusals(live, body.files, body.publishOutOfDate === true);
  if (changedBetween(live.overlay, overlayAfter(live, body.files)).length === 0) throw HttpProblem.conflict('Nothing to review: the files are already live as they are.');
  // The change and the e-mails telling every other owner of it, together.
  const id = await services.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(studioReviews)
      .values({ files: body.files, note: body.note.trim(), publishOutOfDate: body.publishOutOfDate === true, basedOn: live.id, publishAt, askedBy })
      .returning({ id: studioReviews.id });
    const [asker] = await tx.select({ name: person(askers) }).from(askers).where(eq(askers.id, askedBy));
    const owners = await tx
      .select({ email: users.email, firstName: users.firstName })
      .from(users)
      .where(and(eq(users.userRole, 'product.owner'), eq(users.isDisabled, false), ne(users.id, askedBy)));
    for (const owner of owners) {
      await sendEmail(tx, reviewAskedEmail({ to: owner.email, firstName: owner.firstName, asker: asker?.name ?? '', note: body.note.trim(), files: Object.keys(body.files).sort(), publishAt, ...studioLink(services.settings) }));
    }
    return row!.id;
  });
  return (await reviewOf(services.db, services.settings, askedBy, id))!;
}

/** The files of a review that a publication after the one it was asked over changed: it must be asked again. */
async function changedSince(tx: Db, row: Row): Promise<string[]> {
  const later = await tx.select({ id: descriptorPublications.id, changed: descriptorPublications.changed }).from(descriptorPublications).where(gt(descriptorPublications.id, row.basedOn));
  return [...new Set(later.flatMap((p) => p.changed.filter((file) => file in row.files)))].sort();
}

/** The review's row, locked for this transaction; refused in words unless it is in one of `states`. */
async function lockedReview(tx: Db, id: number, states: readonly Row['state'][]): Promise<Row> {
  const [row] = await tx.select().from(studioReviews).where(eq(studioReviews.id, id)).for('update');
  if (!row) throw new HttpProblem(404, `There is no review ${id}.`);
  if (!states.includes(row.state)) throw HttpProblem.conflict(`This change is ${row.state === 'Published' ? 'published' : row.state === 'SentBack' ? 'sent back' : row.state === 'Withdrawn' ? 'withdrawn' : row.state === 'Scheduled' ? 'approved already' : 'no longer waiting'}: nothing was changed.`);
  return row;
}

/**
 * Publishes an approved change now: checked then, and the publication and the review's new state in one transaction.
 * What was asked (files, note, who) never changes once asked; its state is read again under the lock.
 */
async function publishReview(services: Mailing, asked: Row, states: readonly Row['state'][], approver: string, comments: Row['comments'], approval?: Approval): Promise<void> {
  await publishDraft(
    services,
    {
      by: asked.askedBy,
      approvedBy: approver,
      alongside: async (tx, publicationId) => {
        await tx
          .update(studioReviews)
          .set({ state: 'Published', publicationId, decidedBy: approver, decidedAt: sql`coalesce(${studioReviews.decidedAt}, now())`, comments: sql`${studioReviews.comments} || ${JSON.stringify(comments)}::jsonb`, ...withApproval(approval) })
          .where(eq(studioReviews.id, asked.id));
        // A scheduled one was told of at its approval.
        if (states.includes('Pending')) await tellAsker(tx, services.settings, asked, approver, 'Published', comments);
      },
    },
    asked.files,
    asked.note,
    asked.publishOutOfDate,
    async (_live, tx) => {
      const row = await lockedReview(tx, asked.id, states);
      if (approval) refuseSecondApproval(row, approval.userId);
      const since = await changedSince(tx, row);
      if (since.length) throw HttpProblem.conflict(`Published since this change was asked: ${since.join(', ')}. Ask for a review of the files as they are now.`);
    },
  );
}

/** Tells the owner who asked what became of their change, unless they decided it themselves. */
async function tellAsker(tx: Db, settings: Services['settings'], asked: Row, decider: string, outcome: 'Published' | 'Scheduled' | 'SentBack', comments: Row['comments']): Promise<void> {
  if (decider === asked.askedBy) return;
  const [owner] = await tx.select({ email: users.email, firstName: users.firstName }).from(users).where(eq(users.id, asked.askedBy));
  const [by] = await tx.select({ name: person(deciders) }).from(deciders).where(eq(deciders.id, decider));
  if (!owner) return;
  await sendEmail(tx, reviewDecidedEmail({ to: owner.email, firstName: owner.firstName, decider: by?.name ?? '', note: asked.note, outcome, comment: comments[0]?.text ?? '', ...studioLink(settings) }));
}

const nameOf = async (db: Db, userId: string): Promise<string> => (await db.select({ name: person(askers) }).from(askers).where(eq(askers.id, userId)))[0]?.name ?? '';

const commentOf = async (db: Db, userId: string, text: string): Promise<Row['comments']> => [{ by: await nameOf(db, userId), at: new Date().toISOString(), text }];

/** An approval added to a review's, in the same statement as the state it leads to. */
const withApproval = (approval: Approval | undefined) => (approval ? { approvals: sql`${studioReviews.approvals} || ${JSON.stringify([approval])}::jsonb` } : {});

function refuseSecondApproval(row: Row, userId: string): void {
  if (row.approvals.some((approval) => approval.userId === userId)) throw HttpProblem.conflict('You approved this change already: it waits for another product owner.');
}

/**
 * An approval that leaves the change short of the approvals it needs: kept, and the change waits. Answers false when,
 * under the lock, it turns out to be the last one needed (another owner approved meanwhile).
 */
async function approveAndWait(db: Db, id: number, approval: Approval, needed: number, comments: Row['comments']): Promise<boolean> {
  return db.transaction(async (tx) => {
    const row = await lockedReview(tx, id, ['Pending']);
    refuseSecondApproval(row, approval.userId);
    if (row.approvals.length + 1 >= needed) return false;
    await tx
      .update(studioReviews)
      .set({ ...withApproval(approval), comments: sql`${studioReviews.comments} || ${JSON.stringify(comments)}::jsonb` })
      .where(eq(studioReviews.id, id));
    return true;
  });
}

export async function decideReview(services: Mailing, userId: string, body: Schemas['StudioReviewDecision']): Promise<Review> {
  const { db } = services;
  const text = body.comment?.trim() ?? '';
  if ((body.decision === 'sendBack' || body.decision === 'comment') && !text) throw HttpProblem.validation({ comment: ['required'] });
  const [asked] = await db.select().from(studioReviews).where(eq(studioReviews.id, body.id));
  if (!asked) throw new HttpProblem(404, `There is no review ${body.id}.`);
  const comments = text ? await commentOf(db, userId, text) : [];
  if (body.decision === 'approve') {
    if (asked.askedBy === userId && services.settings.studioApprovals === 'required') throw HttpProblem.conflict('A second product owner approves a change: not the one who asked for it.');
    const approval: Approval = { userId, by: await nameOf(db, userId), at: new Date().toISOString() };
    const needed = await approvalsFor(db, services.settings, asked.files);
    const waits = asked.approvals.length + 1 < needed && (await approveAndWait(db, asked.id, approval, needed, comments));
    if (waits) return (await reviewOf(db, services.settings, userId, body.id))!;
    if (asked.publishAt && asked.publishAt.getTime() > Date.now()) await schedule(services, asked, approval, comments);
    else await publishReview(services, asked, ['Pending'], userId, comments, approval);
  } else {
    await db.transaction(async (tx) => {
      const row = await lockedReview(tx, body.id, body.decision === 'comment' ? OPEN : body.decision === 'withdraw' ? OPEN : ['Pending']);
      if (body.decision === 'withdraw' && row.askedBy !== userId) throw HttpProblem.conflict('Only the owner who asked for a change withdraws it; send it back instead.');
      const state = body.decision === 'sendBack' ? 'SentBack' : body.decision === 'withdraw' ? 'Withdrawn' : row.state;
      const decided = state !== row.state ? { decidedBy: userId, decidedAt: new Date() } : {};
      await tx
        .update(studioReviews)
        .set({ state, ...decided, comments: sql`${studioReviews.comments} || ${JSON.stringify(comments)}::jsonb` })
        .where(eq(studioReviews.id, body.id));
      if (state === 'SentBack') await tellAsker(tx, services.settings, row, userId, 'SentBack', comments);
    });
  }
  return (await reviewOf(db, services.settings, userId, body.id))!;
}

/** Approved for a time to come: the job that publishes it is written with the approval, so a restart loses neither. */
async function schedule({ db, settings }: Mailing, asked: Row, approval: Approval, comments: Row['comments']): Promise<void> {
  const approver = approval.userId;
  await db.transaction(async (tx) => {
    refuseSecondApproval(await lockedReview(tx, asked.id, ['Pending']), approver);
    await tx
      .update(studioReviews)
      .set({ state: 'Scheduled', decidedBy: approver, decidedAt: new Date(), comments: sql`${studioReviews.comments} || ${JSON.stringify(comments)}::jsonb`, ...withApproval(approval) })
      .where(eq(studioReviews.id, asked.id));
    await enqueue(tx, { queue: STUDIO_PUBLISH_QUEUE, key: String(asked.id), payload: { id: asked.id }, delayMs: Math.max(0, asked.publishAt!.getTime() - Date.now()), maxAttempts: 5 });
    await tellAsker(tx, settings, asked, approver, 'Scheduled', comments);
  });
  jobRunnerOf(db)?.kick();
}

/**
 * A scheduled change at its time: published if today's checks pass and no publication changed its files since;
 * otherwise it stays unpublished, marked Failed with the reason, for its owners to read in the studio.
 */
async function runScheduled(services: Mailing, job: ClaimedJob): Promise<JobOutcome> {
  const id = Number(job.payload.id);
  const [asked] = await services.db.select().from(studioReviews).where(and(eq(studioReviews.id, id), eq(studioReviews.state, 'Scheduled')));
  if (!asked) return { done: { skipped: true } };
  try {
    await publishReview(services, asked, ['Scheduled'], asked.decidedBy!, []);
    return { done: { published: true } };
  } catch (error) {
    if (!(error instanceof HttpProblem)) throw error;
    const failure = error.errors?.files?.join('; ') ?? error.message;
    await services.db.update(studioReviews).set({ state: 'Failed', failure: failure.slice(0, 2_000) }).where(and(eq(studioReviews.id, id), eq(studioReviews.state, 'Scheduled')));
    return { done: { failed: failure.slice(0, 200) } };
  }
}

export function studioQueues(services: Services): Record<string, QueueWork> {
  return { [STUDIO_PUBLISH_QUEUE]: { run: (job) => runScheduled(services, job), retry: { baseMs: 30_000, capMs: 600_000 } } };
}
