import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { Handlers } from '../../http/handler-types.ts';
import { HttpProblem } from '../../http/problem.ts';
import { applications, otpCodes } from '../../db/schema.ts';
import { issueBorrowerToken } from '../../identity/tokens.ts';
import { newPasscode } from '../../identity/secrets.ts';
import { passcodeEmail, passcodeSms } from '../../notify/messages.ts';
import { sendEmail, sendSms } from '../../notify/outbox.ts';
import { toUtc } from '../values.ts';
import { decodeChallenge, encodeChallenge, hashCode, maskEmail, maskPhone, sameHash } from './challenge.ts';

/** Borrower sign-in limits (spec issue 4; docs/decisions/0067-borrower-passcodes.md). */
export const OTP = {
  codeMinutes: 10,
  resendSeconds: 60,
  maxWrong: 5,
  lockMinutes: 15,
  sendsPerAddressPerHour: 20,
  tokenMinutes: 30,
} as const;

const minutesFrom = (now: Date, minutes: number) => new Date(now.getTime() + minutes * 60_000);
const secondsUntil = (at: Date, now: Date) => Math.max(1, Math.ceil((at.getTime() - now.getTime()) / 1000));

function tooMany(detail: string, retryAfterSeconds: number): HttpProblem {
  return new HttpProblem(429, detail, { extensions: { retryAfterSeconds } });
}

