/**
 * The lender adapter over HTTP, described by the lender's file (issue 38, `"adapter": "http"`): each method is one
 * call of `http.operations`, its request made and its answer read by the file's templates. A lender that does not
 * answer, answers late, or answers what its mapping cannot read is that lender's 'Error' for this application (logged
 * with the lender, the operation and the place in the mapping, never the data), not a failure of the waterfall.
 */
import type { LenderHttp } from '../../../codegen/generated/descriptors.ts';
import type { Context } from '../../../core/expressions.ts';
import { repriceTerms, type PricedTerms } from '../../../core/lenders/payments.ts';
import type { LenderDescriptor } from '../../../core/lenders/descriptor.ts';
import type { Applicant, LenderAdapter, LenderEventEffect, PrequalAnswer, StoredOffer } from '../types.ts';
import { prequalAnswerOf } from './answers.ts';
import { lenderClient, type CallResult, type ClientDependencies, type LenderEndpoint, type OperationName } from './client.ts';
import { MappingError, read, render } from './mapping.ts';
import { HttpProblem } from '../../http/problem.ts';

/** Where the adapter tells what went wrong with a lender: the lender, the operation, why (no personal data). */
export type LenderLog = (entry: { lender: string; operation: OperationName; reason: string }) => void;

/** A lender that could not do what was asked now: a 503 in words, which the borrower may try again. */
const unavailable = (name: string) => new HttpProblem(503, `${name} is not available at the moment. Try again in a few minutes.`);

const errorAnswer = (): PrequalAnswer => ({ status: 'Error', lenderAppId: null, lenderAppUrl: null, adverseActionReason: null, reasonCodes: [], approvedAmount: null, offers: [], expiresAt: null });

