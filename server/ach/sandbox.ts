import { randomInt, randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { decryptPii, encryptPii } from '../crypto/pii.ts';
import { achSandboxDeposits } from '../db/schema.ts';
import type { AchProvider } from './types.ts';

/** A deposit amount in cents: 1 to 99. */
const deposit = () => randomInt(1, 100);

/**
 * The sandbox ACH provider: it moves no money and is its own bank. It "sends" two random deposits, keeps them
 * encrypted (ach_sandbox_deposits) and hands them back as the statement the office reads them from.
 */
export function sandboxAchProvider(piiKey: Buffer): AchProvider {
  return {
    name: 'sandbox',
    async sendMicroDeposits(db, account) {
      const amountsCents = [deposit(), deposit()] as const;
      const accountId = `ba_sandbox_${randomUUID()}`;
      await db.insert(achSandboxDeposits).values({ accountId, officeId: account.officeId, amountsEnc: encryptPii(piiKey, amountsCents.join(',')) });
      return { accountId, statement: { amountsCents } };
    },
    async checkMicroDeposits(db, accountId, amountsCents) {
      const [row] = await db.select({ amountsEnc: achSandboxDeposits.amountsEnc }).from(achSandboxDeposits).where(eq(achSandboxDeposits.accountId, accountId));
      if (!row) return 'unknown';
      const sorted = (values: readonly number[]) => [...values].sort((a, b) => a - b).join(',');
      return sorted(decryptPii(piiKey, row.amountsEnc).split(',').map(Number)) === sorted(amountsCents) ? 'match' : 'mismatch';
    },
  };
}
