import { and, asc, count, desc, eq, sql } from 'drizzle-orm';
import QRCode from 'qrcode';
import type { components } from '../../../codegen/generated/api.ts';
import type { Db } from '../../db/index.ts';
import { applications, linkTokens, officeOwners, offices, sendAppLogs, users } from '../../db/schema.ts';
import type { Caller } from '../../http/caller.ts';
import { HttpProblem } from '../../http/problem.ts';
import { issueBorrowerToken } from '../../identity/tokens.ts';
import { applicationLinkEmail, applicationLinkSms } from '../../notify/messages.ts';
import { sendEmail, sendSms } from '../../notify/outbox.ts';
import { isOptedOut } from '../../notify/optouts.ts';
import type { Services } from '../../services.ts';
import { message } from '../offices/records.ts';
import { toOfficeProfile } from '../offices/mapping.ts';
import { OTP } from '../otp/handlers.ts';
import { paged, totalRows, type Page } from '../paging.ts';
import { nameOrIdSearch, withinDates } from '../search.ts';
import { calendarDate, staffUserId, writeLogs } from '../applications/records.ts';
import { toCents, toDollars, toUsDate, toUtc } from '../values.ts';
import { borrowerLink, issueLinkToken } from './links.ts';
import { catalogueOf, officeLenderEntries } from './office-lenders.ts';
import { requireApprovedOffice } from '../offices/lookup.ts';
import { tokenHash } from '../../identity/secrets.ts';
import { isOffered, localeToKeep, speakerFor } from '../../descriptors/languages.ts';
import type { Language } from '../../../core/i18n.ts';
import { recordApplicationEvent } from '../../events/application-events.ts';

type Schemas = components['schemas'];
type Channel = Schemas['SendChannel'];

// ---- the personal e-mail rule (docs/decisions/0108) ----------------------------------------------

/** Free mailbox providers: a staff member's gmail.com says nothing about the office's domain. */
const PUBLIC_MAIL_DOMAINS = new Set([
  'gmail.com', 'googlemail.com', 'yahoo.com', 'ymail.com', 'outlook.com', 'hotmail.com', 'live.com', 'msn.com', 'icloud.com', 'me.com',
  'mac.com', 'aol.com', 'proton.me', 'protonmail.com', 'gmx.com', 'gmx.us', 'mail.com', 'zoho.com', 'yandex.com', 'fastmail.com',
  'hey.com', 'comcast.net', 'att.net', 'sbcglobal.net', 'verizon.net', 'bellsouth.net', 'cox.net', 'charter.net', 'earthlink.net',
  'example.com', 'example.org', 'example.net',
]);

/** Mailboxes of a role, not of a person (compared without dots, dashes and underscores). */
const ROLE_MAILBOXES = new Set([
  'info', 'frontdesk', 'front', 'desk', 'office', 'officemanager', 'admin', 'administrator', 'reception', 'receptionist', 'contact',
  'contactus', 'billing', 'accounts', 'accounting', 'finance', 'payments', 'support', 'help', 'hello', 'hi', 'team', 'staff', 'scheduling',
  'appointments', 'appointment', 'schedule', 'booking', 'frontoffice', 'dental', 'dentist', 'clinic', 'practice', 'manager', 'hr',
  'sales', 'marketing', 'noreply', 'donotreply', 'postmaster', 'webmaster', 'hostmaster', 'abuse', 'mail', 'email', 'patients',
  'patientcare', 'care', 'newpatients', 'insurance',
]);

const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1).toLowerCase();

