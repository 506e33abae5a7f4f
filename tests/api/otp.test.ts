import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { linkTokens } from '../../server/db/schema.ts';
import { OTP } from '../../server/domain/otp/handlers.ts';
import { newToken, tokenHash } from '../../server/identity/secrets.ts';
import { freshAddress, freshNetwork } from '../support/addresses.ts';
import { harness, type Harness } from '../support/harness.ts';
import { DEMO } from './examples.ts';

/** Borrower sign-in by one-time passcode (Otp_SendOtp / Otp_VerifyOtp; decisions 0067 and 0173). */
describe('borrower passcodes', () => {
  let h: Harness;
  /** Applications of Bright Smiles with an e-mail, a mobile phone and a link the office sent, none used by other test files. */
  let apps: { id: number; email: string; mobile_phone: string; link: string }[];
  let next = 0;

  /**
   * What a passcode sent for the application leaves: its challenges, and messages to its e-mail (unique to this file).
   * Not the whole outbox: the server's own sweeps may write other messages meanwhile.
   */
  const passcodeTrail = async (app: (typeof apps)[number]) =>
    (await h.database.db.execute<{ challenges: number; mails: number }>(sql`select
      (select count(*)::int from otp_challenges where app_id = ${app.id}) as challenges,
      (select count(*)::int from outbox where recipient = ${app.email}) as mails`)).rows[0];
  const send = (body: object, ip = freshAddress(), as?: string) => h.call({ method: 'POST', url: '/api/Otp/SendOtp', payload: body, remoteAddress: ip, as });
  /** A passcode asked for with the application's link, as the borrower's sign-in page does after the link was used. */
  const sendFor = (app: (typeof apps)[number], channel: 'Email' | 'Sms', ip = freshAddress()) => send({ appId: app.id, linkToken: app.link, channel }, ip);
  const verify = (challengeId: string, code: string, ip = freshAddress()) => h.call({ method: 'POST', url: '/api/Otp/VerifyOtp', payload: { challengeId, code }, remoteAddress: ip });
  const codeSentTo = async (recipient: string) => {
    const row = (await h.database.db.execute<{ body: string }>(sql`select body from outbox where recipient = ${recipient} order by id desc limit 1`)).rows[0];
    return /\b(\d{6})\b/.exec(row!.body)![1]!;
  };
  const anApp = () => apps[next++]!;
  const errorOf = (response: { body: string }) => (JSON.parse(response.body) as { errors: { code: string[] } }).errors.code[0];

  beforeAll(async () => {
    h = await harness();
    const rows = await h.database.db.execute<{ id: number; email: string; mobile_phone: string }>(sql`
      select id, email, mobile_phone from applications
      where office_id = ${DEMO.brightSmiles} and email is not null and mobile_phone is not null
        -- not the applications other files use (the first one, the contract examples' first OfferSelected one)
        and id <> (select min(id) from applications where office_id = ${DEMO.brightSmiles})
        and id <> (select min(id) from applications where office_id = ${DEMO.brightSmiles} and stage = 'OfferSelected')
      order by id desc limit 12`);
    apps = rows.rows.map((row) => ({ ...row, id: Number(row.id), link: newToken() }));
    for (const app of apps) {
      // Unique e-mails, so that the outbox answers for these applications only; a spent link each, as the office sent.
      app.email = `otp-${app.id}@example.test`;
      await h.database.db.execute(sql`update applications set email = ${app.email} where id = ${app.id}`);
      await h.database.db.insert(linkTokens).values({ tokenHash: tokenHash(app.link), appId: app.id, expiresAt: new Date(Date.now() - 1000), usedAt: new Date() });
    }
  });

  it('sends a six-digit code by e-mail through the outbox, stores it only as a hash, and exchanges it for a borrower token of that application', async () => {
    const app = anApp();
    const sent = await sendFor(app, 'Email');
    expect(sent.statusCode, sent.body).toBe(200);
    const answer = JSON.parse(sent.body);
    expect(answer).toMatchObject({ channel: 'Email', destination: `o***@example.test`, resendAfterSeconds: OTP.resendSeconds });
    expect(Date.parse(answer.expiresAtUtc) - Date.now()).toBeGreaterThan((OTP.codeMinutes - 1) * 60_000);
    const code = await codeSentTo(app.email);
    const stored = (await h.database.db.execute<{ code_hash: string }>(sql`select code_hash from otp_challenges where app_id = ${app.id}`)).rows;
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
    const sent = await sendFor(app, 'Sms');
    expect(sent.statusCode, sent.body).toBe(200);
    expect(JSON.parse(sent.body).destination).toBe(`(***) ***-${app.mobile_phone.slice(-4)}`);
    const sms = (await h.database.db.execute<{ channel: string; body: string }>(sql`select channel, body from outbox where recipient = ${app.mobile_phone} order by id desc limit 1`)).rows[0]!;
    expect(sms.channel).toBe('Sms');
    expect(sms.body).toMatch(/Your passcode is \d{6}\./);
  });

  it('texts nobody for a caller with only the public key and an application id: no link, another application\'s link, another office', async () => {
    const app = anApp();
    const before = await passcodeTrail(app);
    const unknown = await send({ appId: 2_000_000_000, channel: 'Sms' });
    for (const refused of [
      await send({ appId: app.id, channel: 'Sms' }),
      await send({ appId: app.id, linkToken: apps.at(-1)!.link, channel: 'Sms' }),
      await send({ appId: app.id, linkToken: newToken(), channel: 'Email' }),
      await send({ appId: app.id, channel: 'Sms' }, freshAddress(), 'tpa@demo.test'),
    ]) {
      expect(refused.statusCode, refused.body).toBe(404);
      // The same answer as for an application that does not exist: the id tells nothing.
      expect(JSON.parse(refused.body).detail).toBe(JSON.parse(unknown.body).detail);
    }
    expect(await passcodeTrail(app)).toEqual(before);
    // The office at its desk ('On this device') and the application's own borrower may.
    expect((await send({ appId: app.id, channel: 'Sms' }, freshAddress(), 'office.support@demo.test')).statusCode).toBe(200);
    const borrower = await h.call({ method: 'POST', url: '/api/Otp/SendOtp', payload: { appId: app.id, channel: 'Email' }, borrowerOf: app.id, remoteAddress: freshAddress() });
    expect(borrower.statusCode, borrower.body).toBe(200);
  });

  it(`sends at most ${OTP.sendsPerAddressPerHour} passcodes an hour to one address's requests, an IPv6 one counted by its /64`, async () => {
    const host = freshNetwork();
    const ask = (i: number) => send({ officeId: DEMO.brightSmiles, channel: 'Sms', mobilePhone: `(555) 011-${String(i).padStart(4, '0')}` }, host(i + 1));
    for (let i = 0; i < OTP.sendsPerAddressPerHour; i++) expect((await ask(i)).statusCode).toBe(200);
    const over = await ask(OTP.sendsPerAddressPerHour);
    expect(over.statusCode).toBe(429);
    expect(JSON.parse(over.body).detail).toBe('Too many passcodes were requested from this address. Try again later.');
  });

  it(`locks a challenge after ${OTP.maxWrong} wrong codes, even for the right one, and never the borrower's own`, async () => {
    const app = anApp();
    // The borrower asks by e-mail; someone else holding the link asks by text and guesses.
    const own = JSON.parse((await sendFor(app, 'Email')).body) as { challengeId: string };
    const ownCode = await codeSentTo(app.email);
    const guessed = JSON.parse((await sendFor(app, 'Sms')).body) as { challengeId: string };
    const code = await codeSentTo(app.mobile_phone);
    const wrongCode = code === '000000' ? '111111' : '000000';
    for (let i = 1; i < OTP.maxWrong; i++) {
      const wrong = await verify(guessed.challengeId, wrongCode);
      expect(wrong.statusCode).toBe(400);
      expect(errorOf(wrong)).toContain(`${OTP.maxWrong - i} tr`);
    }
    const last = await verify(guessed.challengeId, wrongCode);
    expect(errorOf(last)).toBe('Too many wrong passcodes. Ask for a new one.');
    expect(errorOf(await verify(guessed.challengeId, code))).toBe('Too many wrong passcodes. Ask for a new one.');
    const events = await h.database.db.execute<{ n: number }>(sql`select count(*)::int as n from security_events where kind = 'otp-locked' and actor = ${`borrower:${app.id}`}`);
    expect(Number(events.rows[0]!.n)).toBe(1);
    // The guesses locked the guesser's challenge: the borrower signs in with theirs.
    expect((await verify(own.challengeId, ownCode)).statusCode).toBe(200);
  });

  it(`throttles resends to one per ${OTP.resendSeconds} seconds per channel`, async () => {
    const app = anApp();
    expect((await sendFor(app, 'Email')).statusCode).toBe(200);
    const early = await sendFor(app, 'Email');
    expect(early.statusCode).toBe(429);
    expect(JSON.parse(early.body).extensions.retryAfterSeconds).toBeGreaterThan(0);
    await h.database.db.execute(sql`update otp_challenges set created_at = now() - interval '61 seconds' where app_id = ${app.id}`);
    const first = await codeSentTo(app.email);
    const resent = await sendFor(app, 'Email');
    expect(resent.statusCode).toBe(200);
    // A code belongs to its own challenge.
    const second = await codeSentTo(app.email);
    if (second !== first) expect((await verify(JSON.parse(resent.body).challengeId, first)).statusCode).toBe(400);
  });

  it(`expires a code after ${OTP.codeMinutes} minutes`, async () => {
    const app = anApp();
    const { challengeId } = JSON.parse((await sendFor(app, 'Email')).body);
    await h.database.db.execute(sql`update otp_challenges set expires_at = now() - interval '1 second' where app_id = ${app.id}`);
    const late = await verify(challengeId, await codeSentTo(app.email));
    expect(late.statusCode).toBe(400);
    expect(errorOf(late)).toContain('expired');
  });

  it(`limits passcodes per client address to ${OTP.sendsPerAddressPerHour} an hour`, async () => {
    const ip = freshAddress();
    await h.database.db.execute(sql`
      insert into security_events (kind, actor, detail, ip)
      select 'otp-sent', 'borrower:0', '{}'::jsonb, ${ip} from generate_series(1, ${OTP.sendsPerAddressPerHour})`);
    const app = anApp();
    expect((await sendFor(app, 'Email', ip)).statusCode).toBe(429);
    expect((await sendFor(app, 'Email')).statusCode).toBe(200);
  });

  it('answers an office whether or not the contact has an application in the same way, down to the wrong-code message', async () => {
    const app = anApp();
    const known = await send({ officeId: DEMO.brightSmiles, channel: 'Email', email: app.email });
    const unknown = await send({ officeId: DEMO.brightSmiles, channel: 'Email', email: 'no-such-borrower@example.test' });
    expect([known.statusCode, unknown.statusCode]).toEqual([200, 200]);
    expect(Object.keys(JSON.parse(known.body)).sort()).toEqual(Object.keys(JSON.parse(unknown.body)).sort());
    const code = await codeSentTo(app.email);
    const wrongCode = code === '000000' ? '111111' : '000000';
    expect(errorOf(await verify(JSON.parse(unknown.body).challengeId, wrongCode))).toBe(errorOf(await verify(JSON.parse(known.body).challengeId, wrongCode)));
    expect((await verify(JSON.parse(known.body).challengeId, code)).statusCode).toBe(200);
    // Without the API key, no passcode at all.
    expect((await h.call({ method: 'POST', url: '/api/Otp/SendOtp', payload: { appId: app.id, linkToken: app.link, channel: 'Email' }, key: false })).statusCode).toBe(401);
  });
});
