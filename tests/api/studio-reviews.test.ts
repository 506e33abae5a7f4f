import { and, eq, like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { descriptorPublications, outbox, users } from '../../server/db/schema.ts';
import { jobRunnerOf } from '../../server/jobs/runner.ts';
import { OFFICE_ADMIN, PLATFORM, PRODUCT_OWNER, SECOND_OWNER } from '../support/demo-accounts.ts';
import { jobsSettled } from '../support/jobs.ts';
import { harness, type Harness } from '../support/harness.ts';
import { journeyOffice, prequalForm } from './journey-fixtures.ts';

/**
 * Four eyes in the studio (issue 41, decision 0288): a change asked for review goes live only once a second product
 * owner approves it, at once or at its time; sent back, withdrawn or overtaken, it publishes nothing. Where the platform
 * requires approvals, Studio_Publish refuses and no one approves their own change.
 */
let h: Harness;
const call: Harness['request'] = (...args) => h.request(...args);
type Review = { id: number; state: string; publicationId: number | null; comments: Array<{ by: string; text: string }>; decidedBy: string | null; failure: string | null; changed: string[] };
const json = <T>(response: { body: string }) => JSON.parse(response.body) as T;

// The error page's title is translated: each change here chooses to publish it in English until translated (decision 0255).
const errorPage = async () => structuredClone((json<{ files: Array<{ path: string; doc: Record<string, unknown> }> }>(await call(PRODUCT_OWNER, 'GET', '/api/Studio/GetFiles'))).files.find((f) => f.path === 'pages/error.json')!.doc);
const titled = async (title: string) => ({ 'pages/error.json': { ...(await errorPage()), title } });
const ask = async (title: string, extra: Record<string, unknown> = {}) => call(PRODUCT_OWNER, 'POST', '/api/Studio/AskReview', { files: await titled(title), note: `Title: ${title}`, publishOutOfDate: true, ...extra });
const decide = (who: string, id: number, decision: string, comment?: string) => call(who, 'POST', '/api/Studio/DecideReview', { id, decision, ...(comment === undefined ? {} : { comment }) });
const liveTitle = async () => (await errorPage()).title;
/** Approvals as the platform sets them (STUDIO_APPROVALS), for one test. */
async function withApprovals<T>(mode: 'required' | 'optional', work: () => Promise<T>): Promise<T> {
  const before = h.settings.studioApprovals;
  h.settings.studioApprovals = mode;
  try {
    return await work();
  } finally {
    h.settings.studioApprovals = before;
  }
}

beforeAll(async () => {
  h = await harness();
  const reset = await call(PRODUCT_OWNER, 'POST', '/api/Studio/Rollback', { id: 0, note: 'The deployed files, for the review tests.' });
  expect([200, 409]).toContain(reset.statusCode);
});

afterAll(async () => {
  const back = await call(PRODUCT_OWNER, 'POST', '/api/Studio/Rollback', { id: 0, note: 'Back to the deployed files after the review tests.' });
  expect([200, 409]).toContain(back.statusCode);
});

describe('four eyes in the studio (decision 0288)', () => {
  it('publishes a change a second owner approves, with the comment, and names both in the history', async () => {
    const asked = await ask('Something broke');
    expect(asked.statusCode, asked.body).toBe(200);
    const review = json<Review>(asked);
    expect(review).toMatchObject({ state: 'Pending', publicationId: null, changed: ['pages/error.json'] });
    expect(await liveTitle()).not.toBe('Something broke');
    const list = json<{ approvalsRequired: boolean; reviews: Review[] }>(await call(SECOND_OWNER, 'GET', '/api/Studio/GetReviews'));
    expect(list.approvalsRequired).toBe(false);
    expect(list.reviews.find((r) => r.id === review.id)?.state).toBe('Pending');

    // Every other owner is told by e-mail that a change waits; the one who asked, of what became of it.
    const mails = (to: string, subject: string) => h.database.db.select({ body: outbox.body }).from(outbox).where(and(eq(outbox.recipient, to), like(outbox.subject, `%${subject}%`)));
    expect((await mails(SECOND_OWNER, 'a change waits for your review')).map((m) => m.body)).toContainEqual(expect.stringContaining('Title: Something broke'));
    expect(await mails(PRODUCT_OWNER, 'a change waits for your review')).toEqual([]);
    const approved = json<Review>(await decide(SECOND_OWNER, review.id, 'approve', 'Plainer, thanks.'));
    expect((await mails(PRODUCT_OWNER, 'your change was approved')).map((m) => m.body)).toContainEqual(expect.stringMatching(/Theo Grant .*approved your change, and it is published:\s+Title: Something broke[\s\S]*Their comment: Plainer, thanks\./));
    expect(approved).toMatchObject({ state: 'Published', decidedBy: expect.stringContaining('owner2@demo.test') });
    expect(approved.comments).toEqual([expect.objectContaining({ by: expect.stringContaining('Theo Grant'), text: 'Plainer, thanks.' })]);
    expect(await liveTitle()).toBe('Something broke');
    const history = json<{ publications: Array<{ id: number; publishedBy: string; approvedBy: string | null }> }>(await call(PRODUCT_OWNER, 'GET', '/api/Studio/GetHistory'));
    expect(history.publications[0]).toMatchObject({ id: approved.publicationId, publishedBy: expect.stringContaining('owner@demo.test'), approvedBy: expect.stringContaining('owner2@demo.test') });
    // Decided once: a second approval changes nothing.
    expect((await decide(SECOND_OWNER, review.id, 'approve')).statusCode).toBe(409);
  });

  it('where approvals are required: no publishing alone, no approving one’s own, and a sent-back change publishes nothing', async () => {
    await withApprovals('required', async () => {
      const published = await call(PRODUCT_OWNER, 'POST', '/api/Studio/Publish', { files: await titled('Alone'), note: 'Alone', publishOutOfDate: true });
      expect(published.statusCode).toBe(409);
      expect(json<{ detail: string }>(published).detail).toBe("Publishing needs a second product owner's approval here: ask for a review.");
      expect(json<{ approvalsRequired: boolean }>(await call(PRODUCT_OWNER, 'GET', '/api/Studio/GetReviews')).approvalsRequired).toBe(true);

      const review = json<Review>(await ask('Mine alone'));
      const own = await decide(PRODUCT_OWNER, review.id, 'approve');
      expect(own.statusCode).toBe(409);
      expect(json<{ detail: string }>(own).detail).toBe('A second product owner approves a change: not the one who asked for it.');
      expect((await decide(SECOND_OWNER, review.id, 'sendBack')).statusCode).toBe(400);
      expect(json<Review>(await decide(SECOND_OWNER, review.id, 'sendBack', 'Say what broke.')).state).toBe('SentBack');
      const told = await h.database.db.select({ body: outbox.body }).from(outbox).where(and(eq(outbox.recipient, PRODUCT_OWNER), like(outbox.subject, '%your change was sent back%')));
      expect(told.map((m) => m.body)).toContainEqual(expect.stringMatching(/sent back your change:\s+Title: Mine alone[\s\S]*Their comment: Say what broke\./));
      expect((await decide(SECOND_OWNER, review.id, 'approve')).statusCode).toBe(409);
      expect(await liveTitle()).not.toBe('Mine alone');
      // A rollback is not held for approval: a bad publication is taken back at once.
      expect((await call(PRODUCT_OWNER, 'POST', '/api/Studio/Rollback', { id: 0, note: 'Back, at once' })).statusCode).toBe(200);
    });
  });

  it('holds a change to a place that needs more approvers until the last of them approves, each owner once (decision 0291)', async () => {
    // A third product owner, for this test: the one who asks and two others.
    const third = 'owner3@reviews.test';
    await h.database.db.insert(users).values({ email: third, firstName: 'Ada', lastName: 'Third', role: 'admin', userRole: 'product.owner' }).onConflictDoNothing();
    const approvers = h.settings.studioApprovers;
    h.settings.studioApprovers = { pages: 2 };
    try {
      await withApprovals('required', async () => {
        const review = json<Review & { approvalsNeeded: number; approvals: Array<{ by: string }>; approvedByMe: boolean }>(await ask('Two approve it'));
        expect(review).toMatchObject({ approvalsNeeded: 2, approvals: [], approvedByMe: false });
        const once = json<Review & { approvals: Array<{ by: string }>; approvedByMe: boolean }>(await decide(SECOND_OWNER, review.id, 'approve', 'Fine by me.'));
        expect(once).toMatchObject({ state: 'Pending', publicationId: null, approvedByMe: true, approvals: [{ by: expect.stringMatching(/^Theo Grant/) }] });
        expect(await liveTitle()).not.toBe('Two approve it');
        const again = await decide(SECOND_OWNER, review.id, 'approve');
        expect(again.statusCode).toBe(409);
        expect(json<{ detail: string }>(again).detail).toBe('You approved this change already: it waits for another product owner.');
        // A lender's mapping changed through its shared part is a change to those lenders: their count holds.
        h.settings.studioApprovers = { pages: 2, lenders: 3 };
        const parts = structuredClone(json<{ files: Array<{ path: string; doc: { fragments: Record<string, { value: Record<string, unknown> }> } }> }>(await call(PRODUCT_OWNER, 'GET', '/api/Studio/GetFiles')).files.find((f) => f.path === 'fragments/lenders.json')!.doc);
        parts.fragments.sandboxCounterRule!.value.approvedAmount = 2_100;
        const viaPart = json<{ id: number; approvalsNeeded: number }>(await call(PRODUCT_OWNER, 'POST', '/api/Studio/AskReview', { files: { 'fragments/lenders.json': parts }, note: 'A larger counteroffer', publishOutOfDate: true }));
        expect(viaPart.approvalsNeeded).toBe(3);
        expect((await decide(PRODUCT_OWNER, viaPart.id, 'withdraw')).statusCode).toBe(200);
        h.settings.studioApprovers = { pages: 2 };
        const last = json<Review & { approvals: Array<{ by: string }> }>(await decide(third, review.id, 'approve'));
        expect(last).toMatchObject({ state: 'Published', approvals: [{ by: expect.stringMatching(/^Theo Grant/) }, { by: expect.stringMatching(/^Ada Third/) }] });
        expect(await liveTitle()).toBe('Two approve it');
      });
    } finally {
      h.settings.studioApprovers = approvers;
    }
    expect((await call(PRODUCT_OWNER, 'POST', '/api/Studio/Rollback', { id: 0, note: 'Back, after two approvals' })).statusCode).toBe(200);
  });

  it('refuses a change whose file was published since it was asked, and lets only its owner withdraw it', async () => {
    const first = json<Review>(await ask('First wording'));
    const other = await call(PRODUCT_OWNER, 'POST', '/api/Studio/Publish', { files: await titled('Meanwhile'), note: 'Meanwhile', publishOutOfDate: true });
    expect(other.statusCode, other.body).toBe(200);
    const late = await decide(SECOND_OWNER, first.id, 'approve');
    expect(late.statusCode).toBe(409);
    expect(json<{ detail: string }>(late).detail).toMatch(/^Published since this change was asked: pages\/error\.json\./);
    expect(await liveTitle()).toBe('Meanwhile');
    expect((await decide(SECOND_OWNER, first.id, 'withdraw')).statusCode).toBe(409);
    expect(json<Review>(await decide(PRODUCT_OWNER, first.id, 'withdraw')).state).toBe('Withdrawn');
  });

  it('publishes an approved change at its time, from the durable queue', async () => {
    const at = new Date(Date.now() + 1_500);
    const review = json<Review>(await ask('At its time', { publishAt: at.toISOString() }));
    const scheduled = json<Review>(await decide(SECOND_OWNER, review.id, 'approve', 'Tonight is fine.'));
    expect(scheduled.state).toBe('Scheduled');
    const told = await h.database.db.select({ body: outbox.body }).from(outbox).where(and(eq(outbox.recipient, PRODUCT_OWNER), like(outbox.subject, '%your change was approved%'), like(outbox.body, '%At its time%')));
    expect(told.map((m) => m.body)).toEqual([expect.stringMatching(/approved your change; it will be published at its time:[\s\S]*Their comment: Tonight is fine\./)]);
    expect(await liveTitle()).not.toBe('At its time');
    await new Promise((resolve) => setTimeout(resolve, at.getTime() - Date.now() + 100));
    jobRunnerOf(h.database.db)?.kick();
    await jobsSettled(h.database.db);
    const done = json<{ reviews: Review[] }>(await call(PRODUCT_OWNER, 'GET', '/api/Studio/GetReviews')).reviews.find((r) => r.id === review.id);
    expect(done).toMatchObject({ state: 'Published', failure: null });
    expect(await liveTitle()).toBe('At its time');
  });

  it('refuses bad input and anyone but a product owner', async () => {
    expect((await ask('Back in time', { publishAt: new Date(Date.now() - 60_000).toISOString() })).statusCode).toBe(400);
    expect((await call(PRODUCT_OWNER, 'POST', '/api/Studio/AskReview', { files: { 'pages/error.json': { title: 1 } }, note: 'Broken' })).statusCode).toBe(400);
    expect((await decide(SECOND_OWNER, 2_000_000, 'approve')).statusCode).toBe(404);
    for (const who of [OFFICE_ADMIN, PLATFORM]) expect((await call(who, 'GET', '/api/Studio/GetReviews')).statusCode, who).toBe(403);
  });

  it("records on an application the publication whose pages the borrower acted on, as the page names it (decision 0289)", async () => {
    const office = await journeyOffice(h);
    const live = json<{ hash: string }>(await call(undefined, 'GET', '/api/Descriptors/GetLive')).hash;
    const publicationOf = async (appId: number) => json<{ shownPublication: number | null }>(await h.call({ method: 'GET', url: `/api/App/GetApp/${appId}/false`, as: office.admin })).shownPublication;
    // On the office's device: the tab's set is the one the patient read.
    const inOffice = await h.call({ method: 'POST', url: '/api/App/SubmitApp', payload: prequalForm(office.officeId), as: office.admin, headers: { 'x-descriptor-set': live } });
    expect(inOffice.statusCode, inOffice.body).toBe(200);
    const id = json<{ id: number }>(inOffice).id;
    const liveId = live === '' ? 0 : json<{ publications: Array<{ id: number; hash: string }> }>(await call(PRODUCT_OWNER, 'GET', '/api/Studio/GetHistory')).publications.find((p) => p.hash === live)!.id;
    expect(await publicationOf(id)).toBe(liveId);
    // By link: nothing known until the borrower acts, then the set their page names; a page that names none changes nothing.
    const sent = json<{ appId: number }>(await h.call({ method: 'POST', url: '/api/App/SendApp', payload: { officeId: office.officeId, firstName: 'Sol', lastName: 'Shown', amount: 2000, email: `sol.${office.tag}@gmail.com` }, as: office.admin }));
    expect(await publicationOf(sent.appId)).toBeNull();
    const asBorrower = (headers: Record<string, string>) => h.call({ method: 'POST', url: '/api/App/SubmitApp', payload: prequalForm(office.officeId, { id: sent.appId, firstName: 'Sol', lastName: 'Shown' }), borrowerOf: sent.appId, headers });
    expect((await asBorrower({ 'x-descriptor-set': '' })).statusCode).toBe(200);
    expect(await publicationOf(sent.appId)).toBe(0);
    // A refused step (a second submission) records nothing, and neither does a set no one published.
    expect((await asBorrower({ 'x-descriptor-set': live || 'ffffffffffffffff' })).statusCode).toBe(409);
    expect(await publicationOf(sent.appId)).toBe(0);

    // A set another publication replaced more than a day ago is not taken as what a page showed.
    const older = json<{ publications: Array<{ id: number; hash: string }> }>(await call(PRODUCT_OWNER, 'GET', '/api/Studio/GetHistory')).publications.find((p) => p.hash !== live)!;
    await h.database.db.execute(sql`update ${descriptorPublications} set ${sql.identifier('created_at')} = ${descriptorPublications.publishedAt} - interval '3 days'`);
    const late = json<{ appId: number }>(await h.call({ method: 'POST', url: '/api/App/SendApp', payload: { officeId: office.officeId, firstName: 'Lou', lastName: 'Late', amount: 2000, email: `lou.${office.tag}@gmail.com` }, as: office.admin }));
    const step = await h.call({ method: 'POST', url: '/api/App/SubmitApp', payload: prequalForm(office.officeId, { id: late.appId, firstName: 'Lou', lastName: 'Late' }), borrowerOf: late.appId, headers: { 'x-descriptor-set': older.hash } });
    expect(step.statusCode, step.body).toBe(200);
    expect(await publicationOf(late.appId)).toBeNull();
  });
});
