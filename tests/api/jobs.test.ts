import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lenderNewsQueues, CALLBACK_QUEUE } from '../../server/domain/journey/lender-news.ts';
import { DECISION_POLL_QUEUE } from '../../server/domain/journey/decision-polls.ts';
import { claimDue, claimJob, dueJobsWritten, enqueue, finishJob, retryJob, reviveJob } from '../../server/jobs/queue.ts';
import { createJobRunner } from '../../server/jobs/runner.ts';
import { runNow, type Services } from '../../server/services.ts';
import { OFFICE_ADMIN, PLATFORM } from '../support/demo-accounts.ts';
import { jobsSettled } from '../support/jobs.ts';
import { harness, type Harness } from '../support/harness.ts';
import { insertApplication } from './apps-fixtures.ts';
import { DEMO } from './examples.ts';
import { journeyOffice, json, logLines, prequalForm, signedCallback, type JourneyOffice } from './journey-fixtures.ts';

/**
 * The durable queue (decision 0262): once per key, a lease that a dead worker loses, a completion fenced by its claim,
 * backoff until the job is dead; and the lender work on it — a callback stored before it is applied and applied after
 * a restart, once; a decision under review polled; a refund told to the lender with its own Idempotency-Key.
 */

let h: Harness;
let office: JourneyOffice;
const db = () => h.database.db;
const quiet = { error: () => {}, warn: () => {} };
const leaseOver = () => new Promise((resolve) => setTimeout(resolve, 10));
let services: Services;
const jobRow = async (queue: string, key: string) =>
  (await db().execute<{ id: number; state: string; attempts: number; result: Record<string, unknown> | null; last_error: string | null; run_at: Date }>(sql`select id, state, attempts, result, last_error, run_at from jobs where queue = ${queue} and key = ${key}`)).rows[0];

beforeAll(async () => {
  h = await harness();
  office = await journeyOffice(h);
  services = { settings: h.settings, db: db(), database: h.database, log: h.app.log, afterCommit: runNow };
});

