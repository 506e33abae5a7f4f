import { randomBytes, randomUUID } from 'node:crypto';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { components } from '../../../codegen/generated/api.ts';
import type { Db } from '../../db/index.ts';
import { kbaQuizzes } from '../../db/schema.ts';
import type { KbaQuestion } from '../../../codegen/generated/schemas.ts';
import type { Caller } from '../../http/caller.ts';
import { HttpProblem } from '../../http/problem.ts';
import type { Services } from '../../services.ts';
import { lockApplication, type ApplicationRecord } from '../applications/records.ts';
import { moveApplication } from '../applications/moves.ts';
import { applicantOf } from './applicant.ts';
import { appendESignEvent, esignEvents } from './esign-events.ts';
import { KBA_ATTEMPTS, KBA_MINUTES, kbaAnswerHash, kbaSummary } from './kba-records.ts';
import { adapterOf, catalogueOf, lenderAppIdOf } from '../offices/office-lenders.ts';
import { clientOf } from '../../http/client.ts';
import { wordsFor } from '../../descriptors/languages.ts';
import type { Words } from '../../../core/i18n.ts';

type Schemas = components['schemas'];
type Quiz = typeof kbaQuizzes.$inferSelect;

/**
 * Identity questions (knowledge-based authentication, docs/decisions/0109). Borrower only (0020). The
 * lender's adapter writes the questions — the sandbox from the application's own data, so the right
 * answers are what the borrower entered, and the server keeps only an HMAC of each right choice; a lender
 * that runs its own questions checks the answers itself, and the quiz keeps no hashes.
 * Two attempts: a failed first quiz is answered with a new one, a failed second ends in KBAFailed.
 */

/** The quiz as the borrower reads it: the lender's questions in their language where it has them (decision 0216). */
const toQuiz = (quiz: Quiz, words: Words): Schemas['KbaQuiz'] => ({
  appId: quiz.appId,
  transactionId: quiz.transactionId,
  status: quiz.status,
  quizId: quiz.quizId,
  questions: quiz.questions.map((question) => ({ ...question, text: words(question.text) })),
});

async function newQuiz(services: Services, tx: Db, app: ApplicationRecord): Promise<Quiz> {
  const adapter = adapterOf(catalogueOf(services), app.lenderCode);
  const asked = await adapter.kba({ applicant: applicantOf(app, services.settings.piiKey), lenderAppId: await lenderAppIdOf(tx, app.id, app.lenderId) });
  const quizId = randomUUID();
  const questions: KbaQuestion[] = asked.questions.map(({ id, text, choices }) => ({ id, text, choices }));
  const answerHashes = asked.checkedBy === 'lender' ? {} : Object.fromEntries(asked.questions.map((d) => [d.id, kbaAnswerHash(services.settings.borrowerTokenSecret, quizId, d.id, d.answerId)]));
  const [quiz] = await tx
    .insert(kbaQuizzes)
    .values({
      appId: app.id,
      transactionId: `${adapter.code.toUpperCase()}-KBA-${randomBytes(4).toString('hex').toUpperCase()}`,
      quizId,
      questions,
      answerHashes,
      expiresAt: new Date(Date.now() + KBA_MINUTES * 60_000),
    })
    .returning();
  return quiz!;
}

/** The answers checked where the quiz says: the hashes the portal kept, or the lender that asked. */
async function answersPass(services: Services, tx: Db, app: ApplicationRecord, quiz: Quiz, given: Map<string, string>): Promise<boolean> {
  if (Object.keys(quiz.answerHashes).length > 0) {
    return quiz.questions.every((q) => quiz.answerHashes[q.id] === kbaAnswerHash(services.settings.borrowerTokenSecret, quiz.quizId, q.id, given.get(q.id)!));
  }
  const adapter = adapterOf(catalogueOf(services), app.lenderCode);
  if (!adapter.checkIdentity) throw HttpProblem.conflict('The lender that asked these questions cannot check the answers now: ask for the questions again.');
  return adapter.checkIdentity({ appId: app.id, lenderAppId: await lenderAppIdOf(tx, app.id, app.lenderId), answers: Object.fromEntries(given) });
}

/** The ceremony must be open on this portal with the ESIGN consent given, and KBA neither passed nor failed. */
async function readyForKba(services: Services, tx: Db, appId: number): Promise<ApplicationRecord> {
  const app = await lockApplication(tx, appId);
  if (app.stage !== 'SigningRequired' || !app.contractId || adapterOf(catalogueOf(services), app.lenderCode).descriptor.journey.esign !== 'platform') {
    throw HttpProblem.conflict('The identity questions come with the loan documents: they are not open for this application.');
  }
  const events = await esignEvents(tx, app.id, app.contractId);
  if (!events.some((e) => e.type === 'consented')) throw HttpProblem.conflict('The ESIGN consent comes first (App_ESignConsent).');
  return app;
}

