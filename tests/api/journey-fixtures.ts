import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, inArray, sql } from 'drizzle-orm';
import QRCode from 'qrcode';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../server/app.ts';
import type { Settings } from '../../server/config.ts';
import { lenders, officeLenders, offices, userOffices, users } from '../../server/db/schema.ts';
import { createTokenVerifiers } from '../../server/identity/tokens.ts';
import { lenderCallbackKey, signLenderCallback } from '../../core/lenders/callback-signature.ts';
import { streetName } from '../../core/lenders/identity-questions.ts';
import type { Harness } from '../support/harness.ts';

/**
 * Offices, borrowers and helpers of the borrower-journey tests (tests/api/journey*.test.ts,
 * lenders*.test.ts, outbox*.test.ts). Every test works in an office made for it, so the demo rows
 * other test files read never change.
 */
export interface JourneyOffice {
  officeId: number;
  tag: string;
  /** Office admin (also staff of the office's domain). */
  admin: string;
  support: string;
  tpa: string;
  website: string;
}

export const DEFAULT_LENDERS = ['ally', 'gsky', 'lpoint', 'lusa', 'powerpay', 'upg'] as const;

export async function journeyOffice(h: Harness, codes: readonly string[] = DEFAULT_LENDERS, options: { approved?: boolean } = {}): Promise<JourneyOffice> {
  const db = h.database.db;
  const tag = randomBytes(4).toString('hex');
  const domain = `smiles-${tag}.test`;
  const emails = { admin: `admin@${domain}`, support: `sam.support-${tag}@gmail.com`, tpa: `tara.tpa-${tag}@${domain}` };
  const approved = options.approved ?? true;
  return db.transaction(async (tx) => {
    const [office] = await tx
      .insert(offices)
      .values({
        name: `Journey Dental ${tag}`, legalName: 'Journey Dental PLLC', phone: '(512) 555-0190', website: `https://www.${domain}`,
        streetAddress: '500 Congress Ave', city: 'Austin', state: 'TX', zipCode: '78701', timeZone: 'CT',
        enrollmentStatus: approved ? 'Approved' : 'Submitted', isApproved: approved, isReviewed: approved, isEnrollmentCompleted: true,
      })
      .returning({ id: offices.id });
    const made = await tx
      .insert(users)
      .values([
        { email: emails.admin, firstName: 'Avery', lastName: 'Admin', role: 'admin' as const, timeZone: 'CT' as const },
        { email: emails.support, firstName: 'Sam', lastName: 'Support', role: 'support' as const, timeZone: 'CT' as const },
        { email: emails.tpa, firstName: 'Tara', lastName: 'Tpa', role: 'tpa' as const, timeZone: 'CT' as const },
      ])
      .returning({ id: users.id, role: users.role });
    await tx.insert(userOffices).values(made.map((u) => ({ userId: u.id, officeId: office!.id, role: u.role, isPrimary: u.role === 'admin' })));
    const rows = codes.length ? await tx.select({ id: lenders.id, code: lenders.code }).from(lenders).where(inArray(lenders.code, [...codes])) : [];
    if (rows.length) {
      await tx.insert(officeLenders).values(
        rows.map((row, index) => ({ officeId: office!.id, lenderId: row.id, status: 'Completed' as const, numOrder: index + 1, isEnrollmentCompleted: true, isReviewed: true, discountRate: 5 })),
      );
    }
    return { officeId: office!.id, tag, admin: emails.admin, support: emails.support, tpa: emails.tpa, website: `https://www.${domain}` };
  });
}

/** Links a lender (by code) to an office, Completed. */
export async function linkLender(h: Harness, officeId: number, code: string): Promise<number> {
  const [lender] = await h.database.db.select({ id: lenders.id }).from(lenders).where(eq(lenders.code, code));
  await h.database.db.insert(officeLenders).values({ officeId, lenderId: lender!.id, status: 'Completed', numOrder: 50, isEnrollmentCompleted: true, discountRate: 4 });
  return lender!.id;
}

let phoneSerial = Number.parseInt(randomBytes(2).toString('hex'), 16) % 9000;
/** A fresh (###) ###-#### mobile phone in the 555 range. */
export function freshPhone(): string {
  phoneSerial = (phoneSerial + 1) % 10_000;
  const area = 200 + (Number.parseInt(randomBytes(1).toString('hex'), 16) % 700);
  return `(${area}) 555-${String(phoneSerial).padStart(4, '0')}`;
}

export const freshEmail = (name = 'pat') => `${name}.${randomBytes(4).toString('hex')}@gmail.com`;