describe('the queue', () => {
  const queue = `test-${Date.now()}`;
  // The suite shares one database: a job of a queue the contract does not know must not reach another file's Background Jobs list.
  afterAll(async () => {
    await db().execute(sql`delete from jobs where queue = ${queue}`);
  });

  it('keeps a job once per key and finds the first when the same key is enqueued again', async () => {
    const first = await enqueue(db(), { queue, key: 'once', payload: { n: 1 } });
    const again = await enqueue(db(), { queue, key: 'once', payload: { n: 2 } });
    expect(first.created).toBe(true);
    expect(again).toMatchObject({ id: first.id, created: false, state: 'Queued' });
  });

  it("claims a job once; a claim whose lease ran out is taken over, and the old claim cannot finish the new one's work", async () => {
    const { id } = await enqueue(db(), { queue, key: 'lease', payload: {} });
    const [first] = (await claimDue(db(), [queue], 10, 1)).filter((j) => j.id === id);
    expect(first).toBeDefined();
    await leaseOver();
    expect(await claimJob(db(), id, 60_000)).toBeDefined(); // the 1 ms lease has run out: another worker takes it
    expect(await finishJob(db(), first!, { by: 'first' })).toBe(false);
    expect(await claimJob(db(), id, 60_000)).toBeUndefined(); // the second claim's lease holds
  });

  it('does not claim a job before its time, and makes it Dead after its last attempt', async () => {
    const later = await enqueue(db(), { queue, key: 'later', payload: {}, delayMs: 60_000 });
    expect((await claimDue(db(), [queue], 10, 60_000)).map((j) => j.id)).not.toContain(later.id);
    const { id } = await enqueue(db(), { queue, key: 'dies', payload: {}, maxAttempts: 2 });
    expect(await retryJob(db(), (await claimJob(db(), id, 60_000))!, 0, 'first failure')).toBe('Queued');
    expect(await retryJob(db(), (await claimJob(db(), id, 60_000))!, 0, 'second failure')).toBe('Dead');
    expect(await jobRow(queue, 'dies')).toMatchObject({ state: 'Dead', attempts: 2, last_error: 'second failure' });
  });

  it('counts the jobs written to run now, which a request kicks its runner for, and not those for later', async () => {
    const before = dueJobsWritten();
    await enqueue(db(), { queue, key: 'for-later', payload: {}, delayMs: 60_000 });
    expect(dueJobsWritten()).toBe(before);
    const { id } = await enqueue(db(), { queue, key: 'now', payload: {}, maxAttempts: 1 });
    expect(dueJobsWritten()).toBe(before + 1);
    expect(await retryJob(db(), (await claimJob(db(), id, 60_000))!, 0, 'failed')).toBe('Dead');
    expect(await reviveJob(db(), id, 1)).toBe(true);
    expect(dueJobsWritten()).toBe(before + 2);
  });

  it('retries a job whose work throws, with backoff, and a later outcome moves it without an error', async () => {
    let calls = 0;
    const runner = createJobRunner(db(), { [queue]: { run: async () => (++calls === 1 ? Promise.reject(new Error('lender down')) : { done: { ok: true } }), retry: { baseMs: 60_000, capMs: 60_000 } } }, quiet);
    const { id } = await enqueue(db(), { queue, key: 'flaky', payload: {} });
    expect(await runner.runNow(id)).toEqual({ later: { delayMs: expect.any(Number), reason: 'lender down' } });
    const row = (await jobRow(queue, 'flaky'))!;
    expect(row).toMatchObject({ state: 'Queued', last_error: 'lender down' });
    expect(new Date(row.run_at).getTime()).toBeGreaterThan(Date.now() + 50_000);
    expect(await runner.runNow(id)).toEqual({ done: { ok: true } }); // run at once by its id, as a request does
    expect(await jobRow(queue, 'flaky')).toMatchObject({ state: 'Done', result: { ok: true }, attempts: 2 });
  });

  it('runs the jobs behind a slow one while it runs: a job that ends frees its place at once', async () => {
    const lane = `${queue}-lanes`;
    let release = () => {};
    const slow = new Promise<void>((resolve) => (release = resolve));
    const runner = createJobRunner(db(), { [lane]: { run: async (job) => ((job.payload as { slow?: boolean }).slow ? slow.then(() => ({ done: null })) : { done: null }), retry: { baseMs: 1_000, capMs: 1_000 } } }, quiet);
    await enqueue(db(), { queue: lane, key: 'slow', payload: { slow: true } });
    for (let i = 0; i < 8; i++) await enqueue(db(), { queue: lane, key: `quick-${i}`, payload: {} });
    runner.kick();
    const done = async () => Number((await db().execute<{ n: number }>(sql`select count(*)::int as n from jobs where queue = ${lane} and state = 'Done'`)).rows[0]!.n);
    const until = Date.now() + 5_000;
    while ((await done()) < 8 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
    // More quick jobs than places, all done while the slow one still holds its place.
    expect(await done()).toBe(8);
    expect((await jobRow(lane, 'slow'))!.state).toBe('Running');
    release();
    await runner.idle();
    expect((await jobRow(lane, 'slow'))!.state).toBe('Done');
    await db().execute(sql`delete from jobs where queue = ${lane}`);
  });
});

describe('lender news on the queue', () => {
  const pendingApp = async () => {
    const response = await h.call({ method: 'POST', url: '/api/App/SubmitApp', payload: prequalForm(office.officeId, { lastName: 'Pending' }), as: office.admin });
    const app = json<{ id: number; stage: string }>(response);
    expect(app.stage).toBe('Review');
    const lenderAppId = (await db().execute<{ lender_app_id: string; lender_id: number }>(sql`select al.lender_app_id, al.lender_id from application_lenders al join lenders l on l.id = al.lender_id where al.app_id = ${app.id} and l.code = 'gsky'`)).rows[0]!;
    return { appId: app.id, lenderAppId: lenderAppId.lender_app_id, lenderId: lenderAppId.lender_id };
  };

  it('applies a callback stored by a process that stopped before applying it, when the portal is back; the lender\'s retry changes nothing', async () => {
    const { appId, lenderAppId } = await pendingApp();
    const body = { lenderCode: 'gsky', appId, lenderAppId, eventType: 'Decision', decisionStatus: 'Approved', occurredAtUtc: new Date().toISOString() };
    const request = signedCallback(h.settings, body);
    // What a portal that received the callback and died mid-way leaves: the job, claimed, its lease running out.
    const key = createHash('sha256').update(request.payload).digest('hex');
    const stored = await enqueue(db(), { queue: CALLBACK_QUEUE, key, payload: { callback: body } });
    await claimJob(db(), stored.id, 60_000);
    expect((await logLines(h, appId)).filter((l) => l.message === 'Lender callback: Decision')).toHaveLength(0);
    // Its lease runs out: the process that held it is gone. It was stored before anything else due in the suite's
    // database (jobs other files left), so the runner's first claim, oldest first, takes it: a claim crowded out by five
    // of those, with no kick after stop(), once left it Running (CI on PostgreSQL).
    await db().execute(sql`update jobs set locked_until = now() - interval '1 second', run_at = now() - interval '1 day' where id = ${stored.id}`);

    // The portal starts again: its runner takes over the lapsed job (or the suite's own server's, kicked by the
    // submission above, if it looks first: either runs it once).
    const runner = createJobRunner(db(), lenderNewsQueues(services), quiet);
    runner.kick();
    await runner.stop();
    await jobsSettled(db());
    expect(await jobRow(CALLBACK_QUEUE, key)).toMatchObject({ state: 'Done', attempts: 2, result: { status: 200, message: 'Processed.' } });
    const app = json<{ statusChip: string; offers: { lenderCode: string }[] }>(await h.call({ method: 'GET', url: `/api/App/GetApp/${appId}/false`, as: office.admin }));
    expect(app.statusChip).toBe('OffersAvailable');
    expect(app.offers.some((o) => o.lenderCode === 'gsky')).toBe(true);

    const retry = await h.call(signedCallback(h.settings, body));
    expect(retry.statusCode, retry.body).toBe(200);
    expect(json(retry)).toMatchObject({ message: 'This callback was already processed.' });
    expect((await logLines(h, appId)).filter((l) => l.message === 'Lender callback: Decision')).toHaveLength(1);
  });

  it('answers a repeat of a refused callback with the same refusal, and keeps the refusal on its job', async () => {
    const { appId } = await pendingApp();
    const body = { lenderCode: 'gsky', appId, lenderAppId: 'not-its-id', eventType: 'Decision', decisionStatus: 'Approved', occurredAtUtc: new Date().toISOString() };
    const first = await h.call(signedCallback(h.settings, body));
    const again = await h.call(signedCallback(h.settings, body));
    expect([first.statusCode, again.statusCode]).toEqual([409, 409]);
    expect(json(again)).toMatchObject({ detail: "lenderAppId is not the lender's id of this application." });
  });

  it('polls a decision under review: asked again later while the lender has not decided, done once the answer is no longer under review', async () => {
    const { appId, lenderAppId, lenderId } = await pendingApp();
    const key = `${appId}:${lenderId}:${lenderAppId}`;
    const queued = (await jobRow(DECISION_POLL_QUEUE, key))!;
    expect(queued.state).toBe('Queued');
    expect(new Date(queued.run_at).getTime()).toBeGreaterThan(Date.now() + 30_000); // first after a minute

    // The in-process sandbox has no status to tell: the poll is put off, doubling.
    const runner = createJobRunner(db(), lenderNewsQueues(services), quiet);
    expect(await runner.runNow(queued.id)).toMatchObject({ later: { delayMs: 120_000, reason: 'the lender has not decided yet' } });
    expect(await jobRow(DECISION_POLL_QUEUE, key)).toMatchObject({ state: 'Queued', attempts: 1 });

    const callback = await h.call(signedCallback(h.settings, { lenderCode: 'gsky', appId, lenderAppId, eventType: 'Decision', decisionStatus: 'Declined', occurredAtUtc: new Date().toISOString() }));
    expect(callback.statusCode, callback.body).toBe(200);
    expect(await runner.runNow(queued.id)).toEqual({ done: { outcome: 'no longer under review' } });
  });
});

describe('orders told to the lender', () => {
  const done = async (queue: string, key: string) => {
    const deadline = Date.now() + 10_000;
    while ((await jobRow(queue, key))?.state !== 'Done' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    return (await jobRow(queue, key))!;
  };

  it('closes the contract at the lender when the office finalizes, then asks it to fund the loan, each once', async () => {
    const appId = await insertApplication(db(), { officeId: DEMO.brightSmiles, stage: 'ReadyToFinalize', approvedAmount: 500_000, amount: 450_000, lenderCode: 'ally' });
    const response = await h.request(OFFICE_ADMIN, 'PUT', '/api/App/FinalizeApp', { appId, loanAmount: 4400 });
    expect(response.statusCode, response.body).toBe(200);
    expect(await done('lender-finalize', String(appId))).toMatchObject({ state: 'Done', result: { accepted: true } });
    expect(await done('lender-fund', String(appId))).toMatchObject({ state: 'Done', result: { accepted: true } });
    const told = (await logLines(h, appId)).filter((l) => / at Ally Lending| from Ally Lending/.test(l.message)).map((l) => l.message);
    expect(told).toEqual([expect.stringMatching(/^Finalized at Ally Lending \(contract .+\)$/), expect.stringMatching(/^Funding requested from Ally Lending \(reference .+-F\)$/)]);
  });

  it("goes to the selected lender once, by a job keyed by the refund, and the lender's reference is on the application's log", async () => {
    const appId = await insertApplication(db(), { officeId: DEMO.brightSmiles, stage: 'Funded', amount: 100_000, lenderCode: 'ally' });
    const response = await h.request(OFFICE_ADMIN, 'POST', '/api/App/SubmitRefund', { appId, amount: 250, reason: 'Treatment plan changed' });
    expect(response.statusCode, response.body).toBe(200);
    const refundId = String(json<{ refundId: number }>(response).refundId);
    // The request kicked this process's runner after its commit; the job is done moments later.
    const job = await done('lender-refund', refundId);
    expect(job).toMatchObject({ state: 'Done', attempts: 1, result: { accepted: true } });
    const sent = (await logLines(h, appId)).filter((l) => l.message.startsWith('Refund sent to Ally Lending'));
    expect(sent).toHaveLength(1);
    expect(sent[0]!.data).toMatchObject({ refundId: Number(refundId), lender: 'ally', accepted: true, reference: job.result!.reference });
  });
});

describe('money the lender says it moved (decision 0272)', () => {
  const told = (appId: number, eventType: 'Funding' | 'Refund', data: Record<string, string | number>) =>
    h.call(signedCallback(h.settings, { lenderCode: 'ally', appId, lenderAppId: `ALLY-A${appId}`, eventType, ...(eventType === 'Funding' ? { contractStatus: 'Funded' } : {}), occurredAtUtc: new Date().toISOString(), data }));
  const detail = async (appId: number) => json<{ fundingStatus: string | null; statusText: string; stage: string; contractStatus: string | null }>(await h.call({ method: 'GET', url: `/api/App/GetApp/${appId}/false`, as: OFFICE_ADMIN }));

  it("moves the office's payout to Processing when the lender funded; the platform's transfer completes it", async () => {
    const appId = await insertApplication(db(), { officeId: DEMO.brightSmiles, stage: 'SubmittedForFunding', amount: 300_000, lenderCode: 'ally' });
    expect((await detail(appId)).fundingStatus).toBe('Initiated');
    const response = await told(appId, 'Funding', { fundingId: 'F-1', amountCents: 300_000, orderKey: `fund-application-${appId}` });
    expect(response.statusCode, response.body).toBe(200);
    expect(await detail(appId)).toMatchObject({ stage: 'SubmittedForFunding', fundingStatus: 'Processing', contractStatus: 'Funded', statusText: 'Funded by Ally Lending: the payout to the office is on its way' });
    const marked = await h.request(PLATFORM, 'POST', '/api/admin/Apps/MarkAppsFunded', { appIds: [appId] });
    expect(marked.statusCode, marked.body).toBe(200);
    expect(await detail(appId)).toMatchObject({ stage: 'Funded', fundingStatus: 'Completed' });
    // The same funding told again, after the payout: recorded, nothing moves back.
    expect((await told(appId, 'Funding', { fundingId: 'F-1', amountCents: 300_000, orderKey: `fund-application-${appId}`, note: 'again' })).statusCode).toBe(200);
    expect(await detail(appId)).toMatchObject({ stage: 'Funded', fundingStatus: 'Completed' });
  });

  it('moves a refund to Processing when the lender took it back, by the order it names; a refund further on or none named is only recorded', async () => {
    const appId = await insertApplication(db(), { officeId: DEMO.brightSmiles, stage: 'Funded', amount: 100_000, lenderCode: 'ally' });
    const submitted = await h.request(OFFICE_ADMIN, 'POST', '/api/App/SubmitRefund', { appId, amount: 200, reason: 'Treatment plan changed' });
    const refundId = json<{ refundId: number }>(submitted).refundId;
    const refundStatus = async () => json<{ status: string; notes?: string | null }>(await h.call({ method: 'GET', url: `/api/App/GetRefundRequest/${DEMO.brightSmiles}/${appId}`, as: OFFICE_ADMIN })).status;
    const none = await told(appId, 'Refund', { refundId: 'R-1', amountCents: 20_000 });
    expect(json(none)).toMatchObject({ message: 'Recorded: the callback names no refund of the portal (data.orderKey).' });
    expect(await refundStatus()).toBe('Submitted');
    const taken = await told(appId, 'Refund', { refundId: 'R-1', reference: 'ALLY-R9', amountCents: 20_000, orderKey: `refund-request-${refundId}` });
    expect(json(taken)).toMatchObject({ message: 'Processed.' });
    expect(await refundStatus()).toBe('Processing');
    expect((await logLines(h, appId)).map((l) => l.message)).toContain('Refund processing');
    const completed = await h.request(PLATFORM, 'PUT', '/api/admin/Apps/UpdateRefund', { appId, refundId, status: 'Completed' });
    expect(completed.statusCode, completed.body).toBe(200);
    const late = await told(appId, 'Refund', { refundId: 'R-1', reference: 'ALLY-R9', amountCents: 20_000, orderKey: `refund-request-${refundId}`, note: 'late' });
    expect(json(late)).toMatchObject({ message: 'Recorded: A completed refund cannot become processing.' });
    expect(await refundStatus()).toBe('Completed');
  });
});

describe("the platform admin's Background Jobs", () => {
  const list = (body: Record<string, unknown>, as = PLATFORM) => h.request(as, 'PUT', '/api/admin/Jobs/GetJobs', body);
  const retry = (jobId: number, as = PLATFORM) => h.request(as, 'PUT', '/api/admin/Jobs/RetryJob', { jobId });
  type Job = { jobId: number; queue: string; state: string; attempts: number; maxAttempts: number; lastError: string | null; appId: number | null };

  it('lists a job that gave up with why, tries it again once mended, and says so on the application', async () => {
    const appId = await insertApplication(db(), { officeId: DEMO.brightSmiles, stage: 'Funded', amount: 100_000, lenderCode: 'ally' });
    const key = `admin-retry-${appId}`;
    const inserted = await db().execute<{ id: number }>(
      sql`insert into jobs (queue, key, payload, state, attempts, max_attempts, last_error, finished_at) values ('lender-fund', ${key}, ${JSON.stringify({ appId })}::jsonb, 'Dead', 12, 12, 'the lender answered 503', now()) returning id`,
    );
    const jobId = Number(inserted.rows[0]!.id);

    const dead = json<{ results: Job[] }>(await list({ states: ['Dead'], queues: ['lender-fund'], appId }));
    expect(dead.results).toEqual([expect.objectContaining({ jobId, queue: 'lender-fund', state: 'Dead', attempts: 12, maxAttempts: 12, lastError: 'the lender answered 503', appId })]);
    expect(json<{ results: Job[] }>(await list({ states: ['Done'], appId })).results).toEqual([]);

    for (const as of [OFFICE_ADMIN, 'dfi@demo.test']) {
      expect((await list({}, as)).statusCode, as).toBe(403);
      expect((await retry(jobId, as)).statusCode, as).toBe(403);
    }
    const retried = await retry(jobId);
    expect(retried.statusCode, retried.body).toBe(200);
    expect(json<Job>(retried)).toMatchObject({ jobId, state: 'Queued', attempts: 12, maxAttempts: 17 });
    await jobsSettled(db());
    expect(await jobRow('lender-fund', key)).toMatchObject({ state: 'Done', attempts: 13, last_error: null, result: { accepted: true } });
    const lines = (await logLines(h, appId)).map((l) => l.message);
    expect(lines).toEqual(expect.arrayContaining(['Tried again by a platform admin: Funding request to the lender', expect.stringMatching(/^Funding requested from Ally Lending/)]));

    expect((await retry(jobId)).statusCode).toBe(409);
    expect((await retry(9_000_000_000)).statusCode).toBe(404);
  });
});
