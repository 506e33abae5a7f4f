import { sql } from 'drizzle-orm';
import { isBusinessDay, previousBusinessDay } from '../../../core/business-days.ts';
import { heldPermissions } from '../../../core/permissions.ts';
import type { Settings } from '../../config.ts';
import type { Db } from '../../db/index.ts';
import { enqueue, type ClaimedJob } from '../../jobs/queue.ts';
import type { JobOutcome, QueueWork } from '../../jobs/runner.ts';
import { sendEmail } from '../../notify/outbox.ts';
import type { JobQueue } from '../../../codegen/generated/schemas.ts';
import { fromUsDate, toUsDate } from '../values.ts';
import { bankDay } from '../applications/funding-steps.ts';
import { depositedSince, fundingFigures } from './tracker.ts';

/**
 * The daily funding report (issue 40, decision 0278): each business morning, from 8 a.m. Eastern, every office with a
 * loan still to be deposited, or one deposited since the business day before, e-mails those who may see its funding
 * (its admins, and anyone granted it) where its money is.
 * The day's job is enqueued by the sweep (once per day by its key); it enqueues one job per office (once per office and
 * day by their keys), and each office's e-mails are written to the outbox in one transaction.
 */
export const DAILY_FUNDING_QUEUE = 'daily-funding-report' satisfies JobQueue;

/** The hour (Eastern) from which the day's report is sent: before the office opens, after overnight ACH settles. */
const SEND_FROM_HOUR = 8;

const easternHour = new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', hour: 'numeric', hourCycle: 'h23' });

/** Called by the sweep: on a business day from 8 a.m. Eastern, the day's report (once, whatever the processes). */
export async function enqueueDailyFundingReport(db: Db, now = new Date()): Promise<void> {
  const day = bankDay(now);
  if (!isBusinessDay(day) || Number(easternHour.format(now)) < SEND_FROM_HOUR) return;
  await enqueue(db, { queue: DAILY_FUNDING_QUEUE, key: day, payload: { day }, maxAttempts: 10 });
}

const money = (dollars: number) => dollars.toLocaleString('en-US', { style: 'currency', currency: 'USD' });
const loans = (count: number) => `${count} ${count === 1 ? 'loan' : 'loans'}`;

/** The offices that have news: a loan not yet deposited, or one deposited since the previous business day. */
async function officesWithNews(db: Db, day: string): Promise<number[]> {
  const since = previousBusinessDay(day);
  const found = await db.execute<{ office_id: number }>(sql`
    select distinct office_id from applications
    where funding_requested_at is not null and stage <> 'Cancelled' and (funded_at is null or funded_at >= ${since}::date)`);
  return found.rows.map((row) => Number(row.office_id));
}

async function sendOfficeReport(db: Db, settings: Pick<Settings, 'publicUrl'>, day: string, officeId: number): Promise<number> {
  const since = previousBusinessDay(day);
  const figures = await fundingFigures(db, officeId);
  const step = (name: string) => figures.steps.find((s) => s.step === name)!;
  const [requested, initiated] = [step('Requested'), step('Initiated')];
  const [deposited, found] = await Promise.all([
    depositedSince(db, officeId, since),
    db.execute<{ name: string; ach: string | null; last4: string | null }>(
      sql`select name, ach_verify_status as ach, bank_account_last4 as last4 from offices where id = ${officeId}`,
    ),
  ]);
  const office = found.rows[0];
  if (!office) return 0;
  const late = requested.late + initiated.late;
  const next = [requested.nextExpectedDate, initiated.nextExpectedDate].filter((d): d is string => d !== null).sort((a, b) => fromUsDate(a).localeCompare(fromUsDate(b)))[0];
  const lines = [
    `Deposited since ${toUsDate(since)}: ${loans(deposited.count)}, ${money(deposited.netAmount)} to you.`,
    `On its way to you (the lender has paid): ${loans(initiated.count)}, ${money(initiated.netAmount)}.`,
    `Requested from lenders: ${loans(requested.count)}, ${money(requested.netAmount)}.`,
    ...(next ? [`The next deposit is expected on ${next}.`] : []),
    ...(late > 0 ? [`Late: ${loans(late)} expected before today ${late === 1 ? 'has' : 'have'} not been deposited yet.`] : []),
    office.ach === 'Verified'
      ? `Deposits go to your verified bank account ending ${office.last4 ?? '----'}.`
      : 'Your bank account is not verified: no deposit can be made until it is. Verify it on the Bank Account page.',
  ];
  // Those who may see funding (decision 0279): the admins by their role's template, and anyone granted it.
  const members = await db.execute<{ email: string; role: string; granted: string[]; withdrawn: string[] }>(sql`
    select u.email, uo.role, uo.permissions_granted as granted, uo.permissions_withdrawn as withdrawn from users u join user_offices uo on uo.user_id = u.id
    where uo.office_id = ${officeId} and not uo.is_disabled and not u.is_disabled and (not uo.is_invited or uo.is_invite_processed) order by u.email`);
  const readers = members.rows.filter((m) => heldPermissions(m.role, m.granted, m.withdrawn).includes('seeFunding'));
  const tracker = `${settings.publicUrl}/#/funding`;
  await db.transaction(async (tx) => {
    for (const { email } of readers) {
      await sendEmail(tx, {
        to: email,
        subject: `Daily funding report for ${office.name}, ${toUsDate(day)}`,
        text: `${lines.join('\n')}\n\nEvery loan, its expected and actual deposit days: ${tracker}`,
        links: [{ label: 'Open the funding tracker', url: tracker }],
      });
    }
  });
  return readers.length;
}

async function run(db: Db, settings: Pick<Settings, 'publicUrl'>, job: ClaimedJob): Promise<JobOutcome> {
  const { day, officeId } = job.payload as { day: string; officeId?: number };
  if (officeId !== undefined) return { done: { day, officeId, emails: await sendOfficeReport(db, settings, day, officeId) } };
  const officeIds = await officesWithNews(db, day);
  await db.transaction(async (tx) => {
    for (const id of officeIds) await enqueue(tx, { queue: DAILY_FUNDING_QUEUE, key: `${day}:${id}`, payload: { day, officeId: id }, maxAttempts: 10 });
  });
  return { done: { day, offices: officeIds.length } };
}

export function dailyFundingQueues(db: Db, settings: Pick<Settings, 'publicUrl'>): Record<string, QueueWork> {
  return { [DAILY_FUNDING_QUEUE]: { run: (job) => run(db, settings, job), retry: { baseMs: 60_000, capMs: 3_600_000 } } };
}
