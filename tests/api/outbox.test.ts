import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createServer as createTcpServer, type Server as TcpServer } from 'node:net';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { messageQueues } from '../../server/notify/delivery.ts';
import { createJobRunner } from '../../server/jobs/runner.ts';
import { sendEmail, sendSms } from '../../server/notify/outbox.ts';
import { httpSmsTransport, smtpTransport } from '../../server/notify/transports.ts';
import { harness, type Harness } from '../support/harness.ts';
import { freshEmail, freshPhone, journeyOffice, json, serverWith, type JourneyOffice } from './journey-fixtures.ts';

/** A minimal SMTP server (RFC 5321, no TLS): enough for nodemailer to deliver, recording each message. */
function smtpServer(received: { from: string; to: string[]; data: string }[]): TcpServer {
  return createTcpServer((socket) => {
    let buffer = '';
    let inData = false;
    let current = { from: '', to: [] as string[], data: '' };
    socket.write('220 test.smtp ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          current.data = buffer.slice(0, end);
          buffer = buffer.slice(end + 5);
          inData = false;
          received.push(current);
          current = { from: '', to: [], data: '' };
          socket.write('250 OK queued\r\n');
          continue;
        }
        const eol = buffer.indexOf('\r\n');
        if (eol < 0) return;
        const line = buffer.slice(0, eol);
        buffer = buffer.slice(eol + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') socket.write('250-test.smtp\r\n250 8BITMIME\r\n');
        else if (verb === 'MAIL') (current.from = line), socket.write('250 OK\r\n');
        else if (verb === 'RCPT') current.to.push(line), socket.write('250 OK\r\n');
        else if (verb === 'DATA') (inData = true), socket.write('354 go ahead\r\n');
        else if (verb === 'QUIT') socket.end('221 bye\r\n');
        else socket.write('250 OK\r\n');
      }
    });
  });
}

const listen = (server: TcpServer | HttpServer) =>
  new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)));

