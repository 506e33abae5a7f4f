import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { OTP } from '../../server/domain/otp/handlers.ts';
import { harness, type Harness } from '../support/harness.ts';
import { DEMO } from './examples.ts';

/** Borrower sign-in by one-time passcode (Otp_SendOtp / Otp_VerifyOtp). */
describe('borrower passcodes', () => {
  let h: Harness;
  /** Applications of Bright Smiles with an e-mail and a mobile phone, none used by other test files. */
  let apps: { id: number; email: string; mobile_phone: string }[];
  let next = 0;
  let ipCounter = 10;
  const freshIp = () => `192.0.2.${ipCounter++}`;

  const send = (body: object, ip = freshIp()) => h.call({ method: 'POST', url: '/api/Otp/SendOtp', payload: body, remoteAddress: ip });
  const verify = (challengeId: string, code: string, ip = freshIp()) => h.call({ method: 'POST', url: '/api/Otp/VerifyOtp', payload: { challengeId, code }, remoteAddress: ip });
  const codeSentTo = async (recipient: string) => {
    const row = (await h.database.db.execute<{ body: string }>(sql`select body from outbox where recipient = ${recipient} order by id desc limit 1`)).rows[0];
    return /\b(\d{6})\b/.exec(row!.body)![1]!;
  };
  const anApp = () => apps[next++]!;

  beforeAll(async () => {
    h = await harness();
    const rows = await h.database.db.execute<{ id: number; email: string; mobile_phone: string }>(sql`
      select id, email, mobile_phone from applications
      where office_id = ${DEMO.brightSmiles} and email is not null and mobile_phone is not null
        -- not the applications other files use (the first one, the contract examples' first OfferSelected one)
        and id <> (select min(id) from applications where office_id = ${DEMO.brightSmiles})
        and id <> (select min(id) from applications where office_id = ${DEMO.brightSmiles} and stage = 'OfferSelected')
      order by id desc limit 12`);
    apps = rows.rows.map((row) => ({ ...row, id: Number(row.id) }));
    // Make the e-mails unique to this file, so the outbox answers for these applications only.
    for (const app of apps) {
      app.email = `otp-${app.id}@example.test`;
      await h.database.db.execute(sql`update applications set email = ${app.email} where id = ${app.id}`);
    }
  });

  it('sends a six-digit code by e-mail through the outbox, stores it only as a hash, and exchanges it for a borrower token of that application', async () => {
    const app = anApp();
    const sent = await send({ appId: app.id, channel: 'Email' });
    expect(sent.statusCode, sent.body).toBe(200);
    const answer = JSON.parse(sent.body);
    expect(answer).toMatchObject({ channel: 'Email', destination: `o***@example.test`, resendAfterSeconds: OTP.resendSeconds });
    expect(Date.parse(answer.expiresAtUtc) - Date.now()).toBeGreaterThan((OTP.codeMinutes - 1) * 60_000);
    const code = await codeSentTo(app.email);
    const stored = (await h.database.db.execute<{ code_hash: string }>(sql`select code_hash from otp_codes where app_id = ${app.id}`)).rows;
    expect(stored).toHaveLength(1);
    expect(stored[0]!.code_hash).not.toContain(code);

    const verified = await verify(answer.challengeId, code);
    expect(verified.statusCode, verified.body).toBe(200);
    const { token, appId } = JSON.parse(verified.body);
    expect(appId).toBe(app.id);
    const own = await h.call({ method: 'GET', url: `/api/App/GetApp/${app.id}/false`, headers: { 'x-borrower-token': token } });
    expect(own.statusCode).toBe(200);
    const other = await h.call({ method: 'GET', url: `/api/App/GetApp/${apps[apps.length - 1]!.id}/false`, headers: { 'x-borrower-token': token } });
    expect(other.statusCode).toBe(404);
    // Used once.
    expect((await verify(answer.challengeId, code)).statusCode).toBe(400);
  });

  it('texts the code to the mobile phone, masked in the answer', async () => {
    const app = anApp();
    const sent = await send({ appId: app.id, channel: 'Sms' });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(JSON.parse(sent.body).destination).toBe(`(***) ***-${app.mobile_phone.slice(-4)}`);
    const sms = (await h.database.db.execute<{ channel: string; body: string }>(sql`select channel, body from outbox where recipient = ${app.mobile_phone} order by id desc limit 1`)).rows[0]!;
    expect(sms.channel).toBe('Sms');
    expect(sms.body).toMatch(/Your passcode is \d{6}\./);
  });

  it(`locks the application for ${OTP.lockMinutes} minutes after ${OTP.maxWrong} wrong codes, even for the right one`, async () => {
    const app = anApp();
    const { challengeId } = JSON.parse((await send({ appId: app.id, channel: 'Email' })).body);
    const code = await codeSentTo(app.email);
    const wrongCode = code === '000000' ? '111111' : '000000';
    for (let i = 1; i < OTP.maxWrong; i++) {
      const wrong = await verify(challengeId, wrongCode);
      expect(wrong.statusCode).toBe(400);
      expect(JSON.parse(wrong.body).errors.code[0]).toContain(`${OTP.maxWrong - i} tr`);
    }
    const last = await verify(challengeId, wrongCode);
    expect(last.statusCode).toBe(429);
    expect(JSON.parse(last.body).detail).toContain(`${OTP.lockMinutes} minutes`);
    expect((await verify(challengeId, code)).statusCode).toBe(429);
    // A new code on another channel does not lift the lock.
    expect((await send({ appId: app.id, channel: 'Sms' })).statusCode).toBe(429);
    const events = await h.database.db.execute<{ n: number }>(sql`select count(*)::int as n from security_events where kind = 'otp-locked' and actor = ${`borrower:${app.id}`}`);
    expect(Number(events.rows[0]!.n)).toBe(1);

    // Once the lock is over, a fresh code works.
    await h.database.db.execute(sql`update otp_codes set locked_until = now() - interval '1 second', last_sent_at = now() - interval '1 hour' where app_id = ${app.id}`);
    const again = JSON.parse((await send({ appId: app.id, channel: 'Email' })).body);
    expect((await verify(again.challengeId, await codeSentTo(app.email))).statusCode).toBe(200);
  });

  it(`throttles resends to one per ${OTP.resendSeconds} seconds per channel`, async () => {
    const app = anApp();
    expect((await send({ appId: app.id, channel: 'Email' })).statusCode).toBe(200);
    const early = await send({ appId: app.id, channel: 'Email' });
    expect(early.statusCode).toBe(429);
    expect(JSON.parse(early.body).extensions.retryAfterSeconds).toBeGreaterThan(0);
    await h.database.db.execute(sql`update otp_codes set last_sent_at = now() - interval '61 seconds' where app_id = ${app.id}`);
    const first = await codeSentTo(app.email);
    const resent = await send({ appId: app.id, channel: 'Email' });
    expect(resent.statusCode).toBe(200);
    // The resend replaced the code.
    const second = await codeSentTo(app.email);
    if (second !== first) expect((await verify(JSON.parse(resent.body).challengeId, first)).statusCode).toBe(400);
  });

  it(`expires a code after ${OTP.codeMinutes} minutes`, async () => {
    const app = anApp();
    const { challengeId } = JSON.parse((await send({ appId: app.id, channel: 'Email' })).body);
    await h.database.db.execute(sql`update otp_codes set expires_at = now() - interval '1 second' where app_id = ${app.id}`);
    const late = await verify(challengeId, await codeSentTo(app.email));
    expect(late.statusCode).toBe(400);
    expect(JSON.parse(late.body).errors.code[0]).toContain('expired');
  });

  it(`limits passcodes per client address to ${OTP.sendsPerAddressPerHour} an hour`, async () => {
    const ip = freshIp();
    await h.database.db.execute(sql`
      insert into security_events (kind, actor, detail, ip)
      select 'otp-sent', 'borrower:0', '{}'::jsonb, ${ip} from generate_series(1, ${OTP.sendsPerAddressPerHour})`);
    const app = anApp();
    expect((await send({ appId: app.id, channel: 'Email' }, ip)).statusCode).toBe(429);
    expect((await send({ appId: app.id, channel: 'Email' })).statusCode).toBe(200);
  });

  it('answers an unknown application with 404, and the same shape for an office whether or not the contact has an application', async () => {
    expect((await send({ appId: 2_000_000_000, channel: 'Email' })).statusCode).toBe(404);
    const app = anApp();
    const known = await send({ officeId: DEMO.brightSmiles, channel: 'Email', email: app.email });
    const unknown = await send({ officeId: DEMO.brightSmiles, channel: 'Email', email: 'no-such-borrower@example.test' });
    expect([known.statusCode, unknown.statusCode]).toEqual([200, 200]);
    expect(Object.keys(JSON.parse(known.body)).sort()).toEqual(Object.keys(JSON.parse(unknown.body)).sort());
    expect((await verify(JSON.parse(unknown.body).challengeId, '123456')).statusCode).toBe(400);
    expect((await verify(JSON.parse(known.body).challengeId, await codeSentTo(app.email))).statusCode).toBe(200);
    // Without the API key, no passcode at all.
    expect((await h.call({ method: 'POST', url: '/api/Otp/SendOtp', payload: { appId: app.id, channel: 'Email' }, key: false })).statusCode).toBe(401);
  });
});
