import { createHmac, timingSafeEqual } from 'node:crypto';
import { and, eq, inArray, isNull, max, notInArray, or, sql } from 'drizzle-orm';
import type { components } from '../../../codegen/generated/api.ts';
import type { Db } from '../../db/index.ts';
import { lenders, officeLenders } from '../../db/schema.ts';
import { HttpProblem } from '../../http/problem.ts';
import { officeLenderList } from './reads.ts';
import { lockOffice } from './records.ts';
import { recordEvent } from '../../events/record.ts';

type Schemas = components['schemas'];
type LinkStatus = NonNullable<(typeof officeLenders.$inferSelect)['status']>;

/** An application to a lender is in progress in these states; applying again changes nothing. */
const IN_PROGRESS: readonly LinkStatus[] = ['OfficeSubmitted', 'OfficeFundsSubmitted', 'SubmittedToLender', 'Completed'];

/**
 * Office_ApplyLender: the office applies to lenders, in one transaction. A lender never applied to,
 * or whose application was cancelled, gets status OfficeSubmitted; one already in progress keeps its
 * state (the client retries failed calls). Answers the links of the lenders named.
 */
export async function applyLenders(db: Db, body: Schemas['ApplyLender']): Promise<Schemas['OfficeLender'][]> {
  await db.transaction(async (tx) => {
    await lockOffice(tx, body.officeId);
    const found = await tx.select().from(lenders).where(inArray(lenders.id, body.lenderIds));
    if (found.length !== body.lenderIds.length) throw new HttpProblem(404, 'The lender could not be found.');
    const inactive = found.find((lender) => !lender.isActive);
    if (inactive) throw HttpProblem.conflict(`${inactive.name} does not accept new offices at this time.`);
    const links = await tx
      .select()
      .from(officeLenders)
      .where(and(eq(officeLenders.officeId, body.officeId), inArray(officeLenders.lenderId, body.lenderIds)));
    const [last] = await tx.select({ value: max(officeLenders.numOrder) }).from(officeLenders).where(eq(officeLenders.officeId, body.officeId));
    let numOrder = last?.value ?? 0;
    for (const lenderId of body.lenderIds) {
      const link = links.find((l) => l.lenderId === lenderId);
      const applied = { status: 'OfficeSubmitted' as const, isEnrollmentCompleted: false, showApply: false, isEnabled: true, updatedAt: sql`now()` };
      if (!link) {
        numOrder += 1;
        await tx.insert(officeLenders).values({ officeId: body.officeId, lenderId, numOrder, ...applied });
      } else if (!link.status || !IN_PROGRESS.includes(link.status)) {
        await tx
          .update(officeLenders)
          .set(applied)
          .where(and(eq(officeLenders.officeId, body.officeId), eq(officeLenders.lenderId, lenderId)));
      }
    }
  });
  const all = await officeLenderList(db, body.officeId, false);
  return all.filter((link) => body.lenderIds.includes(link.lenderId));
}

/**
 * Office_SubmitOfficeToLender / AdminOffices_SubmitOfficeToLender: an office that applied to a
 * lender, and whose enrollment is submitted, is sent to that lender (status SubmittedToLender).
 * Submitting again changes nothing; a completed or cancelled application is a conflict.
 */
export async function submitOfficeToLender(db: Db, body: Schemas['OfficeLenderSubmit']): Promise<Schemas['OfficeLender']> {
  await db.transaction(async (tx) => {
    const office = await lockOffice(tx, body.officeId);
    const [link] = await tx
      .select()
      .from(officeLenders)
      .where(and(eq(officeLenders.officeId, body.officeId), eq(officeLenders.lenderId, body.lenderId)));
    if (!link) throw new HttpProblem(404, 'The office has not applied to this lender.');
    if (link.status === 'SubmittedToLender') return;
    if (!office.isEnrollmentCompleted) throw HttpProblem.conflict('The office enrollment must be submitted before the office is sent to a lender.');
    if (link.status !== 'OfficeSubmitted' && link.status !== 'OfficeFundsSubmitted') {
      throw HttpProblem.conflict(link.status ? `The application to this lender is already ${link.status}.` : 'The office has not applied to this lender yet.');
    }
    await tx
      .update(officeLenders)
      .set({ status: 'SubmittedToLender', updatedAt: sql`now()` })
      .where(and(eq(officeLenders.officeId, body.officeId), eq(officeLenders.lenderId, body.lenderId)));
  });
  const all = await officeLenderList(db, body.officeId, false);
  return all.find((link) => link.lenderId === body.lenderId)!;
}