describe('the outbox, its delivery, and text opt-outs', () => {
  let h: Harness;
  let office: JourneyOffice;
  const closers: (() => Promise<unknown>)[] = [];
  const SECRET = 'sms-webhook-secret-for-tests';
  let webhookServer: FastifyInstance;

  beforeAll(async () => {
    h = await harness();
    office = await journeyOffice(h);
    webhookServer = await serverWith(h, { notify: { ...h.settings.notify, smsWebhookSecret: SECRET } });
    closers.push(() => webhookServer.close());
  });
  afterAll(async () => {
    for (const close of closers) await close();
  });

  const reply = (from: string, text: string, secret: string | null = SECRET) =>
    webhookServer.inject({ method: 'POST', url: '/api/Notify/ReceiveSms', payload: { from, text }, headers: secret ? { 'x-sms-webhook-secret': secret } : {} });
  const sendLink = (body: Record<string, unknown>) =>
    h.call({ method: 'POST', url: '/api/App/SendApp', payload: { officeId: office.officeId, firstName: 'Omar', lastName: 'Optout', amount: 900, ...body }, as: office.admin });
  const smsTo = async (phone: string) => (await h.database.db.execute<{ n: number }>(sql`select count(*)::int as n from outbox where channel = 'Sms' and recipient = ${phone}`)).rows[0]!.n;

  it('opts a number out on STOP (and the other keywords) from the gateway webhook, which needs its shared secret', async () => {
    const phone = freshPhone();
    expect((await reply(phone, 'STOP', null)).statusCode).toBe(401);
    expect((await reply(phone, 'STOP', 'not-the-secret-at-all')).statusCode).toBe(401);
    // The shared server has no secret configured (or another one, given by the contract examples): refused.
    expect((await h.call({ method: 'POST', url: '/api/Notify/ReceiveSms', payload: { from: phone, text: 'STOP' }, headers: { 'x-sms-webhook-secret': SECRET } })).statusCode).toBe(401);

    const e164 = `+1${phone.replace(/\D/g, '')}`;
    const stop = await reply(e164, ' Stop. ');
    expect(stop.statusCode, stop.body).toBe(200);
    expect(json(stop)).toEqual({ success: true, outcome: 'opted-out' });

    // Only a text: refused, nothing created. A text and an e-mail: the e-mail only, and the answer says so.
    const only = await sendLink({ mobilePhone: phone });
    expect(only.statusCode).toBe(409);
    expect(json<{ detail: string }>(only).detail).toContain('opted out');
    const both = await sendLink({ mobilePhone: phone, email: freshEmail('omar') });
    expect(both.statusCode, both.body).toBe(200);
    expect(json(both)).toMatchObject({ success: true, channels: ['Email'], smsOptedOut: true });
    expect(json<{ message: string }>(both).message).toContain('opted out');
    expect(await smsTo(phone)).toBe(0);

    // A passcode by text is refused as well.
    const appId = json<{ appId: number }>(both).appId;
    await h.database.db.execute(sql`update applications set mobile_phone = ${phone} where id = ${appId}`);
    expect((await h.call({ method: 'POST', url: '/api/Otp/SendOtp', payload: { appId, channel: 'Sms' }, as: office.admin, remoteAddress: '192.0.2.201' })).statusCode).toBe(409);
    expect(await smsTo(phone)).toBe(0);

    // START opts back in.
    expect(json(await reply(phone, 'start'))).toEqual({ success: true, outcome: 'opted-in' });
    expect(json(await sendLink({ mobilePhone: phone }))).toMatchObject({ channels: ['Sms'], smsOptedOut: false });
    expect(await smsTo(phone)).toBe(1);

    // The English keywords, and the Spanish language file's own (screens/languages/es.json), accents or not.
    for (const keyword of ['QUIT', 'END', 'REVOKE', 'OPT OUT', 'CANCEL', 'UNSUBSCRIBE', 'Alto', 'PARAR', 'cancelar']) {
      const other = freshPhone();
      expect(json(await reply(other, keyword)), keyword).toEqual({ success: true, outcome: 'opted-out' });
    }
    expect(json(await reply(freshPhone(), 'Stop sending me this please'))).toEqual({ success: true, outcome: 'ignored' });
  });

  it('shows every message on /dev/outbox and as JSON on /api/dev/outbox in demo mode, and simulates a reply from the page', async () => {
    const email = freshEmail('page');
    const phone = freshPhone();
    const sent = json<{ appId: number }>(await sendLink({ email, mobilePhone: phone }));
    const page = await h.call({ method: 'GET', url: '/dev/outbox', key: false });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    expect(page.body).toContain(email);
    expect(page.body).toContain(phone);
    expect(page.body).toMatch(new RegExp(`<a href="${h.settings.publicUrl.replace(/[.]/g, '\\.')}/#/app/auth/${sent.appId}\\?t=[A-Za-z0-9_-]{43}">Start my application</a>`));
    expect(page.body).toContain('<form method="post" action="/dev/outbox/sms">');

    const api = await h.call({ method: 'GET', url: `/api/dev/outbox?to=${encodeURIComponent(phone)}`, key: false });
    expect(api.statusCode, api.body).toBe(200);
    const { messages } = json<{ messages: { channel: string; recipient: string; body: string; links: { url: string }[]; createdAtUtc: string }[] }>(api);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ channel: 'Sms', recipient: phone });
    expect(messages[0]!.links[0]!.url).toContain(`/#/app/auth/${sent.appId}?t=`);

    const form = await h.call({ method: 'POST', url: '/dev/outbox/sms', key: false, payload: `from=${encodeURIComponent(phone)}&text=STOP`, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(form.statusCode).toBe(200);
    expect(form.body).toContain('opted out');
    const optOuts = json<{ optOuts: { phone: string }[] }>(await h.call({ method: 'GET', url: '/api/dev/outbox?limit=1', key: false })).optOuts;
    expect(optOuts.map((o) => o.phone)).toContain(phone.replace(/\D/g, ''));
    expect(json(await sendLink({ mobilePhone: phone, email: freshEmail() }))).toMatchObject({ smsOptedOut: true, channels: ['Email'] });
  });

  it('answers only this machine or a platform admin: not a visitor from elsewhere, whatever forwarding headers it sends', async () => {
    const elsewhere = '203.0.113.50';
    const form = { payload: `from=${encodeURIComponent(freshPhone())}&text=STOP`, headers: { 'content-type': 'application/x-www-form-urlencoded' } };
    const refused = [
      await h.call({ method: 'GET', url: '/api/dev/outbox?limit=1', key: false, remoteAddress: elsewhere }),
      await h.call({ method: 'GET', url: '/dev/outbox', key: false, remoteAddress: elsewhere }),
      await h.call({ method: 'POST', url: '/dev/outbox/sms', key: false, remoteAddress: elsewhere, ...form }),
      // A spoofed forwarding header does not make a remote visitor local…
      await h.call({ method: 'GET', url: '/api/dev/outbox?limit=1', key: false, remoteAddress: elsewhere, headers: { 'x-forwarded-for': '127.0.0.1' } }),
      // …and behind a proxy on this machine, the client the proxy names is the one that counts.
      await h.call({ method: 'GET', url: '/dev/outbox', key: false, headers: { 'x-forwarded-for': `127.0.0.1, ${elsewhere}` } }),
      await h.call({ method: 'GET', url: '/api/dev/outbox?limit=1', key: false, headers: { forwarded: `for="${elsewhere}";proto=https` } }),
      // A signed-in user who is not a platform admin.
      await h.call({ method: 'GET', url: '/api/dev/outbox?limit=1', as: 'dfi@demo.test', remoteAddress: elsewhere }),
    ];
    for (const response of refused) {
      expect(response.statusCode, response.body).toBe(403);
      expect(response.headers['content-type']).toContain('application/problem+json');
      expect(response.body).not.toMatch(/passcode is|#\/app\/auth/);
    }
    expect((await h.call({ method: 'GET', url: '/api/dev/outbox?limit=1', as: 'admin@demo.test', remoteAddress: elsewhere })).statusCode).toBe(200);
    expect((await h.call({ method: 'GET', url: '/api/dev/outbox?limit=1', key: false, remoteAddress: '::1', headers: { 'x-forwarded-for': '127.0.0.1' } })).statusCode).toBe(200);
  });

  it('does not exist in production mode', async () => {
    const production = await serverWith(h, { mode: 'production' });
    closers.push(() => production.close());
    expect((await production.inject({ method: 'GET', url: '/dev/outbox' })).statusCode).toBe(404);
    expect((await production.inject({ method: 'POST', url: '/dev/outbox/sms', payload: 'from=1&text=STOP', headers: { 'content-type': 'application/x-www-form-urlencoded' } })).statusCode).toBe(404);
    expect((await production.inject({ method: 'GET', url: '/api/dev/outbox' })).statusCode).toBe(404);
  });

  it('delivers e-mail by SMTP and texts by the HTTP gateway when configured, and retries a failed delivery', async () => {
    const mails: { from: string; to: string[]; data: string }[] = [];
    const smtp = smtpServer(mails);
    const smtpPort = await listen(smtp);
    closers.push(() => new Promise((resolve) => smtp.close(resolve)));
    const texts: { auth: string | undefined; body: { to: string; text: string; from?: string } }[] = [];
    const phone = freshPhone();
    const e164 = `+1${phone.replace(/\D/g, '')}`;
    let failOurs = true;
    const gateway = createHttpServer((request, response) => {
      let data = '';
      request.on('data', (c) => (data += c));
      request.on('end', () => {
        if (failOurs && (JSON.parse(data) as { to: string }).to === e164) {
          failOurs = false;
          response.writeHead(503).end();
          return;
        }
        texts.push({ auth: request.headers.authorization, body: JSON.parse(data) });
        response.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"m1"}');
      });
    });
    const gatewayPort = await listen(gateway);
    closers.push(() => new Promise((resolve) => gateway.close(resolve)));

    const email = freshEmail('smtp');
    await h.database.db.transaction(async (tx) => {
      await sendEmail(tx, { to: email, subject: 'Hello', text: 'Body of the e-mail' });
      await sendSms(tx, { to: phone, text: 'Body of the text' });
    });
    const transports = {
      Email: smtpTransport({ url: `smtp://127.0.0.1:${smtpPort}`, from: 'Portal <no-reply@portal.test>' }),
      Sms: httpSmsTransport({ url: `http://127.0.0.1:${gatewayPort}/messages`, token: 'gw-token', from: '+15125550000' }),
    };
    // Each message is its own job, run here by its id with these transports.
    const runner = createJobRunner(h.database.db, messageQueues(h.database.db, transports), { error: () => {}, warn: () => {} });
    const deliver = async (recipient: string) => {
      const job = await h.database.db.execute<{ id: number }>(sql`select j.id from jobs j join outbox o on j.key = o.id::text where j.queue = 'message' and o.recipient = ${recipient}`);
      return runner.runNow(Number(job.rows[0]!.id));
    };
    expect(await deliver(email)).toEqual({ done: { outcome: 'sent' } });
    expect(await deliver(phone)).toMatchObject({ later: { reason: 'the SMS gateway answered 503' } });
    const status = async (recipient: string) => (await h.database.db.execute<{ status: string; attempts: number; last_error: string | null }>(sql`select status, attempts, last_error from outbox where recipient = ${recipient}`)).rows[0]!;
    expect(await status(email)).toMatchObject({ status: 'Sent', attempts: 1 });
    expect(mails.some((m) => m.to.some((to) => to.includes(email)) && m.data.includes('Body of the e-mail') && m.data.includes('Subject: Hello'))).toBe(true);
    expect(await status(phone)).toMatchObject({ status: 'Pending', attempts: 1, last_error: 'the SMS gateway answered 503' });

    // Tried again after its back-off (here at once, by its id): delivered.
    expect(await deliver(phone)).toEqual({ done: { outcome: 'sent' } });
    expect(await status(phone)).toMatchObject({ status: 'Sent', attempts: 2 });
    expect(texts.find((t) => t.body.to === e164)).toMatchObject({ auth: 'Bearer gw-token', body: { text: 'Body of the text', from: '+15125550000' } });
  });
});
