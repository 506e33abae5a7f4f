import { desc, eq, sql } from 'drizzle-orm';
import type { components } from '../../../codegen/generated/api.ts';
import type { Db } from '../../db/index.ts';
import { offices, officeStatusChanges, users } from '../../db/schema.ts';
import { HttpProblem } from '../../http/problem.ts';
import { officeStatusEmail } from '../../notify/messages.ts';
import { sendEmail } from '../../notify/outbox.ts';
import { activeAdminContacts, type MailContext } from './office-mail.ts';
import { lockOffice } from './records.ts';
import { toUtc } from '../values.ts';
import { flagsOf, refusal, statusWords, TRANSITIONS, type EnrollmentStatus, type ReviewStatus } from './review-transitions.ts';
import { recordEvent } from '../../events/record.ts';
import type { EventType } from '../../../codegen/generated/schemas.ts';

type Schemas = components['schemas'];

/** Where an e-mail about the office's status sends its admins: the office's home (route `home`). */
const homeLink = (publicUrl: string) => `${publicUrl}/#/home`;

/** One history row; the caller writes the office's own status in the same transaction. */
export async function recordStatusChange(
  tx: Db,
  change: { officeId: number; from: EnrollmentStatus; to: EnrollmentStatus; reason: string; changedBy: string | null },
): Promise<void> {
  await tx.insert(officeStatusChanges).values({ officeId: change.officeId, fromStatus: change.from, toStatus: change.to, reason: change.reason, changedBy: change.changedBy });
  const type = OFFICE_EVENTS[change.to];
  // The reason is the platform's words to the office, which the office's own systems may show.
  if (type) await recordEvent(tx, { type, officeId: change.officeId, subject: { kind: 'office', id: change.officeId }, data: { from: change.from, to: change.to, reason: change.reason } });
}

/** The enrollment statuses an office's systems hear of (issue 39). */
const OFFICE_EVENTS: Partial<Record<EnrollmentStatus, EventType>> = {
  Submitted: 'office.submitted',
  Approved: 'office.approved',
  Declined: 'office.declined',
  OnHold: 'office.on_hold',
};

export interface StatusChange {
  officeId: number;
  status: ReviewStatus;
  reason: string;
  changedBy: string;
}

/**
 * AdminOffices_UpdateOfficeStatus (decision 0150), in one transaction under the office's row lock: the move must be
 * in the transition table (409 otherwise); the office gets the status, the flags it implies and the reason; the
 * history gets a row; the office's active admins get an e-mail. The status the office already has changes nothing,
 * so a second click of the same decision neither writes a row nor sends a message.
 */
export async function changeOfficeStatus(db: Db, change: StatusChange, mail: MailContext): Promise<void> {
  const reason = change.reason.trim();
  await db.transaction(async (tx) => {
    const office = await lockOffice(tx, change.officeId);
    if (office.enrollmentStatus === change.status) return;
    const refused = refusal(office.name, office.enrollmentStatus, change.status);
    if (refused) throw new HttpProblem(409, refused, { extensions: { status: office.enrollmentStatus, allowedStatuses: TRANSITIONS[office.enrollmentStatus] } });
    await tx
      .update(offices)
      .set({
        enrollmentStatus: change.status,
        ...flagsOf(change.status),
        statusReason: reason,
        statusChangedAt: sql`now()`,
        // The first approval's time stays when a watched office is approved again.
        ...(change.status === 'Approved' && office.approvedAt === null ? { approvedAt: sql`now()` } : {}),
        updatedAt: sql`now()`,
      })
      .where(eq(offices.id, office.id));
    await recordStatusChange(tx, { officeId: office.id, from: office.enrollmentStatus, to: change.status, reason, changedBy: change.changedBy });
    for (const admin of await activeAdminContacts(tx, office.id)) {
      await sendEmail(
        tx,
        officeStatusEmail({
          to: admin.email, firstName: admin.firstName, officeName: office.name, status: change.status, statusWords: statusWords(change.status), reason,
          url: homeLink(mail.publicUrl), brandName: mail.brandName,
        }),
      );
    }
  });
}

/** AdminOffices_GetOfficeHistory: the status, what it may become, and every change, newest first. */
export async function officeHistory(db: Db, officeId: number): Promise<Schemas['OfficeStatusHistory']> {
  const [office] = await db.select().from(offices).where(eq(offices.id, officeId));
  if (!office) throw new HttpProblem(404, 'The office could not be found.');
  const rows = await db
    .select({ change: officeStatusChanges, firstName: users.firstName, lastName: users.lastName, email: users.email })
    .from(officeStatusChanges)
    .leftJoin(users, eq(users.id, officeStatusChanges.changedBy))
    .where(eq(officeStatusChanges.officeId, officeId))
    .orderBy(desc(officeStatusChanges.createdAt), desc(officeStatusChanges.id));
  return {
    officeId: office.id,
    officeName: office.name,
    enrollmentStatus: office.enrollmentStatus,
    statusReason: office.statusReason,
    statusChangedAtUtc: toUtc(office.statusChangedAt),
    allowedStatuses: [...TRANSITIONS[office.enrollmentStatus]],
    entries: rows.map(({ change, firstName, lastName, email }) => ({
      id: change.id,
      officeId: change.officeId,
      fromStatus: change.fromStatus,
      toStatus: change.toStatus,
      reason: change.reason,
      changedBy: firstName === null ? null : `${firstName} ${lastName}`.slice(0, 51),
      changedByEmail: email,
      changedAtUtc: toUtc(change.createdAt),
    })),
  };
}