// ---- e-sign return tokens (decision 0030) ------------------------------------------------------

const TOKEN_PREFIX = 'les1';
/** How long an e-sign return link stays usable. */
export const ESIGN_TOKEN_TTL_SECONDS = 72 * 3600;
const TOKEN = /^les1\.(\d{10,12})\.(\d{1,20})\.([A-Za-z0-9_-]{43})$/;

/** The link's version: its updated_at in microseconds. Any write to the link changes it. */
const linkVersion = sql<string>`((extract(epoch from ${officeLenders.updatedAt}) * 1000000)::bigint)::text`;

/** A key of its own, derived from the borrower token secret, so neither kind of token can pass for the other. */
const tokenKey = (secret: Buffer) => createHmac('sha256', secret).update('office-lender-esign-token/v1').digest();

function signature(secret: Buffer, officeId: number, lenderId: number, expires: string, version: string): string {
  return createHmac('sha256', tokenKey(secret)).update(`${officeId}.${lenderId}.${expires}.${version}`).digest('base64url');
}

/**
 * The one-time token of a lender e-sign return URL (/lenders/esign/{lenderId}?officeId=…&token=…),
 * made when the e-sign session with the lender is created. It names the office, the lender, an
 * expiry and the link's current version, signed with HMAC-SHA256.
 */
export async function issueLenderESignToken(db: Db, secret: Buffer, officeId: number, lenderId: number, ttlSeconds = ESIGN_TOKEN_TTL_SECONDS): Promise<string> {
  const [link] = await db
    .select({ version: linkVersion })
    .from(officeLenders)
    .where(and(eq(officeLenders.officeId, officeId), eq(officeLenders.lenderId, lenderId)));
  if (!link) throw new HttpProblem(404, 'The office has not applied to this lender.');
  const expires = String(Math.floor(Date.now() / 1000) + ttlSeconds);
  return `${TOKEN_PREFIX}.${expires}.${link.version}.${signature(secret, officeId, lenderId, expires, link.version)}`;
}

const ESIGN_EVENTS: Record<Schemas['LenderEsignUpdate']['event'], Partial<typeof officeLenders.$inferInsert>> = {
  Completed: { isEnrollmentCompleted: true, showApply: false },
  Declined: { status: 'Cancelled', isEnrollmentCompleted: false, showApply: true },
  Cancelled: { status: 'Cancelled', isEnrollmentCompleted: false, showApply: true },
};

/**
 * Office_UpdateLenderESign: records the outcome of the office's e-sign at a lender. The token must be
 * signed by this server for this office and lender, unexpired, and issued for the link as it still
 * is: the update compares the version and changes it, so a token works once, and none issued before
 * another change of the link works at all. Every failure reads the same (401).
 */
export async function recordLenderESign(db: Db, secret: Buffer, body: Schemas['LenderEsignUpdate']): Promise<void> {
  const refused = () => new HttpProblem(401, 'The e-sign link is not valid, has expired or was already used.');
  const match = TOKEN.exec(body.token);
  if (!match) throw refused();
  const [, expires = '', version = '', given = ''] = match;
  const expected = signature(secret, body.officeId, body.lenderId, expires, version);
  if (!timingSafeEqual(Buffer.from(given), Buffer.from(expected))) throw refused();
  if (Number(expires) * 1000 < Date.now()) throw refused();
  await db.transaction(async (tx) => {
    const updated = await tx
      .update(officeLenders)
      .set({ ...ESIGN_EVENTS[body.event], updatedAt: sql`now()` })
      .where(
        and(
          eq(officeLenders.officeId, body.officeId),
          eq(officeLenders.lenderId, body.lenderId),
          sql`${linkVersion} = ${version}`,
          or(isNull(officeLenders.status), notInArray(officeLenders.status, ['Completed', 'Cancelled'])),
        ),
      )
      .returning({ lenderId: officeLenders.lenderId });
    if (updated.length === 0) throw refused();
    if (body.event !== 'Completed') return;
    const [lender] = await tx.select({ code: lenders.code, name: lenders.name }).from(lenders).where(eq(lenders.id, body.lenderId));
    await recordEvent(tx, { type: 'office.lender_enrolled', officeId: body.officeId, subject: { kind: 'lender', id: lender?.code ?? body.lenderId }, data: { lenderCode: lender?.code ?? null, lenderName: lender?.name ?? null } });
  });
}
