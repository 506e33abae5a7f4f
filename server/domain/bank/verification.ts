import { eq, sql } from 'drizzle-orm';
import type { components } from '../../../codegen/generated/api.ts';
import { achProvider, DEFAULT_ACH_PROVIDER } from '../../ach/registry.ts';
import { decryptPii } from '../../crypto/pii.ts';
import type { Db } from '../../db/index.ts';
import { offices } from '../../db/schema.ts';
import { HttpProblem } from '../../http/problem.ts';
import { bankStatementEmail } from '../../notify/messages.ts';
import { sendEmail } from '../../notify/outbox.ts';
import { activeAdminContacts, type MailContext } from '../offices/office-mail.ts';
import { lockOffice, message } from '../offices/records.ts';
import { toCents } from '../values.ts';
import { MAX_WRONG_PAIRS, triesLeft } from '../offices/bank-tries.ts';

type OfficeRecord = typeof offices.$inferSelect;

/** The office admin's bank verification page (route `settings-bank`), linked from the statement. */
const bankLink = (publicUrl: string) => `${publicUrl}/#/settings/bank`;

const lockedProblem = (office: OfficeRecord) =>
  HttpProblem.conflict(`Bank verification of ${office.name} is locked after ${MAX_WRONG_PAIRS} wrong tries: ask support to reset it.`);

/**
 * Office_StartBankVerification (decision 0152): the ACH provider sends two deposits to the account on file and the
 * office is Pending until it confirms them. Deposits already waiting are not sent again (a second click sends
 * nothing); a verified or locked account, an office without bank numbers and a terminated office answer 409. The
 * sandbox's statement goes to the office's active admins.
 */
export async function sendDeposits(db: Db, piiKey: Buffer, officeId: number, mail: MailContext): Promise<void> {
  await db.transaction(async (tx) => {
    const office = await lockOffice(tx, officeId);
    if (office.enrollmentStatus === 'Terminated') throw HttpProblem.conflict(`${office.name} is terminated: its bank account cannot be verified.`);
    if (office.achVerifyStatus === 'Verified') throw HttpProblem.conflict(`The bank account ending in ${office.bankAccountLast4} is already verified.`);
    if (office.achVerifyStatus === 'Locked') throw lockedProblem(office);
    if (office.achVerifyStatus === 'Pending' && office.achDepositsSentAt !== null) return;
    if (!office.bankRoutingNumberEnc || !office.bankAccountNumberEnc) {
      throw HttpProblem.conflict('There is no bank account to verify yet: save its routing and account numbers first.');
    }
    const provider = achProvider(DEFAULT_ACH_PROVIDER, piiKey)!;
    // The office row stays locked while the provider works, so two clicks never send two pairs of deposits.
    const sent = await provider.sendMicroDeposits(tx, {
      officeId,
      routingNumber: decryptPii(piiKey, office.bankRoutingNumberEnc),
      accountNumber: decryptPii(piiKey, office.bankAccountNumberEnc),
      accountType: office.bankAccountType,
    });
    await tx
      .update(offices)
      .set({
        achProvider: provider.name, achAccountId: sent.accountId, achVerifyMethod: 'MicroDeposits', achVerifyStatus: 'Pending', achVerifiedAt: null,
        achDepositsSentAt: sql`now()`, achVerifyFailures: 0, updatedAt: sql`now()`,
      })
      .where(eq(offices.id, officeId));
    if (sent.statement) {
      for (const admin of await activeAdminContacts(tx, officeId)) {
        await sendEmail(
          tx,
          bankStatementEmail({
            to: admin.email, firstName: admin.firstName, officeName: office.name, accountLast4: office.bankAccountLast4 ?? '',
            amountsCents: sent.statement.amountsCents, url: bankLink(mail.publicUrl), brandName: mail.brandName,
          }),
        );
      }
    }
  });
}

/** The catalogue's words for a wrong pair, by the tries it leaves. */
function mismatchMessage(failures: number): string {
  const left = triesLeft(failures);
  if (left === 0) return message('depositsLocked');
  return left === 1 ? message('depositsMismatchLastTry') : message('depositsMismatch', left);
}

/**
 * Office_ConfirmBankVerification (decision 0152): the two amounts, in either order, verify the account. A wrong pair
 * is counted (and committed) before the 400 that says how many tries are left; the third locks verification until a
 * platform admin resets it. An account already verified answers unchanged, so a double click acts once.
 */
export async function confirmDeposits(db: Db, piiKey: Buffer, body: components['schemas']['BankVerificationConfirm']): Promise<void> {
  const failures = await db.transaction(async (tx) => {
    const office = await lockOffice(tx, body.officeId);
    if (office.achVerifyStatus === 'Verified') return 0;
    if (office.achVerifyStatus === 'Locked') throw lockedProblem(office);
    const notWaiting = HttpProblem.conflict('No deposits are waiting to be confirmed: send the two deposits first.');
    if (office.achVerifyStatus !== 'Pending' || !office.achAccountId || !office.achProvider) throw notWaiting;
    const provider = achProvider(office.achProvider, piiKey);
    if (!provider) throw HttpProblem.conflict(`The ACH provider '${office.achProvider}' is not available here: ask support to reset the verification.`);
    const check = await provider.checkMicroDeposits(tx, office.achAccountId, [toCents(body.amount1), toCents(body.amount2)]);
    if (check === 'unknown') throw notWaiting;
    if (check === 'match') {
      await tx
        .update(offices)
        .set({ achVerifyStatus: 'Verified', achVerifiedAt: sql`now()`, achVerifyFailures: 0, updatedAt: sql`now()` })
        .where(eq(offices.id, office.id));
      return 0;
    }
    const wrong = office.achVerifyFailures + 1;
    await tx
      .update(offices)
      .set({ achVerifyFailures: wrong, achVerifyStatus: wrong >= MAX_WRONG_PAIRS ? 'Locked' : 'Pending', updatedAt: sql`now()` })
      .where(eq(offices.id, office.id));
    return wrong;
  });
  // After the commit: the try counts even though the call fails.
  if (failures > 0) throw HttpProblem.validation({ amount2: [mismatchMessage(failures)] });
}
