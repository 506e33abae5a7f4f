import type { FastifyInstance } from 'fastify';
import { declinedAnswer, offersFor } from '../core/lenders/underwriting.ts';
import { problem, type ServiceContext } from './context.ts';
import { parseFaults } from './faults.ts';
import { styleOf } from './config.ts';
import { parseLenderFile } from '../core/lenders/descriptor.ts';
import { sendDecision } from './lender-api.ts';

/**
 * The service's own controls (lender-service/README.md, "Admin"): faults per lender, the underwriter of a review, the
 * callbacks sent. The service listens on 127.0.0.1 only, and these answer only a caller there.
 */

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

export function registerAdmin(app: FastifyInstance, service: ServiceContext): void {
  app.register(async (scope) => {
    scope.addHook('onRequest', async (request, reply) => {
      if (!LOOPBACK.has(request.socket.remoteAddress ?? '')) return problem(reply, 403, 'The admin calls answer the local machine only.');
    });

    scope.get('/admin/faults', async () => Object.fromEntries(service.faults));

    scope.put('/admin/faults/:code', async (request, reply) => {
      const { code } = request.params as { code: string };
      if (!service.lenders.has(code)) return problem(reply, 404, `No lender '${code}' here.`);
      const faults = parseFaults(request.body);
      if (typeof faults === 'string') return problem(reply, 400, faults);
      service.faults.set(code, faults);
      return faults;
    });

    scope.delete('/admin/faults', async (_request, reply) => {
      service.faults.clear();
      return reply.code(204).send();
    });

    scope.get('/admin/callbacks', async () => service.callbacks.deliveries());

    // A lender file as a portal publishes it (expanded, checked as the folder's are): played from now on, in place of
    // the folder's file of that code, until the service restarts. The demo's portal sends its live files (decision 0264).
    scope.put('/admin/lenders/:code', async (request, reply) => {
      const { code } = request.params as { code: string };
      let descriptor;
      try {
        descriptor = parseLenderFile(`${code}.json`, JSON.stringify(request.body ?? null));
      } catch (error) {
        return problem(reply, 400, (error as Error).message);
      }
      const style = styleOf(service.config, descriptor);
      service.lenders.set(code, { descriptor, style });
      return { code, style };
    });

    // The books of a contract the caller's records say is further on than this service remembers (it forgets on
    // restart): the demo's portal opens its signed and funded loans again through the API, then sets them here as they
    // stand. Nothing is told back: no money moves, no callback is sent.
    scope.put('/admin/lenders/:code/applications/:id/contract', async (request, reply) => {
      const { code, id } = request.params as { code: string; id: string };
      const contract = service.store.get(code, id)?.contract;
      if (!contract) return problem(reply, 404, 'This lender has no contract on an application by that id: select an offer first.');
      const { status, fundedAmount } = (request.body ?? {}) as { status?: unknown; fundedAmount?: unknown };
      if (status !== 'Signed' && status !== 'Finalized' && status !== 'Funded') return problem(reply, 400, "status is 'Signed', 'Finalized' or 'Funded'.");
      const amount = fundedAmount ?? contract.terms.amount;
      if (status === 'Funded' && (!Number.isInteger(amount) || (amount as number) <= 0 || (amount as number) > contract.terms.amount)) {
        return problem(reply, 400, `fundedAmount is whole cents from 1 to the contract's ${contract.terms.amount}.`);
      }
      const now = new Date().toISOString();
      contract.status = status;
      contract.signedAt ??= now;
      if (status !== 'Signed') contract.finalizedAt ??= now;
      if (status === 'Funded') contract.funding ??= { fundingId: `${contract.contractId}-F`, amount: amount as number, fundedAt: now };
      return contract;
    });

    // The underwriter of an application in review: its decision goes to the caller by callback, or waits for a poll.
    scope.post('/admin/lenders/:code/applications/:id/decision', async (request, reply) => {
      const { code, id } = request.params as { code: string; id: string };
      const application = service.store.get(code, id);
      if (!application) return problem(reply, 404, 'This lender has no application by that id.');
      if (application.answer?.status !== 'PendingReview') return problem(reply, 409, 'This application is not in review.');
      const decision = (request.body as { decision?: unknown } | undefined)?.decision;
      if (decision !== 'Approved' && decision !== 'Declined') return problem(reply, 400, "decision is 'Approved' or 'Declined'.");
      const { lenderAppId, applicant, discountRate } = application;
      application.answer =
        decision === 'Approved'
          ? offersFor(service.lenders.get(code)!.descriptor, applicant, { lenderAppId, lenderAppUrl: null, discountRate })
          : declinedAnswer(lenderAppId, 'Declined by the lender after review');
      await sendDecision(service, application);
      return { status: application.answer.status };
    });
  });
}