export function httpAdapter(descriptor: LenderDescriptor, endpoint: LenderEndpoint | undefined, log: LenderLog, dependencies: ClientDependencies = {}): LenderAdapter {
  const http = descriptor.http as LenderHttp;
  const client = lenderClient(descriptor.code, http, endpoint, dependencies);
  const lender = { code: descriptor.code, name: descriptor.name };

  /** The call's answer read by its mapping, or why there is none. */
  async function answerOf(name: OperationName, context: Context, signal?: AbortSignal): Promise<{ mapped: unknown; result: CallResult } | { mapped: undefined; result: CallResult }> {
    const result = await client.call(name, context, signal ? { signal } : {});
    if (result.kind === 'outcome') {
      log({ lender: lender.code, operation: name, reason: result.reason });
      return { mapped: undefined, result };
    }
    const mapping = http.operations[name]!.answer;
    return { mapped: mapping === undefined ? result.body : render(mapping, { ...context, response: result }, `/http/operations/${name}/answer`), result };
  }

  /** A call whose answer the journey needs: an outcome or a mapping error is the lender being unavailable now. */
  async function needed(name: OperationName, context: Context): Promise<Record<string, unknown>> {
    try {
      const { mapped } = await answerOf(name, context);
      if (mapped === undefined) throw unavailable(lender.name);
      if (!mapped || typeof mapped !== 'object') throw new MappingError(`/http/operations/${name}/answer`, 'expected an object');
      return mapped as Record<string, unknown>;
    } catch (error) {
      if (error instanceof MappingError) {
        log({ lender: lender.code, operation: name, reason: error.message });
        throw unavailable(lender.name);
      }
      throw error;
    }
  }

  const base = (app: Record<string, unknown>) => ({ lender, app });

  async function statusOf({ appId, lenderAppId }: { appId: number; lenderAppId: string | null }): Promise<LenderEventEffect | null> {
    if (!http.operations.status) return null;
    try {
      const { mapped } = await answerOf('status', base({ id: appId, lenderAppId }));
      return mapped === undefined ? null : { decision: prequalAnswerOf(mapped, '/http/operations/status/answer', null) };
    } catch (error) {
      if (!(error instanceof MappingError)) throw error;
      log({ lender: lender.code, operation: 'status', reason: error.message });
      return null;
    }
  }

  return {
    code: descriptor.code,
    descriptor,

    async prequalify(applicant: Applicant, { signal, discountRate }) {
      const context = { ...base({ id: applicant.appId, amount: applicant.amount }), applicant, discountRate };
      try {
        const { mapped, result } = await answerOf('prequalify', context, signal);
        if (mapped !== undefined) return prequalAnswerOf(mapped, '/http/operations/prequalify/answer', discountRate);
        if (result.kind === 'outcome' && (result.is === 'Declined' || result.is === 'PendingReview')) return { ...errorAnswer(), status: result.is };
        return errorAnswer();
      } catch (error) {
        if (!(error instanceof MappingError)) throw error;
        log({ lender: lender.code, operation: 'prequalify', reason: error.message });
        return errorAnswer();
      }
    },

    reprice(offer: StoredOffer, amount, discountRate): PricedTerms | null {
      const { productName, productType, term, apr, amount: offered, minLine, maxLine } = offer;
      if (productName === null || productType === null || term === null || apr === null || offered === null || minLine === null || maxLine === null) return null;
      return repriceTerms(
        { ...offer, productName, productType, term, apr, amount: offered, minLine, maxLine, interestRate: apr, monthlyPayment: 0, totalCost: 0, totalInterest: 0, discountRate, discountAmount: 0, originationFee: offer.originationFee ?? 0, promoMonthlyPayment: null },
        amount,
        discountRate,
      );
    },

    async select({ appId, lenderAppId, productCode, amount }) {
      const mapped = await needed('select', { ...base({ id: appId, lenderAppId, amount }), offer: { productCode, amount } });
      return { contractId: read.text(mapped.contractId, '/http/operations/select/answer/contractId'), lenderAppUrl: read.optionalText(mapped.lenderAppUrl, '/http/operations/select/answer/lenderAppUrl') };
    },

    async kba() {
      throw new HttpProblem(409, `The identity questions of ${lender.name} cannot be asked in the portal yet.`);
    },

    async esignDocuments({ appId, contractId, lenderAppUrl }) {
      const mapped = await needed('signing', base({ id: appId, contractId, lenderAppUrl }));
      const hostedBy = read.oneOf(mapped.hostedBy, ['platform', 'lender'] as const, '/http/operations/signing/answer/hostedBy');
      const clauses = read.list(mapped.clauses, '/http/operations/signing/answer/clauses').map((clause, i) => {
        const place = `/http/operations/signing/answer/clauses/${i}`;
        const c = (clause ?? {}) as Record<string, unknown>;
        return { title: read.text(c.title, `${place}/title`), text: read.text(c.text, `${place}/text`) };
      });
      return { hostedBy, url: read.optionalText(mapped.url, '/http/operations/signing/answer/url'), clauses };
    },

    status: statusOf,

    // A callback is a thin event (decision 0259): a decision or new offers are read back by the status call, so that
    // what the portal stores has passed the same mapping as a pre-qualification's answer.
    async callback(event, applicant) {
      const contract = event.contractStatus === undefined ? {} : { contractStatus: event.contractStatus, ...(event.contractSubStatus ? { contractSubStatus: event.contractSubStatus } : {}) };
      if (event.eventType !== 'Decision' && event.eventType !== 'OfferUpdate') return contract;
      const read = await statusOf({ appId: applicant.appId, lenderAppId: event.lenderAppId });
      return { ...contract, ...(read?.decision ? { decision: read.decision } : {}) };
    },

    async refund({ contractId, amount }) {
      const mapped = await needed('refund', { ...base({ contractId }), refund: { amount } });
      return { accepted: mapped.accepted !== false, reference: read.text(mapped.reference, '/http/operations/refund/answer/reference') };
    },
  };
}
