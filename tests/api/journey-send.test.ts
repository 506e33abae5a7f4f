import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createHash } from 'node:crypto';
import { harness, type Harness } from '../support/harness.ts';
import { freshEmail, freshPhone, journeyOffice, json, outboxTo as outboxOf, prequalForm, type JourneyOffice } from './journey-fixtures.ts';

/** Sending an application link, the link token, the personal e-mail rule (issue 5, item 1). */
describe('sending an application link', () => {
  let h: Harness;
  let office: JourneyOffice;
  const send = (body: Record<string, unknown>, as = office.admin, headers: Record<string, string> = {}) =>
    h.call({ method: 'POST', url: '/api/App/SendApp', payload: { officeId: office.officeId, firstName: 'Lena', lastName: "O'Neil", amount: 3200, ...body }, as, headers });
  const outboxTo = (recipient: string) => outboxOf(h, recipient);
  const tokenOf = (url: string) => new URL(url.replace('/#/', '/')).searchParams.get('t')!;

  beforeAll(async () => {
    h = await harness();
    office = await journeyOffice(h);
  });

  it('shows a texted application as waiting for the borrower, with nothing to resubmit, until the borrower fills it in (issue 37)', async () => {
    const sent = json<{ appId: number }>(await send({ mobilePhone: freshPhone(), serviceDate: null, enableRemoteSign: false }));
    const detail = json<Record<string, unknown>>(await h.call({ method: 'GET', url: `/api/App/GetApp/${sent.appId}/false`, as: office.admin }));
    expect(detail).toMatchObject({ stage: 'NotApplicable', statusChip: 'AwaitingBorrower', showResubmitButton: false, showSubmitToLendersButton: false });
  });

  it("takes names as people write them ('Lucía Peña', 'O’Brien') and keeps them as typed (issue 37)", async () => {
    const response = await send({ firstName: 'Lucía', lastName: 'Peña O’Brien', email: freshEmail('lucia'), serviceDate: null, enableRemoteSign: false });
    expect(response.statusCode, response.body).toBe(200);
    const info = await h.call({ method: 'GET', url: `/api/App/GetSendAppInfo/${json<{ appId: number }>(response).appId}`, as: office.support });
    expect(json(info)).toMatchObject({ firstName: 'Lucía', lastName: 'Peña O’Brien' });
    const refused = await send({ firstName: 'R2D2', email: freshEmail('robot'), serviceDate: null, enableRemoteSign: false });
    expect(json(refused)).toMatchObject({ errors: { firstName: ['Names can only contain alphabets, spaces, hyphens and apostrophes.'] } });
  });

  it('texts and e-mails a link that opens the borrower sign-in of the new application, and logs the send', async () => {
    const email = freshEmail('lena');
    const phone = freshPhone();
    const response = await send({ email, mobilePhone: phone, serviceDate: null, enableRemoteSign: true });
    expect(response.statusCode, response.body).toBe(200);
    const result = json<{ success: boolean; appId: number; channels: string[]; smsOptedOut: boolean; message: string | null; qrCode: string }>(response);
    expect(result).toMatchObject({ success: true, channels: ['Email', 'Sms'], smsOptedOut: false, message: null });
    expect(result.qrCode).toMatch(/^data:image\/png;base64,/);

    const [mail] = await outboxTo(email);
    const [text] = await outboxTo(phone);
    expect(mail!.channel).toBe('Email');
    expect(text!.channel).toBe('Sms');
    expect(text!.body).toContain('Reply STOP to opt out');
    const link = mail!.links[0]!.url;
    expect(link).toMatch(new RegExp(`^${h.settings.publicUrl}/#/app/auth/${result.appId}\\?t=[A-Za-z0-9_-]{43}$`));
    expect(mail!.body).toContain(link);

    // Stored hashed only: the token itself is nowhere in the database.
    const token = tokenOf(link);
    const stored = (await h.database.db.execute<{ token_hash: string; expires_at: string }>(sql`select token_hash, expires_at from link_tokens where app_id = ${result.appId}`)).rows;
    expect(stored.map((r) => r.token_hash)).toContain(createHash('sha256').update(token).digest('hex'));
    expect(stored.some((r) => r.token_hash.includes(token))).toBe(false);
    const lifetime = new Date(stored[0]!.expires_at).getTime() - Date.now();
    expect(lifetime).toBeGreaterThan((h.settings.linkTokenTtlHours - 1) * 3_600_000);
    expect(lifetime).toBeLessThanOrEqual(h.settings.linkTokenTtlHours * 3_600_000);

    const info = await h.call({ method: 'GET', url: `/api/App/GetSendAppInfo/${result.appId}`, as: office.support });
    expect(json(info)).toMatchObject({ appId: result.appId, firstName: 'Lena', lastName: "O'Neil", email, mobilePhone: phone, amount: 3200, enableRemoteSign: true, channels: ['Email', 'Sms'] });

    const logs = await h.call({ method: 'PUT', url: '/api/App/GetSendAppLogs', payload: { officeId: office.officeId, search: "lena o'n" }, as: office.tpa });
    expect(logs.statusCode, logs.body).toBe(200);
    const page = json<{ rowCount: number; results: { appId: number; channels: string[]; sentBy: string; amount: number }[] }>(logs);
    expect(page.results.find((r) => r.appId === result.appId)).toMatchObject({ channels: ['Email', 'Sms'], sentBy: 'Avery Admin', amount: 3200 });
    // The same 'Applicant Name or ID' search as the application lists: the last name alone, the id, never a middle.
    const found = async (search: string) =>
      json<{ results: { appId: number }[] }>(await h.call({ method: 'PUT', url: '/api/App/GetSendAppLogs', payload: { officeId: office.officeId, search }, as: office.tpa }))
        .results.some((r) => r.appId === result.appId);
    expect(await found("O'NE")).toBe(true);
    expect(await found(String(result.appId))).toBe(true);
    expect(await found('ena')).toBe(false);
    expect(await found("o'n%")).toBe(false);

    // The office sees the new application, waiting for the borrower.
    const app = json<{ stage: string; statusText: string; inOfficeApply: boolean }>(await h.call({ method: 'GET', url: `/api/App/GetApp/${result.appId}/false`, as: office.admin }));
    expect(app).toMatchObject({ stage: 'NotApplicable', inOfficeApply: false, statusText: 'Application link sent: waiting for the borrower' });
  });

  it('exchanges a link token once for a borrower session that goes to the pre-qualification form', async () => {
    const email = freshEmail('once');
    const { appId } = json<{ appId: number }>(await send({ email }));
    const token = tokenOf((await outboxTo(email))[0]!.links[0]!.url);
    const exchange = (t: string, id = appId) => h.call({ method: 'POST', url: '/api/Otp/ExchangeLinkToken', payload: { appId: id, token: t } });

    const wrongApp = await exchange(token, appId - 1);
    expect(wrongApp.statusCode).toBe(401);
    const first = await exchange(token);
    expect(first.statusCode, first.body).toBe(200);
    const session = json<{ token: string; appId: number }>(first);
    expect(session.appId).toBe(appId);
    const second = await exchange(token);
    expect(second.statusCode).toBe(401);
    expect(json<{ detail: string }>(second).detail).toContain('Ask for a passcode');

    const app = await h.call({ method: 'GET', url: `/api/App/GetApp/${appId}/false`, headers: { 'x-borrower-token': session.token } });
    expect(app.statusCode, app.body).toBe(200);
    expect(json<{ nextRoute: string }>(app).nextRoute).toBe(`/app/prequal/${appId}`);
  });

  it('refuses an expired link', async () => {
    const email = freshEmail('late');
    const { appId } = json<{ appId: number }>(await send({ email }));
    const token = tokenOf((await outboxTo(email))[0]!.links[0]!.url);
    await h.database.db.execute(sql`update link_tokens set expires_at = now() - interval '1 minute' where app_id = ${appId}`);
    const response = await h.call({ method: 'POST', url: '/api/Otp/ExchangeLinkToken', payload: { appId, token } });
    expect(response.statusCode).toBe(401);
  });

  it('answers a repeat with the same Idempotency-Key with the first answer, and sends nothing twice', async () => {
    const email = freshEmail('idem');
    const headers = { 'idempotency-key': `send-${email}` };
    const first = await send({ email }, office.admin, headers);
    const again = await send({ email }, office.admin, headers);
    expect(first.statusCode).toBe(200);
    expect(again.statusCode).toBe(200);
    expect(json(again)).toEqual(json(first));
    expect(await outboxTo(email)).toHaveLength(1);
    const apps = await h.database.db.execute<{ n: number }>(sql`select count(*)::int as n from applications where email = ${email}`);
    expect(apps.rows[0]!.n).toBe(1);
  });

  it('sends the link again: the older unopened one stops working, the new one opens; at most once a minute', async () => {
    const email = freshEmail('again');
    const phone = freshPhone();
    const { appId } = json<{ appId: number }>(await send({ email, mobilePhone: phone }));
    const before = json<{ showResendLinkButton: boolean; linkExpiresAtUtc: string; statusSinceUtc: string }>(await h.call({ method: 'GET', url: `/api/App/GetApp/${appId}/false`, as: office.support }));
    expect(before.showResendLinkButton).toBe(true);
    // The link lives 72 hours (LINK_TOKEN_TTL_HOURS): the page says until when.
    expect(Date.parse(before.linkExpiresAtUtc) - Date.now()).toBeGreaterThan(71 * 3_600_000);
    const old = tokenOf((await outboxTo(email))[0]!.links[0]!.url);
    const resend = () => h.call({ method: 'PUT', url: '/api/App/ResendLink', payload: { appId }, as: office.support });

    const tooSoon = await resend();
    expect(tooSoon.statusCode).toBe(409);
    expect(json<{ detail: string }>(tooSoon).detail).toBe('A link was sent less than a minute ago. Give the borrower a moment to receive it.');
    await h.database.db.execute(sql`update link_tokens set created_at = created_at - interval '2 minutes' where app_id = ${appId}`);
    const again = await resend();
    expect(again.statusCode, again.body).toBe(200);
    expect(json(again)).toMatchObject({ appId, channels: ['Email', 'Sms'], linkExpiresAtUtc: expect.any(String) });
    expect((await outboxTo(email)).length).toBe(2);
    expect((await outboxTo(phone)).length).toBe(2);
    const exchange = (t: string) => h.call({ method: 'POST', url: '/api/Otp/ExchangeLinkToken', payload: { appId, token: t } });
    expect((await exchange(old)).statusCode).toBe(401);
    expect((await exchange(tokenOf((await outboxTo(email))[1]!.links[0]!.url))).statusCode).toBe(200);
    // The borrower is on the form now, since this moment; the office's software heard the second sending.
    const after = json<{ statusText: string; statusSinceUtc: string }>(await h.call({ method: 'GET', url: `/api/App/GetApp/${appId}/false`, as: office.support }));
    expect(after.statusText).toBe('Borrower opened the link: filling in the application');
    expect(Date.parse(after.statusSinceUtc)).toBeGreaterThan(Date.parse(before.statusSinceUtc));
    const events = await h.database.db.execute<{ type: string; data: Record<string, unknown> }>(sql`select type, data from events where app_id = ${appId} order by id`);
    expect(events.rows.map((e) => e.type)).toEqual(['application.created', 'application.link_sent', 'application.link_sent', 'application.link_opened']);
    expect(events.rows[2]!.data).toMatchObject({ resent: true });
    const [line] = (await h.database.db.execute<{ message: string; actor: string }>(sql`select message, actor from app_logs where app_id = ${appId} and message like '%again%'`)).rows;
    expect(line).toEqual({ message: 'Application link sent again by e-mail and text', actor: office.support });
  });

  it('sends no link again for an application filled in at the desk, nor to a borrower who signed', async () => {
    const desk = json<{ id: number }>(await h.call({ method: 'POST', url: '/api/App/SubmitApp', payload: prequalForm(office.officeId), as: office.admin })).id;
    const refused = await h.call({ method: 'PUT', url: '/api/App/ResendLink', payload: { appId: desk }, as: office.admin });
    expect(refused.statusCode).toBe(409);
    expect(json<{ detail: string }>(refused).detail).toBe('This application was not sent by link, or its loan documents are already signed: there is no link to send again.');
    expect(json<{ showResendLinkButton: boolean; linkExpiresAtUtc: null }>(await h.call({ method: 'GET', url: `/api/App/GetApp/${desk}/false`, as: office.admin }))).toMatchObject({ showResendLinkButton: false, linkExpiresAtUtc: null });
    const { appId } = json<{ appId: number }>(await send({ email: freshEmail('signed') }));
    await h.database.db.execute(sql`update applications set stage = 'ReadyToFinalize' where id = ${appId}`);
    expect((await h.call({ method: 'PUT', url: '/api/App/ResendLink', payload: { appId }, as: office.admin })).statusCode).toBe(409);
  });

  it("checks that an e-mail is the borrower's own: not a role mailbox, not staff, not the office's domain", async () => {
    const check = (email: string) => h.call({ method: 'PUT', url: '/api/App/CheckBorrowerEmail', payload: { officeId: office.officeId, email }, as: office.admin });
    const domain = new URL(office.website).hostname.replace(/^www\./, '');
    const cases: [string, boolean][] = [
      [freshEmail('patient'), true],
      ['jordan.lee@icloud.com', true],
      [`someone@${domain}`, false], // the office's website domain
      [`someone@mail.${domain}`, false],
      ['info@gmail.com', false], // a role mailbox
      ['Front.Desk@outlook.com', false],
      ['billing+patients@yahoo.com', false],
      [office.support, false], // a staff user (even on gmail.com)
      ['office.admin@demo.test', false], // any staff user of the platform
      [`${office.support.split('@')[0]}x@gmail.com`, true], // gmail.com is not the office's domain because a staff member uses it
    ];
    for (const [email, acceptable] of cases) {
      const response = await check(email);
      expect(response.statusCode, `${email}: ${response.body}`).toBe(200);
      expect(json<{ isAcceptable: boolean }>(response).isAcceptable, email).toBe(acceptable);
    }
  });

  it("refuses to send to an e-mail that is not the borrower's personal one", async () => {
    const response = await send({ email: 'frontdesk@gmail.com' });
    expect(response.statusCode).toBe(400);
    expect(json<{ errors: Record<string, string[]> }>(response).errors.email).toEqual(["The email address must be the borrower's personal email address."]);
  });

  it('applies the send form rules of spec §5', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ email: undefined, mobilePhone: undefined }, '$', 'Please enter an email or phone.'],
      [{ email: freshEmail(), firstName: 'L3na' }, 'firstName', 'Names can only contain alphabets, spaces, hyphens and apostrophes.'],
      [{ email: freshEmail(), amount: 24 }, 'amount', 'This field must have a minimum value of 25'],
      [{ email: freshEmail(), amount: 40001 }, 'amount', 'This field must have a maximum value of 40000'],
      [{ email: freshEmail(), serviceDate: '01/02/2020' }, 'serviceDate', ''],
    ];
    for (const [body, field, text] of cases) {
      const response = await send(body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      const errors = json<{ errors: Record<string, string[]> }>(response).errors;
      expect(Object.keys(errors)).toContain(field);
      if (text) expect(errors[field]).toContain(text);
      else expect(errors[field]![0]).toMatch(/^Date cannot be before \d{2}\/\d{2}\/\d{4}\.$/);
    }
  });

  it('lets only office roles that start applications send, and only for an approved office', async () => {
    expect((await send({ email: freshEmail() }, office.tpa)).statusCode).toBe(403);
    const pending = await journeyOffice(h, [], { approved: false });
    const response = await h.call({ method: 'POST', url: '/api/App/SendApp', payload: { officeId: pending.officeId, firstName: 'A', lastName: 'B', amount: 100, email: freshEmail() }, as: pending.admin });
    expect(response.statusCode).toBe(409);
  });
});
