import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { components } from '../../../codegen/generated/api.ts';
import type { Db } from '../../db/index.ts';
import { applications } from '../../db/schema.ts';
import type { Caller } from '../../http/caller.ts';
import { HttpProblem } from '../../http/problem.ts';
import { staffUserId, writeLogs } from '../applications/records.ts';

/**
 * Funding_Reconcile: the office matched deposits to its bank statement (or takes that back). All or none, under the
 * loans' locks in id order: each must be the office's (another office's id is not found, as if it did not exist) and
 * deposited; asking again for what is already so changes nothing and says so. Who did it goes on each loan's log.
 */
export async function reconcileDeposits(db: Db, caller: Caller, body: components['schemas']['FundingReconcile']): Promise<string> {
  const ids = [...new Set(body.appIds)].sort((a, b) => a - b);
  return db.transaction(async (tx) => {
    const locked = await tx
      .select({ id: applications.id, fundedAt: applications.fundedAt, reconciledAt: applications.reconciledAt, stage: applications.stage })
      .from(applications)
      .where(and(inArray(applications.id, ids), eq(applications.officeId, body.officeId)))
      .orderBy(asc(applications.id))
      .for('update');
    const missing = ids.filter((id) => !locked.some((app) => app.id === id));
    if (missing.length > 0) throw new HttpProblem(404, `Applications not found: ${missing.join(', ')}.`);
    const notDeposited = locked.filter((app) => app.fundedAt === null || app.stage === 'Cancelled');
    if (notDeposited.length > 0) {
      const which = `${notDeposited.map((app) => app.id).join(', ')} ${notDeposited.length === 1 ? 'has' : 'have'}`;
      throw new HttpProblem(409, `Only deposited loans can be reconciled: ${which} not been deposited yet.`, { extensions: { appIds: notDeposited.map((app) => app.id) } });
    }
    const changing = locked.filter((app) => (app.reconciledAt !== null) !== body.reconciled);
    if (changing.length === 0) return body.reconciled ? 'Already reconciled.' : 'None was reconciled.';
    await tx
      .update(applications)
      .set(body.reconciled ? { reconciledAt: sql`now()`, reconciledBy: staffUserId(caller) } : { reconciledAt: null, reconciledBy: null })
      .where(inArray(applications.id, changing.map((app) => app.id)));
    for (const app of changing) {
      await writeLogs(tx, app.id, caller, [
        { kind: 'Event', message: body.reconciled ? 'Deposit reconciled with the bank statement' : 'Reconciliation taken back', data: { reconciled: body.reconciled } },
      ]);
    }
    const noun = changing.length === 1 ? 'deposit' : 'deposits';
    return body.reconciled ? `${changing.length} ${noun} reconciled.` : `${changing.length} ${noun} no longer reconciled.`;
  });
}