/** App_GetKBA: the open quiz, or a new one (sub-status KBAPending). */
export async function getQuiz(services: Services, caller: Caller, appId: number, words: Words): Promise<Schemas['KbaQuiz']> {
  return services.db.transaction(async (tx) => {
    const app = await readyForKba(services, tx, appId);
    const summary = await kbaSummary(tx, appId);
    if (summary.status === 'Passed') throw HttpProblem.conflict('The borrower has already passed the identity questions.');
    if (summary.status === 'Failed') throw HttpProblem.conflict('The identity questions failed twice: the office must verify the borrower.');
    const [open] = await tx
      .select()
      .from(kbaQuizzes)
      .where(and(eq(kbaQuizzes.appId, appId), eq(kbaQuizzes.status, 'Pending'), sql`${kbaQuizzes.expiresAt} > now()`))
      .orderBy(desc(kbaQuizzes.id))
      .limit(1);
    const quiz = open ?? (await newQuiz(services, tx, app));
    if (app.contractSubStatus !== 'KBAPending') {
      await moveApplication(tx, app, caller, { contractSubStatus: 'KBAPending', statusText: 'Borrower is answering the identity questions' }, 'Identity questions presented', { quizId: quiz.quizId });
    }
    return toQuiz(quiz, words);
  });
}

/** App_SubmitKBA: every question must be answered with its right choice. */
export async function submitQuiz(services: Services, caller: Caller, body: Schemas['KbaSubmit'], request: FastifyRequest): Promise<Schemas['KbaResult']> {
  return services.db.transaction(async (tx) => {
    const app = await readyForKba(services, tx, body.appId);
    const [quiz] = await tx.select().from(kbaQuizzes).where(and(eq(kbaQuizzes.appId, app.id), eq(kbaQuizzes.quizId, body.quizId))).for('update');
    if (!quiz) throw new HttpProblem(404, 'The quiz could not be found.');
    if (quiz.status !== 'Pending') throw HttpProblem.conflict('This quiz was already answered.');
    if (quiz.expiresAt <= new Date()) throw HttpProblem.conflict('This quiz has expired: ask for the questions again.');
    if (body.transactionId && body.transactionId !== quiz.transactionId) throw HttpProblem.validation({ transactionId: ['This field does not match the quiz.'] });
    const given = new Map(body.answers.map((a) => [a.questionId, a.choiceId]));
    const unknown = body.answers.find((a) => !quiz.questions.some((q) => q.id === a.questionId));
    if (unknown) throw HttpProblem.validation({ answers: [`Question ${unknown.questionId} is not part of this quiz.`] });
    const missing = quiz.questions.filter((q) => !given.has(q.id));
    if (missing.length) throw HttpProblem.validation({ answers: [`Answer every question (${missing.length} left).`] });
    const passed = await answersPass(services, tx, app, quiz, given);
    await tx
      .update(kbaQuizzes)
      .set({ status: passed ? 'Passed' : 'Failed', attempts: quiz.attempts + 1, completedAt: new Date() })
      .where(eq(kbaQuizzes.id, quiz.id));
    const client = clientOf(request);
    if (passed) {
      await appendESignEvent(tx, app, caller, client, 'kba-passed', { transactionId: quiz.transactionId });
      await moveApplication(tx, app, caller, { contractSubStatus: 'KBAPassed', statusText: 'Identity verified: ready to sign' }, 'Identity questions passed', { quizId: quiz.quizId });
      return { appId: app.id, status: 'Passed', contractSubStatus: 'KBAPassed', attemptsRemaining: null, quiz: null };
    }
    const failed = (await kbaSummary(tx, app.id)).failed;
    await appendESignEvent(tx, app, caller, client, 'kba-failed', { transactionId: quiz.transactionId, attempt: failed });
    if (failed >= KBA_ATTEMPTS) {
      await moveApplication(
        tx,
        app,
        caller,
        { stage: 'NeedsAttention', contractSubStatus: 'KBAFailed', statusText: 'Identity questions failed twice: the office must verify the borrower' },
        'Identity questions failed',
        { attempts: failed },
      );
      return { appId: app.id, status: 'Failed', contractSubStatus: 'KBAFailed', attemptsRemaining: 0, quiz: null };
    }
    const next = await newQuiz(services, tx, app);
    await moveApplication(tx, app, caller, { contractSubStatus: 'KBAPending', statusText: 'Identity questions: second attempt' }, 'Identity questions failed: second attempt', { attempts: failed });
    return { appId: app.id, status: 'Pending', contractSubStatus: 'KBAPending', attemptsRemaining: KBA_ATTEMPTS - failed, quiz: toQuiz(next, wordsFor(request.headers['accept-language'])) };
  });
}
