import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { eq, getTableName, is, sql } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decryptPii, last4 } from '../../server/crypto/pii.ts';
import { openPglite, type Database, type Db } from '../../server/db/index.ts';
import * as schema from '../../server/db/schema.ts';
import { ROOT } from '../../core/contract/documents.ts';
import { seedBulk } from '../../server/seed/bulk.ts';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, seedDemo } from '../../server/seed/demo.ts';
import { prefixRange } from '../../server/domain/search.ts';
import { verifyPassword } from '../../server/identity/password.ts';

// One in-memory PGlite for the whole file: each instance takes seconds and hundreds of MB.
let database: Database;
let db: Db;
const piiKey = randomBytes(32);
const demoSettings = { piiKey, mode: 'demo' as const, publicUrl: 'https://localhost:3000', lendersDir: join(ROOT, 'screens', 'lenders') };
const tableNames = (Object.values(schema) as unknown[])
  .filter((value): value is PgTable => is(value, PgTable))
  .map((table) => getTableName(table));

async function rowCounts(): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of tableNames) {
    const { rows } = await db.execute<{ n: number }>(sql`select count(*)::int n from ${sql.identifier(table)}`);
    counts[table] = rows[0]!.n;
  }
  return counts;
}

beforeAll(async () => {
  database = await openPglite(new PGlite());
  db = database.db;
}, 60_000);

afterAll(async () => {
  await database?.close();
});

describe('migrations', () => {
  it('create every table of the schema on a fresh database', async () => {
    const { rows } = await db.execute<{ table_name: string }>(
      sql`select table_name from information_schema.tables where table_schema = 'public'`,
    );
    expect(rows.map((r) => r.table_name).sort()).toEqual([...tableNames].sort());
    expect(tableNames.length).toBeGreaterThanOrEqual(27);
  });

  it('store e-mails lower-cased only and number applications from 1000', async () => {
    const user = (email: string) => ({ email, firstName: 'A', lastName: 'B', role: 'admin' as const });
    await expect(db.insert(schema.users).values(user('Mixed@Case.test'))).rejects.toThrow();
    await db.insert(schema.users).values(user('mixed@case.test'));
    await expect(db.insert(schema.users).values(user('mixed@case.test'))).rejects.toThrow();
    await db.delete(schema.users).where(eq(schema.users.email, 'mixed@case.test'));
    const { rows } = await db.execute<{ start: string }>(
      sql`select start_value::text start from pg_sequences where sequencename = 'applications_id_seq'`,
    );
    expect(rows[0]!.start).toBe('1000');
  });
});

