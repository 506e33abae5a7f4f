import { randomUUID } from 'node:crypto';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { components } from '../../../codegen/generated/api.ts';
import type { Db } from '../../db/index.ts';
import type { Handlers } from '../../http/handler-types.ts';
import type { Caller } from '../../http/caller.ts';
import { HttpProblem } from '../../http/problem.ts';
import { clientNetwork } from '../../http/client.ts';
import { recordSecurityEvent } from '../../http/security-events.ts';
import { applications, linkTokens, otpChallenges } from '../../db/schema.ts';
import { BORROWER_TOKEN_MINUTES, issueBorrowerToken } from '../../identity/tokens.ts';
import { newPasscode, tokenHash } from '../../identity/secrets.ts';
import { passcodeEmail, passcodeSms } from '../../notify/messages.ts';
import { sendEmail, sendSms, smsOptedOut } from '../../notify/outbox.ts';
import { toUtc } from '../values.ts';
import { contactKey, hashCode, maskEmail, maskPhone, sameHash } from './challenge.ts';
import { requestLocale, speakerFor } from '../../descriptors/languages.ts';

/** Borrower sign-in limits (spec issue 4; docs/decisions/0067 and 0173). */
export const OTP = {
  codeMinutes: 10,
  resendSeconds: 60,
  maxWrong: 5,
  sendsPerAddressPerHour: 20,
  /** Passcodes an office's landing page sends to one phone or e-mail an hour, whether or not it has an application. */
  sendsPerContactPerHour: 5,
  tokenMinutes: BORROWER_TOKEN_MINUTES,
} as const;

/** The office roles that start applications may have a code sent to the borrower at their desk ('On this device'). */
const DESK_ROLES = ['admin', 'support', 'sales'];

type Schemas = components['schemas'];

const minutesFrom = (now: Date, minutes: number) => new Date(now.getTime() + minutes * 60_000);
const secondsUntil = (at: Date, now: Date) => Math.max(1, Math.ceil((at.getTime() - now.getTime()) / 1000));


/**
 * Who may have a passcode sent for an application named by its id (decision 0173): whoever holds a link the office
 * sent for it (used or expired: it reached the borrower's phone or mailbox), its borrower, or the office at its desk.
 * Ids are sequential; the public web key alone must not text a borrower or start a challenge against them.
 */
async function mayRequest(tx: Db, app: { id: number; officeId: number }, caller: Caller, linkToken: string | undefined): Promise<boolean> {
  if (caller.kind === 'borrower') return caller.appId === app.id;
  if (caller.kind === 'staff' && DESK_ROLES.includes(caller.offices.get(app.officeId) ?? '')) return true;
  if (!linkToken) return false;
  const [link] = await tx.select({ appId: linkTokens.appId }).from(linkTokens).where(and(eq(linkTokens.tokenHash, tokenHash(linkToken)), eq(linkTokens.appId, app.id)));
  return link !== undefined;
}

/**
 * Starts a challenge and sends its passcode to `destination` — unless there is no application (`appId` null), which
 * nobody may learn from the answer. A mobile phone that opted out of texts gets a 409 (nothing written).
 */
export async function issuePasscode(
  tx: Db,
  secret: Buffer,
  target: { appId: number | null; channel: 'Sms' | 'Email'; destination: string; language: string | null },
  now = new Date(),
): Promise<Schemas['OtpSendResult']> {
  const id = randomUUID();
  const code = newPasscode();
  const expiresAt = minutesFrom(now, OTP.codeMinutes);
  await tx.insert(otpChallenges).values({ id, appId: target.appId, channel: target.channel, codeHash: hashCode(secret, id, code), expiresAt, createdAt: now });
  const speak = speakerFor(target.language);
  const message = { to: target.destination, code, minutes: OTP.codeMinutes };
  // A phone that opted out is refused alike whether or not it has an application: the refusal tells only the opt-out.
  const queued =
    target.appId === null ? { queued: !(target.channel === 'Sms' && (await smsOptedOut(tx, target.destination))) }
    : target.channel === 'Email' ? await sendEmail(tx, passcodeEmail(message, speak))
    : await sendSms(tx, passcodeSms(message, speak));
  if (!queued.queued) throw HttpProblem.conflict('This mobile phone opted out of text messages. Ask for the passcode by e-mail.');
  return {
    challengeId: id,
    channel: target.channel,
    destination: target.channel === 'Email' ? maskEmail(target.destination) : maskPhone(target.destination),
    expiresAtUtc: toUtc(expiresAt),
    resendAfterSeconds: OTP.resendSeconds,
  };
}

