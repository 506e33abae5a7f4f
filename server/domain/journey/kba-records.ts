import { createHmac } from 'node:crypto';
import { desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/index.ts';
import { kbaQuizzes } from '../../db/schema.ts';

/** Wrong quizzes a borrower may fail before signing is refused, and how long a quiz stays open. */
export const KBA_ATTEMPTS = 2;
export const KBA_MINUTES = 15;

/** Answers are kept as HMACs under a key derived from the borrower token secret, per quiz and question. */
export function kbaAnswerHash(secret: Buffer, quizId: string, questionId: string, choiceId: string): string {
  const key = createHmac('sha256', secret).update('kba-answers/v1').digest();
  return createHmac('sha256', key).update(`${quizId}\n${questionId}\n${choiceId}`).digest('hex');
}

export async function kbaSummary(db: Db, appId: number): Promise<{ status: 'Pending' | 'Passed' | 'Failed' | null; failed: number }> {
  const rows = await db.select({ status: kbaQuizzes.status }).from(kbaQuizzes).where(eq(kbaQuizzes.appId, appId)).orderBy(desc(kbaQuizzes.id));
  const failed = rows.filter((r) => r.status === 'Failed').length;
  if (rows.some((r) => r.status === 'Passed')) return { status: 'Passed', failed };
  if (failed >= KBA_ATTEMPTS) return { status: 'Failed', failed };
  return { status: rows.length ? 'Pending' : null, failed };
}