/** A pre-qualification form that every sandbox rule approves (income 52,000, amount 4,800). */
export function prequalForm(officeId: number, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 0,
    officeId,
    firstName: 'Pat',
    lastName: 'Applicant',
    email: freshEmail(),
    mobilePhone: freshPhone(),
    address: { streetAddress: '1234 Cedar Ln', city: 'Austin', state: 'TX', zipCode: '78704' },
    dob: '04/12/1985',
    ssn: '900-12-3456',
    annualIncome: 52000,
    residenceStatus: 'Rent',
    monthlyHousingPayment: 1200,
    employmentStatus: 'EmployedFull',
    employerName: 'City Hospital',
    amount: 4800,
    agreeToTerms: true,
    agreeToESign: true,
    ...overrides,
  };
}

export const json = <T = Record<string, unknown>>(response: { body: string }): T => JSON.parse(response.body) as T;

export type OutboxRow = {
  channel: string;
  body: string;
  subject: string | null;
  links: { url: string; label: string }[];
};

/** What the outbox holds for one recipient, oldest first. */
export async function outboxTo(h: Harness, recipient: string): Promise<OutboxRow[]> {
  return (await h.database.db.execute<OutboxRow>(sql`select channel, body, subject, links from outbox where recipient = ${recipient} order by id`)).rows;
}

/** The right choice of each sandbox identity question, from what the borrower entered. */
export function kbaAnswers(
  quiz: { quizId: string; transactionId: string; questions: { id: string; choices: { id: string; text: string }[] }[] },
  form: Record<string, unknown>,
  wrong = false,
): { quizId: string; transactionId: string; answers: { questionId: string; choiceId: string }[] } {
  const address = form.address as { streetAddress: string; city: string; zipCode: string };
  const expected: Record<string, string> = {
    street: streetName(address.streetAddress),
    city: address.city,
    birthYear: String(form.dob).slice(6, 10),
    zip: address.zipCode.slice(0, 5),
  };
  return {
    quizId: quiz.quizId,
    transactionId: quiz.transactionId,
    answers: quiz.questions.map((q) => {
      const right = q.choices.find((c) => c.text === expected[q.id]);
      if (!right) throw new Error(`no right choice for ${q.id}`);
      const choice = wrong ? q.choices.find((c) => c.id !== right.id)! : right;
      return { questionId: q.id, choiceId: choice.id };
    }),
  };
}

/** A real PNG (a QR code of the text) as a data URL: a stand-in for a drawn signature. */
export async function signaturePng(text = 'signature'): Promise<string> {
  return QRCode.toDataURL(text, { width: 200, margin: 1 });
}

/** A lender callback body signed as that lender would sign it. */
export function signedCallback(settings: Settings, body: Record<string, unknown>, options: { timestamp?: number; key?: Buffer } = {}) {
  const raw = JSON.stringify(body);
  const timestamp = String(options.timestamp ?? Math.floor(Date.now() / 1000));
  const key = options.key ?? lenderCallbackKey(settings, String(body.lenderCode));
  return {
    method: 'POST' as const,
    url: '/api/App/ProcessLenderCallback',
    payload: raw,
    headers: { 'content-type': 'application/json', 'x-lender-timestamp': timestamp, 'x-lender-signature': signLenderCallback(key, timestamp, raw) },
  };
}

/** A copy of screens/lenders/ in a temporary folder, with some files changed or added (LENDERS_DIR). */
export function lenderFolder(change: (code: string, doc: Record<string, unknown>) => Record<string, unknown> | void, extra: Record<string, unknown>[] = []): string {
  const source = join(process.cwd(), 'screens', 'lenders');
  const dir = mkdtempSync(join(tmpdir(), 'pos-lenders-'));
  for (const file of readdirSync(source).filter((f) => f.endsWith('.json'))) {
    const doc = JSON.parse(readFileSync(join(source, file), 'utf8')) as Record<string, unknown>;
    const changed = change(String(doc.code), doc) ?? doc;
    writeFileSync(join(dir, file), JSON.stringify(changed, null, 2));
  }
  for (const doc of extra) writeFileSync(join(dir, `${String(doc.code)}.json`), JSON.stringify(doc, null, 2));
  return dir;
}

/**
 * A second server on the harness's database with other settings (a lender folder, a timeout, the
 * SMS webhook secret, production mode). It accepts borrower tokens only: staff calls go to h.app.
 */
export async function serverWith(h: Harness, changes: Partial<Settings>): Promise<FastifyInstance> {
  const settings = { ...h.settings, ...changes };
  const app = await buildServer({ settings, database: h.database, verifiers: createTokenVerifiers(settings, undefined) });
  await app.ready();
  return app;
}

/** The application's latest log lines, for assertions on what the office sees. */
export async function logLines(h: Harness, appId: number): Promise<{ kind: string; message: string; data: Record<string, unknown> | null }[]> {
  const rows = await h.database.db.execute<{ kind: string; message: string; data: Record<string, unknown> | null }>(sql`select kind, message, data from app_logs where app_id = ${appId} order by id`);
  return rows.rows;
}