/**
 * Refuses a passcode asked for too soon after the last one: for an application (by its challenges), or for a contact
 * named on a landing page (by the security events of that contact, at most `sendsPerContactPerHour` an hour).
 */
async function waitForResend(tx: Db, of: { appId: number; channel: 'Sms' | 'Email' } | { actor: string }, now: Date): Promise<void> {
  let last: Date | undefined;
  if ('actor' in of) {
    // Requests for one contact take turns, so that none escapes the count.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${of.actor}, 0))`);
    const rows = await tx.execute<{ n: number; last: string | Date | null }>(sql`
      select count(*)::int as n, max(created_at) as last from security_events
      where kind = 'otp-sent' and actor = ${of.actor} and created_at > now() - interval '1 hour'`);
    const row = rows.rows[0];
    if (Number(row?.n ?? 0) >= OTP.sendsPerContactPerHour) throw HttpProblem.tooMany('Too many passcodes were requested for this contact. Try again later.', 3600);
    last = row?.last ? new Date(row.last) : undefined;
  } else {
    [{ createdAt: last } = { createdAt: undefined }] = await tx
      .select({ createdAt: otpChallenges.createdAt })
      .from(otpChallenges)
      .where(and(eq(otpChallenges.appId, of.appId), eq(otpChallenges.channel, of.channel)))
      .orderBy(desc(otpChallenges.createdAt))
      .limit(1);
  }
  const resendAt = last ? new Date(last.getTime() + OTP.resendSeconds * 1000) : now;
  if (resendAt > now) throw HttpProblem.tooMany(`Wait ${secondsUntil(resendAt, now)} seconds before asking for another passcode.`, secondsUntil(resendAt, now));
}