describe('demo seed', () => {
  let first: Record<string, number>;

  beforeAll(async () => {
    expect((await seedDemo(db, demoSettings)).created).toBe(true);
    first = await rowCounts();
  }, 60_000);

  it('is idempotent: a second run writes nothing', async () => {
    expect((await seedDemo(db, demoSettings)).created).toBe(false);
    expect(await rowCounts()).toEqual(first);
  });

  it('has offices in every enrollment status and two approved offices with applications in every stage', async () => {
    const offices = await db.select().from(schema.offices);
    expect(new Set(offices.map((o) => o.enrollmentStatus))).toEqual(new Set(schema.enrollmentStatus.enumValues));

    const approved = offices.filter((o) => o.enrollmentStatus === 'Approved');
    expect(approved.map((o) => o.name).sort()).toEqual(['Bright Smiles Dental', 'Empire State Dental Care', 'Lakeside Family Dental']);
    // The New York office has started none: its patients apply themselves (decision 0213).
    const newYork = approved.find((o) => o.state === 'NY')!;
    expect(await db.select().from(schema.applications).where(eq(schema.applications.officeId, newYork.id))).toEqual([]);
    for (const office of approved.filter((o) => o !== newYork)) {
      expect(office.code).toBeTruthy();
      const apps = await db.select().from(schema.applications).where(eq(schema.applications.officeId, office.id));
      expect(new Set(apps.map((a) => a.stage))).toEqual(new Set(schema.appStage.enumValues));
      const links = await db.select().from(schema.officeLenders).where(eq(schema.officeLenders.officeId, office.id));
      expect(links.length).toBeGreaterThanOrEqual(5);
    }
    const notEnrolled = offices.find((o) => o.enrollmentStatus === 'New')!;
    expect(notEnrolled.isEnrollmentCompleted).toBe(false);
  });

  it('gives offers to offer stages and funding data to funded applications', async () => {
    const apps = await db.select().from(schema.applications);
    const offers = await db.select().from(schema.offers);
    for (const app of apps) {
      const own = offers.filter((o) => o.appId === app.id);
      if (['OfferSelected', 'SigningRequired', 'ReadyToFinalize', 'Funded'].includes(app.stage)) {
        expect(own.filter((o) => o.isSelected)).toHaveLength(1);
        expect(app.lenderCode).toBe(own.find((o) => o.isSelected)!.productCode.split('-')[0]!.toLowerCase());
      }
      if (app.stage === 'Funded' || app.stage === 'Refund') {
        expect(app.fundedAmount).toBeGreaterThan(0);
        expect(app.fundedAt).toBeInstanceOf(Date);
        expect(app.fundingStatus).toBe('Completed');
      }
      expect(Number.isInteger(app.amount)).toBe(true);
      expect(app.amount).toBeGreaterThanOrEqual(500_00);
      expect(app.amount).toBeLessThanOrEqual(15_000_00);
      expect(app.searchName).toBe(`${app.firstName} ${app.lastName}`.toLowerCase());
    }
    const refunds = await db.select().from(schema.refunds);
    expect(refunds.length).toBeGreaterThan(0);
    for (const refund of refunds) {
      const app = apps.find((a) => a.id === refund.appId)!;
      expect(refund.amount).toBeLessThan(app.amount);
    }
  });

  it('creates exactly the demo accounts, with the demo password', async () => {
    const users = await db.select().from(schema.users);
    expect(users.map((u) => u.email).sort()).toEqual(DEMO_ACCOUNTS.map((a) => a.email).sort());
    const byEmail = new Map(users.map((u) => [u.email, u]));
    expect(byEmail.get('admin@demo.test')!.userRole).toBe('df.admin');
    expect(byEmail.get('dfi@demo.test')!.userRole).toBe('dfi.admin');
    expect(users.some((u) => u.role === 'sales')).toBe(true);
    expect(await verifyPassword(DEMO_PASSWORD, byEmail.get('tpa@demo.test')!.passwordHash!)).toBe(true);

    const memberships = await db.select().from(schema.userOffices);
    const officesOf = (email: string) => memberships.filter((m) => m.userId === byEmail.get(email)!.id);
    expect(officesOf('office.admin@demo.test').map((m) => m.role)).toEqual(['admin', 'admin']);
    expect(officesOf('office.support@demo.test').map((m) => m.role)).toEqual(['support']);
    expect(officesOf('tpa@demo.test').map((m) => m.role)).toEqual(['tpa']);
    expect(officesOf('newoffice@demo.test')).toEqual([]);
    const [pendingOffice] = await db
      .select()
      .from(schema.offices)
      .where(eq(schema.offices.id, officesOf('pending@demo.test')[0]!.officeId));
    expect(pendingOffice!.isEnrollmentCompleted).toBe(true);
    expect(pendingOffice!.isApproved).toBe(false);
  });

  it('stores personal data as ciphertext that decrypts with the key', async () => {
    const apps = await db.select().from(schema.applications);
    for (const app of apps) {
      expect(app.ssnEnc).toMatch(/^v1\./);
      const ssn = decryptPii(piiKey, app.ssnEnc!);
      expect(ssn).toMatch(/^\d{3}-\d{2}-\d{4}$/);
      expect(app.ssnEnc).not.toContain(ssn);
      expect(app.last4Ssn).toBe(last4(ssn));
      expect(decryptPii(piiKey, app.dobEnc!)).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
    const owners = await db.select().from(schema.officeOwners);
    expect(owners.length).toBeGreaterThan(0);
    for (const owner of owners) {
      const ssn = decryptPii(piiKey, owner.ssnEnc!);
      expect(owner.ssnEnc).not.toContain(ssn);
      expect(owner.ssnLast4).toBe(last4(ssn));
    }
    const [office] = await db.select().from(schema.offices).where(eq(schema.offices.name, 'Bright Smiles Dental'));
    expect(decryptPii(piiKey, office!.bankAccountNumberEnc!).endsWith(office!.bankAccountLast4!)).toBe(true);
  });
});

describe('files', () => {
  it('keep their bytes exactly (bytea)', async () => {
    const [office] = await db.select({ id: schema.offices.id }).from(schema.offices).limit(1);
    const bytes = Buffer.from([0, 1, 2, 0x7f, 0x80, 0xfe, 0xff, 0x0d, 0x0a]);
    const [file] = await db
      .insert(schema.files)
      .values({ officeId: office!.id, kind: 'W9', fileName: 'w9.pdf', contentType: 'application/pdf', sizeBytes: bytes.length, sha256: 'test', bytes })
      .returning({ id: schema.files.id });
    const [stored] = await db.select().from(schema.files).where(eq(schema.files.id, file!.id));
    expect(stored!.bytes.equals(bytes)).toBe(true);
    await db.delete(schema.files).where(eq(schema.files.id, file!.id));
  });
});

describe('bulk seed', () => {
  it('adds the requested offices and applications', async () => {
    const before = await rowCounts();
    expect(await seedBulk(db, { apps: 2_000, offices: 5, piiKey })).toEqual({ apps: 2_000, offices: 5 });
    const after = await rowCounts();
    expect(after.offices! - before.offices!).toBe(5);
    expect(after.applications! - before.applications!).toBe(2_000);

    const { rows } = await db.execute<{ office_id: number; n: number; lenders: number }>(sql`
      select a.office_id, count(*)::int n,
             (select count(*)::int from office_lenders ol where ol.office_id = a.office_id) lenders
      from applications a join offices o on o.id = a.office_id
      where o.name like 'Benchmark Dental %'
      group by a.office_id`);
    expect(rows).toHaveLength(5);
    for (const row of rows) {
      expect(row.n).toBe(400);
      expect(row.lenders).toBe(5);
    }
    const [sample] = await db.select().from(schema.applications).where(eq(schema.applications.officeId, rows[0]!.office_id)).limit(1);
    expect(decryptPii(piiKey, sample!.ssnEnc!)).toMatch(/^\d{3}-\d{2}-\d{4}$/);
  }, 60_000);
});

describe('prefix ranges for name search (server/domain/search.ts, decision 0144)', () => {
  it('match exactly the texts that start with the prefix, in PostgreSQL’s own byte order', async () => {
    const words = ['ja', 'jab', 'jaz', 'jb', 'j', 'jа', 'o’neil', 'o’n', "o'n", 'ann-marie', 'ann_', 'ann%x', 'zoë', 'zoe', 'zoëlle', 'ząb', '\uD7FFx', '\uE000', '😀a', '😁', 'z\u{10FFFE}', ''];
    const prefixes = ['ja', 'j', 'o’n', 'ann_', 'ann%', 'zo', 'zoë', '\uD7FF', '😀', 'z\u{10FFFE}', 'z\u{10FFFF}', '\u{10FFFF}'];
    for (const prefix of prefixes) {
      const { from, to } = prefixRange(prefix);
      const { rows } = await db.execute<{ w: string }>(
        sql`select w from (values ${sql.join(words.map((word) => sql`(${word}::text)`), sql`, `)}) as v(w) where w ~>=~ ${from} and w ~<~ ${to}`,
      );
      const stem = prefix.replace(/\u{10FFFF}/gu, '');
      const expected = stem ? words.filter((word) => word.startsWith(stem)).sort() : [];
      expect(rows.map((row) => row.w).sort(), `prefix ${JSON.stringify(prefix)}`).toEqual(expected);
    }
  });
});