function hostOf(website: string | null): string | null {
  if (!website) return null;
  try {
    return new URL(/^https?:\/\//i.test(website) ? website : `https://${website}`).hostname.toLowerCase().replace(/^www\./, '');
  } catch {
    return null;
  }
}

/**
 * Whether an e-mail can be the borrower's own (spec §5 'The email address must be the borrower's
 * personal email address.'): not a role mailbox (info@, frontdesk@ …), not the address of any staff
 * user or of an owner of the office, and not at the office's own domain (its website's, or a domain
 * its staff use that is not a public mailbox provider).
 */
export async function isPersonalEmail(db: Db, officeId: number, email: string): Promise<boolean> {
  const address = email.trim().toLowerCase();
  const local = address.slice(0, address.lastIndexOf('@')).replace(/\+.*$/, '');
  const domain = domainOf(address);
  if (ROLE_MAILBOXES.has(local.replace(/[._-]/g, ''))) return false;
  const [staff] = await db.select({ id: users.id }).from(users).where(eq(users.email, address)).limit(1);
  if (staff) return false;
  const [owner] = await db
    .select({ id: officeOwners.id })
    .from(officeOwners)
    .where(and(eq(officeOwners.officeId, officeId), sql`lower(${officeOwners.email}) = ${address}`))
    .limit(1);
  if (owner) return false;
  if (PUBLIC_MAIL_DOMAINS.has(domain)) return true;
  const [office] = await db.select({ website: offices.website }).from(offices).where(eq(offices.id, officeId));
  const site = hostOf(office?.website ?? null);
  if (site && (domain === site || domain.endsWith(`.${site}`))) return false;
  const staffDomains = await db.execute<{ domain: string }>(sql`
    select distinct lower(split_part(u.email, '@', 2)) as domain
    from users u join user_offices uo on uo.user_id = u.id
    where uo.office_id = ${officeId}`);
  return !staffDomains.rows.some((row) => row.domain === domain && !PUBLIC_MAIL_DOMAINS.has(row.domain));
}

export async function requirePersonalEmail(db: Db, officeId: number, email: string | undefined | null): Promise<void> {
  if (email && !(await isPersonalEmail(db, officeId, email))) throw HttpProblem.field('email', message('personalEmail'));
}

// ---- App_SendApp ----------------------------------------------------------------------------------

export async function sendApplication(services: Services, caller: Caller, body: Schemas['SendApp']): Promise<Schemas['SendAppResult']> {
  const { db, settings } = services;
  const office = await requireApprovedOffice(db, body.officeId);
  await requirePersonalEmail(db, body.officeId, body.email);
  const serviceDate = body.serviceDate ? calendarDate(body.serviceDate, 'serviceDate') : null;
  const smsOptedOut = body.mobilePhone ? await isOptedOut(db, body.mobilePhone) : false;
  if (!body.email && smsOptedOut) {
    throw HttpProblem.conflict('This mobile phone opted out of text messages (it replied STOP). Send the link by e-mail instead.');
  }
  // The form offers the languages live now; one that is not (a tab older than a rollback, a hand-made call) is refused.
  if (body.language !== undefined && !isOffered(body.language)) throw HttpProblem.validation({ language: [message('notAllowedValue')] });
  const amount = toCents(body.amount);
  const hours = settings.linkTokenTtlHours;
  const language = localeToKeep(body.language);
  const speak = speakerFor(language);
  const result = await db.transaction(async (tx) => {
    const [app] = await tx
      .insert(applications)
      .values({
        officeId: body.officeId,
        createdBy: staffUserId(caller),
        firstName: body.firstName.trim(),
        lastName: body.lastName.trim(),
        email: body.email?.toLowerCase() ?? null,
        mobilePhone: body.mobilePhone ?? null,
        amount,
        language,
        serviceDate,
        enableRemoteSign: body.enableRemoteSign ?? false,
        inOfficeApply: false,
        statusText: 'Application link sent: waiting for the borrower',
      })
      .returning({ id: applications.id });
    const appId = app!.id;
    const channels: Channel[] = [];
    if (body.email) {
      const url = borrowerLink(settings.publicUrl, appId, await issueLinkToken(tx, appId, hours), language);
      await sendEmail(tx, applicationLinkEmail({ to: body.email, firstName: body.firstName, officeName: office.name, amount, url, hours }, speak));
      channels.push('Email');
    }
    if (body.mobilePhone && !smsOptedOut) {
      const url = borrowerLink(settings.publicUrl, appId, await issueLinkToken(tx, appId, hours), language);
      const queued = await sendSms(tx, applicationLinkSms({ to: body.mobilePhone, officeName: office.name, url }, speak));
      if (queued.queued) channels.push('Sms');
    }
    // A third link for the QR code the popup can show at the desk.
    const qrLink = borrowerLink(settings.publicUrl, appId, await issueLinkToken(tx, appId, hours), language);
    await tx.insert(sendAppLogs).values({
      officeId: body.officeId,
      appId,
      firstName: body.firstName.trim(),
      lastName: body.lastName.trim(),
      email: channels.includes('Email') ? body.email!.toLowerCase() : null,
      mobilePhone: channels.includes('Sms') ? body.mobilePhone! : null,
      amount,
      serviceDate,
      enableRemoteSign: body.enableRemoteSign ?? false,
      sentBy: staffUserId(caller),
    });
    await writeLogs(tx, appId, caller, [
      { kind: 'Event', message: 'Application created', data: { inOfficeApply: false, amountCents: amount } },
      {
        kind: 'Event',
        message: `Application link sent by ${channels.map((c) => (c === 'Email' ? 'e-mail' : 'text')).join(' and ')}`,
        data: { channels, smsOptedOut, enableRemoteSign: body.enableRemoteSign ?? false },
      },
    ]);
    await recordApplicationEvent(tx, { id: appId, officeId: body.officeId }, 'application.created', { inOfficeApply: false, amount: amount / 100 });
    await recordApplicationEvent(tx, { id: appId, officeId: body.officeId }, 'application.link_sent', { channels: channels.join(','), enableRemoteSign: body.enableRemoteSign ?? false });
    return { appId, channels, qrLink };
  });
  const qrCode = await QRCode.toDataURL(result.qrLink, { errorCorrectionLevel: 'M', margin: 1, width: 240 });
  return {
    success: result.channels.length > 0,
    appId: result.appId,
    channels: result.channels,
    smsOptedOut,
    message: smsOptedOut ? 'The mobile phone opted out of text messages (it replied STOP): the link was sent by e-mail only.' : null,
    qrCode,
  };
}

// ---- link tokens → borrower session (docs/decisions/0102) ----------------------------------------

export async function exchangeLinkToken(services: Services, body: Schemas['LinkTokenExchange']): Promise<Schemas['OtpVerifyResult']> {
  const { db, settings } = services;
  const used = await db.transaction(async (tx) => {
    // One statement: two concurrent uses of the same link cannot both succeed.
    const [row] = await tx
      .update(linkTokens)
      .set({ usedAt: new Date() })
      .where(and(eq(linkTokens.tokenHash, tokenHash(body.token)), eq(linkTokens.appId, body.appId), sql`${linkTokens.usedAt} is null`, sql`${linkTokens.expiresAt} > now()`))
      .returning({ appId: linkTokens.appId });
    if (row) {
      await writeLogs(tx, row.appId, { kind: 'borrower', appId: row.appId }, [{ kind: 'Event', message: 'Borrower opened the application link' }]);
      const [app] = await tx.select({ id: applications.id, officeId: applications.officeId }).from(applications).where(eq(applications.id, row.appId));
      await recordApplicationEvent(tx, app!, 'application.link_opened');
    }
    return row;
  });
  if (!used) throw new HttpProblem(401, 'This link is not valid, has expired or was already used. Ask for a passcode instead.');
  const token = await issueBorrowerToken(settings.borrowerTokenSecret, used.appId);
  return { token, expiresAtUtc: toUtc(new Date(Date.now() + OTP.tokenMinutes * 60_000)), appId: used.appId };
}

// ---- App_GetSendAppInfo ---------------------------------------------------------------------------

const channelsOf = (row: { email: string | null; mobilePhone: string | null }): Channel[] => [
  ...(row.email ? (['Email'] as const) : []),
  ...(row.mobilePhone ? (['Sms'] as const) : []),
];

/** What the office sent (the latest link), or for an application started at the desk what it holds. */
export async function sendAppInfo(services: Services, appId: number, language: Language): Promise<Schemas['SendAppInfo']> {
  const { db } = services;
  const [found] = await db
    .select({ app: applications, office: offices })
    .from(applications)
    .innerJoin(offices, eq(offices.id, applications.officeId))
    .where(eq(applications.id, appId));
  if (!found) throw new HttpProblem(404, 'The application could not be found.');
  const { app } = found;
  const [log] = await db.select().from(sendAppLogs).where(eq(sendAppLogs.appId, appId)).orderBy(desc(sendAppLogs.createdAt), desc(sendAppLogs.id)).limit(1);
  return {
    appId,
    officeId: app.officeId,
    officeName: found.office.name.slice(0, 100),
    firstName: app.firstName,
    lastName: app.lastName,
    email: app.email,
    mobilePhone: app.mobilePhone,
    amount: toDollars(log?.amount ?? app.amount),
    serviceDate: toUsDate(log?.serviceDate ?? app.serviceDate),
    enableRemoteSign: app.enableRemoteSign,
    channels: log ? channelsOf(log) : [],
    sentAtUtc: toUtc(log?.createdAt ?? app.createdAt),
    // The lenders SubmitApp may ask, named as the caller's language lists names ('A, B and C').
    lenderNames: new Intl.ListFormat(language.tag, { style: 'long', type: 'conjunction' }).format(
      (await officeLenderEntries(db, catalogueOf(services), app.officeId)).map((entry) => entry.adapter.descriptor.name),
    ),
    office: toOfficeProfile(found.office),
  };
}

// ---- App_GetSendAppLogs ---------------------------------------------------------------------------

const SORTABLE = {
  id: sendAppLogs.id,
  firstName: sendAppLogs.firstName,
  lastName: sendAppLogs.lastName,
  email: sendAppLogs.email,
  amount: sendAppLogs.amount,
  serviceDate: sendAppLogs.serviceDate,
  createdAtUtc: sendAppLogs.createdAt,
} as const;

export async function sendAppLogList(db: Db, query: Schemas['ListQuery'] & { officeId: number }): Promise<Page<Schemas['SendAppLog']>> {
  const byName = nameOrIdSearch(query.search, {
    fullName: sql`lower(${sendAppLogs.firstName} || ' ' || ${sendAppLogs.lastName})`,
    lastName: sql`lower(${sendAppLogs.lastName})`,
    id: sendAppLogs.appId,
  });
  const where = and(eq(sendAppLogs.officeId, query.officeId), byName, withinDates(sendAppLogs.createdAt, query));
  const column = SORTABLE[query.sortBy as keyof typeof SORTABLE] ?? sendAppLogs.createdAt;
  const order = query.sortBy && SORTABLE[query.sortBy as keyof typeof SORTABLE] ? (query.sortDesc ? desc(column) : asc(column)) : desc(sendAppLogs.createdAt);
  return paged(
    query,
    (limit, offset) => {
      const rows = db
        .select({ log: sendAppLogs, firstName: users.firstName, lastName: users.lastName, total: totalRows() })
        .from(sendAppLogs)
        .leftJoin(users, eq(users.id, sendAppLogs.sentBy))
        .where(where)
        .orderBy(order, desc(sendAppLogs.id))
        .offset(offset);
      return limit === undefined ? rows : rows.limit(limit);
    },
    async () => Number((await db.select({ n: count() }).from(sendAppLogs).where(where))[0]?.n ?? 0),
    ({ log, firstName, lastName }) => ({
      id: log.id,
      appId: log.appId,
      officeId: log.officeId,
      firstName: log.firstName,
      lastName: log.lastName,
      email: log.email,
      mobilePhone: log.mobilePhone,
      channels: channelsOf(log),
      amount: toDollars(log.amount),
      serviceDate: toUsDate(log.serviceDate),
      enableRemoteSign: log.enableRemoteSign,
      sentBy: firstName === null ? null : `${firstName} ${lastName}`.slice(0, 51),
      sentAtUtc: toUtc(log.createdAt),
    }),
  );
}