export const otpHandlers: Pick<Handlers, 'Otp_SendOtp' | 'Otp_VerifyOtp'> = {
  async Otp_SendOtp({ body, services, request }) {
    const secret = services.settings.borrowerTokenSecret;
    return services.db.transaction(async (tx) => {
      const now = new Date();
      const sent = await tx.execute<{ n: number }>(sql`
        select count(*)::int as n from security_events where kind = 'otp-sent' and ip = ${request.ip} and created_at > now() - interval '1 hour'`);
      if (Number(sent.rows[0]?.n ?? 0) >= OTP.sendsPerAddressPerHour) throw tooMany('Too many passcodes were requested from this address. Try again later.', 3600);
      await tx.execute(sql`insert into security_events (kind, actor, detail, ip) values ('otp-sent', ${body.appId ? `borrower:${body.appId}` : `office:${body.officeId}`}, ${JSON.stringify({ channel: body.channel })}::jsonb, ${request.ip})`);

      let appId: number;
      let destination: string | null;
      if (body.appId !== undefined) {
        const [app] = await tx.select({ email: applications.email, mobilePhone: applications.mobilePhone }).from(applications).where(eq(applications.id, body.appId));
        if (!app) throw new HttpProblem(404, 'The application could not be found.');
        appId = body.appId;
        destination = body.channel === 'Email' ? app.email : app.mobilePhone;
        if (!destination) throw new HttpProblem(409, `No ${body.channel === 'Email' ? 'e-mail' : 'mobile phone'} is on file for this application.`);
      } else {
        // A borrower coming back through the office's landing page names the office and their contact.
        destination = (body.channel === 'Email' ? body.email?.toLowerCase() : body.mobilePhone) ?? null;
        if (!destination) throw HttpProblem.validation({ [body.channel === 'Email' ? 'email' : 'mobilePhone']: ['This field is required.'] });
        const contact = body.channel === 'Email' ? sql`lower(${applications.email}) = ${destination}` : sql`${applications.mobilePhone} = ${destination}`;
        const [app] = await tx
          .select({ id: applications.id })
          .from(applications)
          .where(sql`${applications.officeId} = ${body.officeId ?? 0} and ${contact}`)
          .orderBy(sql`${applications.createdAt} desc`)
          .limit(1);
        if (!app) {
          // The same answer whether or not the office has such an application; this challenge never verifies.
          return {
            status: 200 as const,
            body: {
              challengeId: randomUUID(),
              channel: body.channel,
              destination: body.channel === 'Email' ? maskEmail(destination) : maskPhone(destination),
              expiresAtUtc: toUtc(minutesFrom(now, OTP.codeMinutes)),
              resendAfterSeconds: OTP.resendSeconds,
            },
          };
        }
        appId = app.id;
      }

      // One lock for the application whatever the channel: alternating channels gains no guesses.
      const rows = await tx.select().from(otpCodes).where(eq(otpCodes.appId, appId)).for('update');
      const locked = rows.map((row) => row.lockedUntil).find((until) => until && until > now);
      if (locked) throw tooMany(`Too many wrong passcodes. Try again in ${Math.ceil(secondsUntil(locked, now) / 60)} minutes.`, secondsUntil(locked, now));
      const previous = rows.find((row) => row.channel === body.channel);
      const resendAt = previous ? new Date(previous.lastSentAt.getTime() + OTP.resendSeconds * 1000) : now;
      if (resendAt > now) throw tooMany(`Wait ${secondsUntil(resendAt, now)} seconds before asking for another passcode.`, secondsUntil(resendAt, now));

      const code = newPasscode();
      const expiresAt = minutesFrom(now, OTP.codeMinutes);
      const codeHash = hashCode(secret, appId, body.channel, code);
      // A resend replaces the code but keeps the count of wrong tries.
      await tx
        .insert(otpCodes)
        .values({ appId, channel: body.channel, codeHash, expiresAt, attempts: 0, lastSentAt: now })
        .onConflictDoUpdate({ target: [otpCodes.appId, otpCodes.channel], set: { codeHash, expiresAt, lastSentAt: now } });
      const queued =
        body.channel === 'Email'
          ? await sendEmail(tx, passcodeEmail({ to: destination, code, minutes: OTP.codeMinutes }))
          : await sendSms(tx, passcodeSms({ to: destination, code, minutes: OTP.codeMinutes }));
      if (!queued.queued) throw new HttpProblem(409, 'This mobile phone opted out of text messages. Ask for the passcode by e-mail.');
      return {
        status: 200 as const,
        body: {
          challengeId: encodeChallenge(secret, appId, body.channel),
          channel: body.channel,
          destination: body.channel === 'Email' ? maskEmail(destination) : maskPhone(destination),
          expiresAtUtc: toUtc(expiresAt),
          resendAfterSeconds: OTP.resendSeconds,
        },
      };
    });
  },

  async Otp_VerifyOtp({ body, services, request }) {
    const secret = services.settings.borrowerTokenSecret;
    const challenge = decodeChallenge(secret, body.challengeId);
    const wrong = (detail: string) => HttpProblem.validation({ code: [detail] });
    if (!challenge) throw wrong('The passcode is not correct or has expired. Ask for a new one.');
    const { appId, channel } = challenge;
    const outcome = await services.db.transaction(async (tx) => {
      const now = new Date();
      const rows = await tx.select().from(otpCodes).where(eq(otpCodes.appId, appId)).for('update');
      const locked = rows.map((row) => row.lockedUntil).find((until) => until && until > now);
      if (locked) throw tooMany(`Too many wrong passcodes. Try again in ${Math.ceil(secondsUntil(locked, now) / 60)} minutes.`, secondsUntil(locked, now));
      const row = rows.find((candidate) => candidate.channel === channel);
      if (!row || row.expiresAt <= now) return { ok: false as const, detail: 'The passcode has expired. Ask for a new one.' };
      if (sameHash(row.codeHash, hashCode(secret, appId, channel, body.code))) {
        // Used once: every code of the application goes.
        await tx.delete(otpCodes).where(eq(otpCodes.appId, appId));
        return { ok: true as const };
      }
      const attempts = Math.max(...rows.map((r) => r.attempts)) + 1;
      if (attempts >= OTP.maxWrong) {
        const until = minutesFrom(now, OTP.lockMinutes);
        await tx.update(otpCodes).set({ attempts: 0, lockedUntil: until }).where(eq(otpCodes.appId, appId));
        return { ok: false as const, locked: until };
      }
      await tx.update(otpCodes).set({ attempts }).where(eq(otpCodes.appId, appId));
      const left = OTP.maxWrong - attempts;
      return { ok: false as const, detail: `The passcode is not correct. ${left} ${left === 1 ? 'try' : 'tries'} left.` };
    });
    if (!outcome.ok) {
      if ('locked' in outcome && outcome.locked) {
        await services.db.execute(sql`insert into security_events (kind, actor, detail, ip) values ('otp-locked', ${`borrower:${appId}`}, '{}'::jsonb, ${request.ip})`);
        throw tooMany(`Too many wrong passcodes. Try again in ${OTP.lockMinutes} minutes.`, OTP.lockMinutes * 60);
      }
      throw wrong(outcome.detail ?? 'The passcode is not correct.');
    }
    const expiresAt = minutesFrom(new Date(), OTP.tokenMinutes);
    const token = await issueBorrowerToken(secret, appId, OTP.tokenMinutes * 60);
    return { status: 200, body: { token, expiresAtUtc: toUtc(expiresAt), appId } };
  },
};