export const otpHandlers: Pick<Handlers, 'Otp_SendOtp' | 'Otp_VerifyOtp'> = {
  async Otp_SendOtp({ body, caller, services, request }) {
    const secret = services.settings.borrowerTokenSecret;
    const network = clientNetwork(request);
    return services.db.transaction(async (tx) => {
      const now = new Date();
      const sent = await tx.execute<{ n: number }>(sql`
        select count(*)::int as n from security_events where kind = 'otp-sent' and ip = ${network} and created_at > now() - interval '1 hour'`);
      if (Number(sent.rows[0]?.n ?? 0) >= OTP.sendsPerAddressPerHour) throw HttpProblem.tooMany('Too many passcodes were requested from this address. Try again later.', 3600);

      let appId: number | null;
      let destination: string | null;
      if (body.appId !== undefined) {
        // The row lock makes concurrent requests for one application take turns, so the resend limit holds.
        const [app] = await tx
          .select({ id: applications.id, officeId: applications.officeId, email: applications.email, mobilePhone: applications.mobilePhone })
          .from(applications)
          .where(eq(applications.id, body.appId))
          .for('update');
        // The same answer for an application that does not exist and for a requester without the link.
        if (!app || !(await mayRequest(tx, app, caller, body.linkToken))) throw new HttpProblem(404, 'The application could not be found.');
        appId = app.id;
        destination = body.channel === 'Email' ? app.email : app.mobilePhone;
        if (!destination) throw HttpProblem.conflict(`No ${body.channel === 'Email' ? 'e-mail' : 'mobile phone'} is on file for this application.`);
        await waitForResend(tx, { appId, channel: body.channel }, now);
        await recordSecurityEvent(tx, { kind: 'otp-sent', actor: `borrower:${appId}`, ip: network, detail: { channel: body.channel } });
      } else {
        // A borrower coming back through the office's landing page names the office and their contact.
        destination = (body.channel === 'Email' ? body.email?.toLowerCase() : body.mobilePhone) ?? null;
        if (!destination) throw HttpProblem.validation({ [body.channel === 'Email' ? 'email' : 'mobilePhone']: ['This field is required.'] });
        // Whoever asks must not learn whether the contact has an application here: the limits are the contact's, kept
        // alike whether or not one exists (decision 0251), and the contact is kept as a keyed hash, never as typed.
        const actor = `contact:${contactKey(secret, { officeId: body.officeId ?? 0, channel: body.channel, destination })}`;
        await waitForResend(tx, { actor }, now);
        await recordSecurityEvent(tx, { kind: 'otp-sent', actor, ip: network, detail: { channel: body.channel } });
        const contact = body.channel === 'Email' ? sql`lower(${applications.email}) = ${destination}` : sql`${applications.mobilePhone} = ${destination}`;
        const [app] = await tx
          .select({ id: applications.id })
          .from(applications)
          .where(sql`${applications.officeId} = ${body.officeId ?? 0} and ${contact}`)
          .orderBy(sql`${applications.createdAt} desc`)
          .limit(1);
        // No such application: a challenge without one, answered and verified like any other, tells nobody so.
        appId = app?.id ?? null;
      }

      // The passcode comes in the language of the page that asked for it, which the application keeps (decision 0216).
      const language = requestLocale(request);
      if (appId !== null) await tx.update(applications).set({ language }).where(eq(applications.id, appId));
      return { status: 200 as const, body: await issuePasscode(tx, secret, { appId, channel: body.channel, destination, language }, now) };
    });
  },

  async Otp_VerifyOtp({ body, services, request }) {
    const secret = services.settings.borrowerTokenSecret;
    const outcome = await services.db.transaction(async (tx) => {
      const now = new Date();
      // Concurrent guesses at one challenge take turns, so none escapes the count.
      const [row] = await tx.select().from(otpChallenges).where(eq(otpChallenges.id, body.challengeId)).for('update');
      if (!row || row.expiresAt <= now) return { ok: false as const, detail: 'The passcode has expired. Ask for a new one.' };
      if (row.attempts >= OTP.maxWrong) return { ok: false as const, detail: 'Too many wrong passcodes. Ask for a new one.' };
      if (row.appId !== null && sameHash(row.codeHash, hashCode(secret, row.id, body.code))) {
        // Used once: every challenge of the application goes.
        await tx.delete(otpChallenges).where(eq(otpChallenges.appId, row.appId));
        return { ok: true as const, appId: row.appId };
      }
      // Wrong tries count against this challenge only: whoever guesses locks their own, never the borrower's.
      const attempts = row.attempts + 1;
      await tx.update(otpChallenges).set({ attempts }).where(eq(otpChallenges.id, row.id));
      if (attempts < OTP.maxWrong) {
        const left = OTP.maxWrong - attempts;
        return { ok: false as const, detail: `The passcode is not correct. ${left} ${left === 1 ? 'try' : 'tries'} left.` };
      }
      await recordSecurityEvent(tx, { kind: 'otp-locked', actor: row.appId === null ? 'nobody' : `borrower:${row.appId}`, ip: clientNetwork(request), detail: { challengeId: row.id } });
      return { ok: false as const, detail: 'Too many wrong passcodes. Ask for a new one.' };
    });
    if (!outcome.ok) throw HttpProblem.validation({ code: [outcome.detail] });
    const expiresAt = minutesFrom(new Date(), OTP.tokenMinutes);
    const token = await issueBorrowerToken(secret, outcome.appId);
    return { status: 200, body: { token, expiresAtUtc: toUtc(expiresAt), appId: outcome.appId } };
  },
};
