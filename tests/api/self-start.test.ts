import { beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { applications, offices, smsOptOuts } from '../../server/db/schema.ts';
import { SELF_START } from '../../server/domain/journey/self-start.ts';
import { freshAddress, freshNetwork } from '../support/addresses.ts';
import { harness, type Harness } from '../support/harness.ts';
import { freshEmail, freshPhone, journeyOffice, json, outboxTo, type JourneyOffice } from './journey-fixtures.ts';

/**
 * A patient starts an application alone from the office's landing page (issue 19, decision 0217): the passcode sent
 * to the contact given opens it; the consent to be contacted is kept; limits per client address and per office.
 */
describe('a patient starts an application from the landing page', () => {
  let h: Harness;
  let office: JourneyOffice;
  let code: string;
  const start = (body: Record<string, unknown>, remoteAddress: string, headers: Record<string, string> = {}) =>
    h.call({ method: 'POST', url: '/api/App/StartApp', payload: { code, firstName: 'Rosa', lastName: 'Alvarez', channel: 'Sms', amount: 2400, agreeToContact: true, ...body }, remoteAddress, headers });
  const applicationsOf = async (phone: string) => h.database.db.select().from(applications).where(eq(applications.mobilePhone, phone));
  const passcodeTo = async (to: string) => /(\d{6})/.exec((await outboxTo(h, to)).at(-1)?.body ?? '')?.[1];

  beforeAll(async () => {
    h = await harness();
    office = await journeyOffice(h);
    code = `self${office.tag}`;
    await h.database.db.update(offices).set({ code }).where(eq(offices.id, office.officeId));
  });

  it('texts a passcode that opens the new application, and keeps the consent to be contacted', async () => {
    const phone = freshPhone();
    const address = freshAddress();
    const response = await start({ mobilePhone: phone }, address, { 'accept-language': 'es' });
    expect(response.statusCode, response.body).toBe(200);
    const answer = json<{ challengeId: string; destination: string; channel: string }>(response);
    expect(answer).toMatchObject({ channel: 'Sms', destination: `(***) ***-${phone.slice(-4)}` });
    expect(JSON.stringify(answer)).not.toMatch(/appId/);
    const [app] = await applicationsOf(phone);
    expect(app).toMatchObject({ officeId: office.officeId, firstName: 'Rosa', lastName: 'Alvarez', amount: 240_000, createdBy: null, inOfficeApply: false, language: 'es' });
    const [log] = (await h.database.db.execute<{ message: string; data: { consent: Record<string, unknown> } }>(sql`select message, data from app_logs where app_id = ${app!.id}`)).rows;
    expect(log!.message).toBe("Application started by the patient from the office's page");
    expect(log!.data.consent).toMatchObject({ kind: 'contact', channel: 'Sms', language: 'es', ip: address });
    expect(String(log!.data.consent.text)).toMatch(/^Acepto recibir mi código de acceso/);

    const verified = await h.call({ method: 'POST', url: '/api/Otp/VerifyOtp', payload: { challengeId: answer.challengeId, code: await passcodeTo(phone) } });
    expect(verified.statusCode, verified.body).toBe(200);
    expect(json<{ appId: number }>(verified).appId).toBe(app!.id);
    const read = await h.call({ method: 'GET', url: `/api/App/GetApp/${app!.id}/false`, borrowerOf: app!.id });
    expect(read.statusCode).toBe(200);
  });

  it('refuses an unknown page, an opted-out phone and a consent not given, and writes nothing', async () => {
    const phone = freshPhone();
    expect((await start({ code: 'nosuchpage', mobilePhone: phone }, freshAddress())).statusCode).toBe(404);
    const refused = await start({ mobilePhone: phone, agreeToContact: false }, freshAddress());
    expect(refused.statusCode).toBe(400);
    expect(Object.keys(json<{ errors: Record<string, string[]> }>(refused).errors)).toEqual(['agreeToContact']);
    expect(Object.keys(json<{ errors: Record<string, string[]> }>(await start({ channel: 'Email' }, freshAddress())).errors)).toEqual(['email']);
    await h.database.db.insert(smsOptOuts).values({ phone: phone.replace(/\D/g, '') });
    expect((await start({ mobilePhone: phone }, freshAddress())).statusCode).toBe(409);
    expect(await applicationsOf(phone)).toEqual([]);
    // An e-mail of the office's own domain is not the patient's.
    const staffMail = await start({ channel: 'Email', email: `front.desk@${new URL(office.website).hostname.replace(/^www\./, '')}` }, freshAddress());
    expect(staffMail.statusCode).toBe(400);
  });

  it(`limits starts to ${SELF_START.perAddressPerHour} an hour from one address (an IPv6 one by its /64) and ${SELF_START.perOfficePerHour} an hour per office`, async () => {
    const one = freshAddress();
    for (let i = 0; i < SELF_START.perAddressPerHour; i++) expect((await start({ channel: 'Email', email: freshEmail('rosa') }, one)).statusCode).toBe(200);
    expect((await start({ channel: 'Email', email: freshEmail('rosa') }, one)).statusCode).toBe(429);
    // A phone picks any address of its /64: each start from another one of them still counts.
    const host = freshNetwork();
    for (let i = 0; i < SELF_START.perAddressPerHour; i++) expect((await start({ channel: 'Email', email: freshEmail('rosa') }, host(i + 1))).statusCode).toBe(200);
    const over = await start({ channel: 'Email', email: freshEmail('rosa') }, host(0xbeef));
    expect(over.statusCode).toBe(429);
    expect(json<{ extensions: { retryAfterSeconds: number } }>(over).extensions.retryAfterSeconds).toBe(3600);

    const started = Number((await h.database.db.execute<{ n: number }>(sql`select count(*)::int as n from security_events where kind = 'app-self-started' and actor = ${`office:${office.officeId}`}`)).rows[0]!.n);
    for (let i = started; i < SELF_START.perOfficePerHour; i++) expect((await start({ channel: 'Email', email: freshEmail('rosa') }, freshAddress())).statusCode).toBe(200);
    const phone = freshPhone();
    expect((await start({ mobilePhone: phone }, freshAddress())).statusCode).toBe(429);
    expect(await applicationsOf(phone)).toEqual([]);
  });
});
