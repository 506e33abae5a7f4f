import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { generateKeyPair, SignJWT } from 'jose';
import { harness, type Harness } from '../support/harness.ts';
import { DEMO } from './examples.ts';

/** The access layer as the foundation enforces it; the full role × operation matrix belongs to identity. */
describe('access to the API', () => {
  let h: Harness;
  let appOf100: number;
  let appOf101: number;
  beforeAll(async () => {
    h = await harness();
    const first = async (office: number) =>
      Number((await h.database.db.execute<{ id: number }>(sql`select id from applications where office_id = ${office} order by id limit 1`)).rows[0]!.id);
    appOf100 = await first(DEMO.brightSmiles);
    appOf101 = await first(DEMO.lakeside);
  });

  const securityEvents = async () => Number((await h.database.db.execute<{ n: number }>(sql`select count(*)::int as n from security_events`)).rows[0]!.n);

  it('refuses a (key) call without a configured API key', async () => {
    expect((await h.call({ method: 'GET', url: '/api/Config/GetConfigItems/States', key: false })).statusCode).toBe(401);
    const wrong = await h.call({ method: 'GET', url: '/api/Config/GetConfigItems/States', key: false, headers: { 'x-api-key': 'not-a-real-key' } });
    expect(wrong.statusCode).toBe(401);
    expect(JSON.parse(wrong.body).detail).toBe('A valid X-Api-Key header is required.');
  });

  it('refuses a staff call without a token, with a forged token and with an expired one', async () => {
    expect((await h.call({ method: 'GET', url: `/api/Office/GetOfficeInfo/${DEMO.brightSmiles}` })).statusCode).toBe(401);
    const { privateKey } = await generateKeyPair('RS256');
    const forged = await new SignJWT({}).setProtectedHeader({ alg: 'RS256', kid: 'test' }).setIssuer('https://issuer.test').setAudience(h.settings.oidcAudience)
      .setSubject(await h.userId('admin@demo.test')).setExpirationTime('5m').sign(privateKey);
    const response = await h.call({ method: 'GET', url: `/api/Office/GetOfficeInfo/${DEMO.brightSmiles}`, headers: { authorization: `Bearer ${forged}` } });
    expect(response.statusCode).toBe(401);
    expect(response.headers['content-type']).toContain('application/problem+json');
  });

  it('lets an office user read their own office and answers 404 for another, logging a security event', async () => {
    expect((await h.call({ method: 'GET', url: `/api/Office/GetOfficeInfo/${DEMO.brightSmiles}`, as: 'office.support@demo.test' })).statusCode).toBe(200);
    const before = await securityEvents();
    const other = await h.call({ method: 'GET', url: `/api/Office/GetOfficeInfo/${DEMO.lakeside}`, as: 'office.support@demo.test' });
    expect(other.statusCode).toBe(404);
    expect(await securityEvents()).toBe(before + 1);
  });

  it('keeps applications and lists within the caller offices', async () => {
    expect((await h.call({ method: 'GET', url: `/api/App/GetApp/${appOf101}/false`, as: 'tpa@demo.test' })).statusCode).toBe(200);
    expect((await h.call({ method: 'GET', url: `/api/App/GetApp/${appOf100}/false`, as: 'tpa@demo.test' })).statusCode).toBe(404);
    const list = await h.call({ method: 'PUT', url: '/api/App/GetOfficeApps', payload: { officeId: DEMO.brightSmiles }, as: 'tpa@demo.test' });
    expect(list.statusCode).toBe(404);
    const own = await h.call({ method: 'PUT', url: '/api/App/GetOfficeApps', payload: { officeId: DEMO.lakeside }, as: 'tpa@demo.test' });
    expect(JSON.parse(own.body).results.every((row: { officeId: number }) => row.officeId === DEMO.lakeside)).toBe(true);
  });

  it('answers 404 for an application that does not exist, without telling it apart from another office', async () => {
    const missing = await h.call({ method: 'GET', url: '/api/App/GetApp/999999/false', as: 'office.admin@demo.test' });
    const foreign = await h.call({ method: 'GET', url: `/api/App/GetApp/${appOf101}/false`, as: 'office.support@demo.test' });
    expect([missing.statusCode, foreign.statusCode]).toEqual([404, 404]);
    expect(JSON.parse(missing.body).detail).toBe(JSON.parse(foreign.body).detail);
  });

  it('lets platform admins read any office', async () => {
    for (const email of ['admin@demo.test', 'dfi@demo.test']) {
      expect((await h.call({ method: 'GET', url: `/api/App/GetApp/${appOf101}/false`, as: email })).statusCode, email).toBe(200);
    }
  });

  it('refuses tokens without an expiry: a borrower token signed with the real secret, and a staff token', async () => {
    const forever = await new SignJWT({ app: appOf100 }).setProtectedHeader({ alg: 'HS256' }).setIssuer('pos-portal').setAudience('borrower').setIssuedAt().sign(h.settings.borrowerTokenSecret);
    const expiring = await new SignJWT({ app: appOf100 }).setProtectedHeader({ alg: 'HS256' }).setIssuer('pos-portal').setAudience('borrower').setIssuedAt().setExpirationTime('5m').sign(h.settings.borrowerTokenSecret);
    const read = (token: string) => h.call({ method: 'GET', url: `/api/App/GetApp/${appOf100}/false`, headers: { 'x-borrower-token': token } });
    expect((await read(expiring)).statusCode).toBe(200);
    const refused = await read(forever);
    expect(refused.statusCode).toBe(401);
    expect(JSON.parse(refused.body).detail).toBe('The borrower session is not valid or has expired.');
    const staff = await h.call({ method: 'GET', url: `/api/Office/GetOfficeInfo/${DEMO.brightSmiles}`, headers: { authorization: `Bearer ${await h.staffToken('office.support@demo.test', { expires: false })}` } });
    expect(staff.statusCode).toBe(401);
  });

  it('opens to a borrower token its own application only', async () => {
    expect((await h.call({ method: 'GET', url: `/api/App/GetApp/${appOf100}/false`, borrowerOf: appOf100 })).statusCode).toBe(200);
    expect((await h.call({ method: 'GET', url: `/api/App/GetApp/${appOf101}/false`, borrowerOf: appOf100 })).statusCode).toBe(404);
    // A borrower is signed in, but not as anyone an office call admits.
    expect((await h.call({ method: 'GET', url: `/api/Office/GetOfficeInfo/${DEMO.brightSmiles}`, borrowerOf: appOf100 })).statusCode).toBe(403);
  });
});
