import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../server/app.ts';
import { REDACTED_FIELDS } from '../../server/http/logging.ts';
import { harness, type Harness } from '../support/harness.ts';
import { DEMO } from './examples.ts';
import { prequalForm } from './journey-fixtures.ts';

/**
 * Logs never carry personal data (docs/decisions/0171): writes full of it are made to fail on a database error, and
 * every line the server logged meanwhile is searched for each value sent.
 */
describe('the log of a failing write', () => {
  let h: Harness;
  let app: FastifyInstance;
  const lines: string[] = [];
  const token = randomBytes(32).toString('base64url');
  // Values no other line of the log could hold by chance.
  const person = {
    firstName: 'Zebulon', lastName: 'Logtrap', email: 'zebulon.logtrap@example.test', mobilePhone: '(512) 555-0123',
    address: { streetAddress: '8765 Juniper Hollow', city: 'Pflugerville', state: 'TX', zipCode: '78660' },
    dob: '07/19/1984', ssn: '900-55-1234', annualIncome: 73456, employerName: 'Quokka Robotics',
  };
  const bank = { routingNumber: '021000021', accountNumber: '987654321012' };
  const secrets = [
    person.firstName, person.lastName, person.email, person.mobilePhone, '5125550123', person.address.streetAddress, person.address.city,
    person.dob, '19840719', '1984-07-19', person.ssn, '900551234', '73456', person.employerName, bank.routingNumber, bank.accountNumber, token,
    'Logtrap Dental',
  ];

  beforeAll(async () => {
    h = await harness();
    app = await buildServer({ settings: { ...h.settings, logLevel: 'info' }, database: h.database, verifiers: h.verifiers, logStream: { write: (line: string) => void lines.push(line) } });
    await app.ready();
    // A database error on the write itself, quoting the whole row as PostgreSQL's own errors do ('Failing row contains …').
    await h.database.db.execute(sql.raw(`
      create or replace function log_trap() returns trigger language plpgsql as $$
      begin
        if to_jsonb(new) ->> 'last_name' = 'Logtrap' or to_jsonb(new) ->> 'name' like 'Logtrap%' then
          raise exception 'trapped row %', to_jsonb(new) using detail = 'Failing row contains ' || to_jsonb(new)::text;
        end if;
        return new;
      end $$`));
    await h.database.db.execute(sql.raw('create trigger log_trap before insert or update on applications for each row execute function log_trap()'));
    await h.database.db.execute(sql.raw('create trigger log_trap before insert or update on offices for each row execute function log_trap()'));
  });
  afterAll(async () => {
    for (const statement of ['drop trigger log_trap on applications', 'drop trigger log_trap on offices', 'drop function log_trap()']) await h.database.db.execute(sql.raw(statement));
    await app.close();
  });

  const call = async (method: 'GET' | 'POST', url: string, as?: string, payload?: object) =>
    app.inject({ method, url, payload, headers: { 'x-api-key': 'test-api-key-1', 'idempotency-key': randomUUID(), ...(as ? { authorization: `Bearer ${await h.staffToken(as)}` } : {}) } });

  it('names the failure (SQL text, SQLSTATE, table) and none of the personal data, tokens or SQL parameters', async () => {
    const application = await call('POST', '/api/App/SubmitApp', 'office.admin@demo.test', prequalForm(DEMO.brightSmiles, person));
    const office = await call('POST', '/api/Office/UpsertOffice', 'newoffice@demo.test', {
      id: 0, name: 'Logtrap Dental', legalName: 'Logtrap Dental PLLC', phone: person.mobilePhone, address: person.address, timeZone: 'CT',
      bankAccountType: 0, bankName: 'First Example Bank', ...bank,
    });
    // Addresses carry tokens and contacts too: the invitation's token in the path, a recipient in the query.
    await call('GET', `/api/Users/GetInviteInfo/${token}`);
    await call('GET', `/api/dev/outbox?to=${encodeURIComponent(person.email)}`);

    expect([application.statusCode, office.statusCode]).toEqual([500, 500]);
    expect(lines.length).toBeGreaterThan(8);
    const text = lines.join('\n').toLowerCase();
    for (const secret of secrets) expect(text, secret).not.toContain(secret.toLowerCase());
    const logged = lines.map((line) => JSON.parse(line) as { level: number; reqId?: string; err?: { message: string; code?: string; table?: string; cause?: { code?: string; table?: string } } });
    for (const response of [application, office]) {
      const failure = logged.find((line) => line.level === 50 && line.reqId === response.headers['x-trace-id']);
      expect(failure?.err?.message, response.body).toMatch(/^Failed query: (insert into|update) "(applications|offices)"/);
      expect(failure?.err?.cause).toMatchObject({ code: 'P0001' });
    }
  });

  it('redacts the listed fields wherever a log call names them', () => {
    lines.length = 0;
    app.log.info({ email: person.email, borrower: { ssn: person.ssn, mobilePhone: person.mobilePhone } }, 'a careless log call');
    expect(lines.join('\n')).not.toMatch(/zebulon|900-55|555-0123/i);
    expect(REDACTED_FIELDS).toEqual(expect.arrayContaining(['firstName', 'email', 'mobilePhone', 'streetAddress', 'annualIncome', 'ssn', 'dob', 'accountNumber', 'token', 'params']));
  });
});
