import type { Db } from '../db/index.ts';

/**
 * The ACH provider interface (decision 0152): who verifies an office's bank account by micro-deposits. The sandbox
 * (sandbox.ts) is the default; a real provider implements the same two calls over its API and is chosen by name
 * (registry.ts). How many wrong pairs an office may type is the platform's rule, not the provider's: the caller counts.
 */

/** The account to verify; the numbers are in clear here, so providers run server-side only. */
export interface BankAccount {
  officeId: number;
  routingNumber: string;
  accountNumber: string;
  accountType: 'Checking' | 'Savings' | null;
}

export interface SentDeposits {
  /** The provider's id of the account the deposits went to; confirmations name it. */
  accountId: string;
  /**
   * What the account holder's bank statement shows, when the provider is the bank too (the sandbox): the caller
   * delivers it as a statement. A real provider leaves it out — the office reads its own statement.
   */
  statement?: { amountsCents: readonly [number, number] };
}

export type DepositCheck = 'match' | 'mismatch' | 'unknown';

export interface AchProvider {
  /** Stored as the office's achProvider; chooses the provider again for the confirmation. */
  readonly name: string;
  /** Sends two deposits of 1 to 99 cents each to the account. Runs in the caller's transaction. */
  sendMicroDeposits(db: Db, account: BankAccount): Promise<SentDeposits>;
  /** Are these the two deposits sent to the account (in either order)? `unknown`: no deposits were sent to it. */
  checkMicroDeposits(db: Db, accountId: string, amountsCents: readonly [number, number]): Promise<DepositCheck>;
}
