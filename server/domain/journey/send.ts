import { and, asc, count, desc, eq, isNull, sql } from 'drizzle-orm';
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
import { calendarDate, lockApplication, staffUserId, writeLogs } from '../applications/records.ts';
import { mayResendLink } from '../applications/status.ts';
import { toCents, toDollars, toUsDate, toUtc } from '../values.ts';
import { borrowerLink, issueLinkToken } from './links.ts';
import { catalogueOf, officeLenderEntries } from '../offices/office-lenders.ts';
import { requireApprovedOffice } from '../offices/lookup.ts';
import { tokenHash } from '../../identity/secrets.ts';
import { isOffered, localeToKeep, speakerFor } from '../../descriptors/languages.ts';
import type { Language } from '../../../core/i18n.ts';
import { recordApplicationEvent } from '../../events/application-events.ts';
import { formatList } from '../../../core/formats.ts';

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
    const channels = await sendLinks(tx, settings, { appId, email: body.email ?? null, mobilePhone: smsOptedOut ? null : (body.mobilePhone ?? null), firstName: body.firstName, amount, language }, office.name);
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

/** A single-use link by e-mail and one by text (where given), in the borrower's language: the channels it went out on. */
async function sendLinks(
  tx: Db,
  settings: Services['settings'],
  to: { appId: number; email: string | null; mobilePhone: string | null; firstName: string; amount: number; language: string | null },
  officeName: string,
): Promise<Channel[]> {
  const hours = settings.linkTokenTtlHours;
  const speak = speakerFor(to.language);
  const link = async () => borrowerLink(settings.publicUrl, to.appId, await issueLinkToken(tx, to.appId, hours), to.language);
  const channels: Channel[] = [];
  if (to.email) {
    await sendEmail(tx, applicationLinkEmail({ to: to.email, firstName: to.firstName, officeName, amount: to.amount, url: await link(), hours }, speak));
    channels.push('Email');
  }
  if (to.mobilePhone) {
    const queued = await sendSms(tx, applicationLinkSms({ to: to.mobilePhone, officeName, url: await link() }, speak));
    if (queued.queued) channels.push('Sms');
  }
  return channels;
}

// ---- App_ResendLink ---------------------------------------------------------------------------------

/** A link again at most this often, and this many a day: a click too many must not flood a patient's phone. */
const RESEND_GAP_SECONDS = 60;
const LINKS_A_DAY = 5;

/**
 * The borrower's link again, on the channels of the first: the links sent before it and not opened stop working, so
 * only the newest one in the patient's hands opens the application.
 */
export async function resendLink(services: Services, caller: Caller, appId: number): Promise<Schemas['ResendLinkResult']> {
  const { db, settings } = services;
  return db.transaction(async (tx) => {
    const app = await lockApplication(tx, appId);
    if (!mayResendLink(app)) throw HttpProblem.conflict('This application was not sent by link, or its loan documents are already signed: there is no link to send again.');
    const [recent] = (
      await tx.execute<{ last: string | Date | null; today: number }>(sql`
        select max(created_at) as last, count(*) filter (where created_at > now() - interval '1 day')::int as today from link_tokens where app_id = ${appId}`)
    ).rows;
    const last = recent?.last ? new Date(recent.last).getTime() : 0;
    if (Date.now() - last < RESEND_GAP_SECONDS * 1000) throw HttpProblem.conflict('A link was sent less than a minute ago. Give the borrower a moment to receive it.');
    // Each sending makes a link per channel and one for the desk's QR code: a day's sendings, not its tokens, count.
    if (Number(recent?.today ?? 0) >= LINKS_A_DAY * 3) throw HttpProblem.conflict(`The link was sent ${LINKS_A_DAY} times today. Ask the borrower to use the newest one, or to sign in with a passcode.`);
    const smsOptedOut = app.mobilePhone ? await isOptedOut(tx, app.mobilePhone) : false;
    await tx.update(linkTokens).set({ expiresAt: sql`now()` }).where(and(eq(linkTokens.appId, appId), isNull(linkTokens.usedAt), sql`${linkTokens.expiresAt} > now()`));
    const [office] = await tx.select({ name: offices.name }).from(offices).where(eq(offices.id, app.officeId));
    const channels = await sendLinks(tx, settings, { appId, email: app.email, mobilePhone: smsOptedOut ? null : app.mobilePhone, firstName: app.firstName, amount: app.amount, language: app.language }, office!.name);
    if (channels.length === 0) throw HttpProblem.conflict('The borrower has no e-mail address and their phone replied STOP to texts: there is nowhere to send the link.');
    const words = channels.map((c) => (c === 'Email' ? 'e-mail' : 'text')).join(' and ');
    await writeLogs(tx, appId, caller, [{ kind: 'Event', message: `Application link sent again by ${words}`, data: { channels, smsOptedOut } }]);
    await recordApplicationEvent(tx, app, 'application.link_sent', { channels: channels.join(','), resent: true });
    const expires = new Date(Date.now() + settings.linkTokenTtlHours * 3_600_000);
    return { appId, channels, linkExpiresAtUtc: toUtc(expires) };
  });
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
      // Before the form is sent the office sees where the borrower is: on the form now, since this moment.
      await tx.update(applications).set({ statusText: 'Borrower opened the link: filling in the application' }).where(and(eq(applications.id, row.appId), isNull(applications.decisionStatus)));
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
    lenderNames: formatList(
      (await officeLenderEntries(db, catalogueOf(services), app.officeId)).map((entry) => entry.adapter.descriptor.name),
      language.tag,
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
