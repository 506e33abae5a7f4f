import { createHash } from 'node:crypto';
import { and, eq, inArray, sql, type SQLWrapper } from 'drizzle-orm';
import type { Db } from '../../db/index.ts';
import { applicationLenders, files, lenders, offices } from '../../db/schema.ts';
import type { LenderCatalogue } from '../../lenders/registry.ts';
import { adverseActionNotice, adverseActionSms, type DecliningLender } from '../../notify/messages.ts';
import { sendEmail, sendSms } from '../../notify/outbox.ts';
import type { ApplicationRecord, LogEntry } from './records.ts';
import { speakerFor } from '../../descriptors/languages.ts';

/**
 * The largest line a lender offered on an application: below the amount asked, its offers are a counteroffer (Reg B
 * §1002.9(a)(1)(iv), decision 0237).
 */
export const bestLine = (appId: SQLWrapper | number, lenderId: SQLWrapper) =>
  sql<number | null>`(select max(o.max_line) from offers o where o.app_id = ${appId} and o.lender_id = ${lenderId})`;

/** The kind of the file that keeps the notice with the application, as it was sent. */
export const ADVERSE_ACTION_KIND = 'AdverseActionNotice';

/**
 * One notice naming every lender that declined (docs/decisions/0214) or approved less than was asked (a counteroffer,
 * decision 0237), in the same transaction as the decision — kept with the application as a file, e-mailed (or, without
 * an e-mail address, a text saying where it is) through the outbox, and logged with its hash. Returns the log line.
 */
export async function sendAdverseActionNotice(tx: Db, catalogue: LenderCatalogue, app: ApplicationRecord): Promise<LogEntry> {
  const answered = await tx
    .select({
      code: lenders.code, name: lenders.name, phone: lenders.phone, status: applicationLenders.status, reason: applicationLenders.adverseActionReason,
      score: applicationLenders.creditScore, approvedCents: bestLine(app.id, lenders.id),
    })
    .from(applicationLenders)
    .innerJoin(lenders, eq(lenders.id, applicationLenders.lenderId))
    .where(and(eq(applicationLenders.appId, app.id), inArray(applicationLenders.status, ['Declined', 'Approved'])))
    .orderBy(lenders.name);
  const [office] = await tx.select({ name: offices.name }).from(offices).where(eq(offices.id, app.officeId));
  // A lender that approved less than was asked made a counteroffer (decision 0237): named with the declines.
  const openUntil = app.stage === 'Expired' || !app.expiration ? null : app.expiration.toISOString().slice(0, 10);
  const named: DecliningLender[] = answered
    .filter((l) => l.status === 'Declined' || (l.approvedCents !== null && Number(l.approvedCents) < app.amount))
    .map((l) => ({
      name: l.name,
      address: catalogue.get(l.code)?.descriptor.address ?? null,
      phone: l.phone,
      reason: l.reason,
      bureau: catalogue.get(l.code)?.descriptor.eligibility.creditBureau ?? null,
      score: l.score,
      countered: l.status === 'Approved' ? { approvedCents: Number(l.approvedCents), askedCents: app.amount, openUntil } : null,
    }));
  const speak = speakerFor(app.language);
  const notice = adverseActionNotice({ firstName: app.firstName, officeName: office!.name, appliedOn: app.createdAt.toISOString().slice(0, 10), lenders: named }, speak);
  const bytes = Buffer.from(`${notice.subject}\n\n${notice.text}`, 'utf8');
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  await tx.insert(files).values({
    officeId: app.officeId, appId: app.id, kind: ADVERSE_ACTION_KIND, fileName: `adverse-action-notice-${app.id}.txt`,
    description: 'Notice of the lenders\' decisions', contentType: 'text/plain; charset=utf-8', sizeBytes: bytes.length, sha256, bytes,
  });
  let channel: string;
  if (app.email) {
    await sendEmail(tx, { to: app.email, subject: notice.subject, text: notice.text });
    channel = 'e-mail';
  } else if (app.mobilePhone && (await sendSms(tx, adverseActionSms({ to: app.mobilePhone, officeName: office!.name, lenderCount: named.length, countered: named.some((l) => l.countered) }, speak))).queued) {
    channel = 'text (the notice is in the application)';
  } else {
    channel = 'none: kept for the office to give on paper';
  }
  return { kind: 'Event', message: `Adverse-action notice for ${named.length} lender${named.length === 1 ? '' : 's'} sent by ${channel}`, data: { lenders: named.map((l) => l.name), sha256 } };
}
