import { eq, sql } from 'drizzle-orm';
import type { components } from '../../../codegen/generated/api.ts';
import type { Db } from '../../db/index.ts';
import { offices } from '../../db/schema.ts';
import { bankNumberValues } from '../offices/enrollment.ts';
import { BANK_ACCOUNT_TYPES } from '../offices/mapping.ts';
import { given, lockOffice } from '../offices/records.ts';

/**
 * AdminAch_UpsertAchInfo (df.admin): the office's ACH provider, account, verification and debit
 * authorisation. The times of verification and authorisation are the server's, set when the status
 * becomes Verified / Authorized and cleared when it stops being so. Bank numbers, when given, are
 * stored encrypted like the office's own. This is also how a platform admin resets a micro-deposit
 * verification (decision 0152): any status but Locked gives the office its tries back, and NotStarted
 * forgets the deposits sent, so the office sends new ones.
 */
export async function upsertAchInfo(db: Db, piiKey: Buffer, officeId: number, body: components['schemas']['AchInfoUpsert']): Promise<void> {
  await db.transaction(async (tx) => {
    const stored = await lockOffice(tx, officeId);
    const verified = body.achVerifyStatus === 'Verified';
    const authorized = body.achDebitStatus === 'Authorized';
    await tx
      .update(offices)
      .set({
        achProvider: body.achProvider,
        achAccountId: given(body.achAccountId, stored.achAccountId),
        achVerifyStatus: body.achVerifyStatus,
        achVerifiedAt: verified ? (stored.achVerifyStatus === 'Verified' && stored.achVerifiedAt ? stored.achVerifiedAt : sql`now()`) : null,
        ...(body.achVerifyStatus !== 'Locked' && { achVerifyFailures: 0 }),
        ...(body.achVerifyStatus === 'NotStarted' && { achDepositsSentAt: null }),
        achDebitStatus: body.achDebitStatus,
        achDebitAuthorizedAt: authorized ? (stored.achDebitStatus === 'Authorized' && stored.achDebitAuthorizedAt ? stored.achDebitAuthorizedAt : sql`now()`) : null,
        ...(body.bankAccountType !== undefined && { bankAccountType: BANK_ACCOUNT_TYPES[body.bankAccountType] }),
        ...(body.routingNumber && body.accountNumber ? bankNumberValues(piiKey, body.routingNumber, body.accountNumber) : {}),
        updatedAt: sql`now()`,
      })
      .where(eq(offices.id, officeId));
  });
}
