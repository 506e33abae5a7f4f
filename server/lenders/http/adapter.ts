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
import type { Applicant, LenderAdapter, LenderEventEffect, LenderOrderAnswer, PrequalAnswer, StoredOffer } from '../types.ts';
import { identityQuestionsOf, prequalAnswerOf } from './answers.ts';
import { watchLenderNews, type LenderNewsWatch } from './news.ts';
import { contractEffectOf } from '../events.ts';
import { lenderClient, type CallOptions, type CallResult, type ClientDependencies, type LenderEndpoint, type OperationName } from './client.ts';
import { MappingError, read, render } from './mapping.ts';
import { HttpProblem } from '../../http/problem.ts';

/** Where the adapter tells what went wrong with a lender: the lender, the operation, why (no personal data). */
export type LenderLog = (entry: { lender: string; operation: OperationName; reason: string }) => void;

/** A lender's answer that says it has not decided yet. */
const isPending = (mapped: unknown) => !!mapped && typeof mapped === 'object' && (mapped as Record<string, unknown>).status === 'Pending';

/** A lender that could not do what was asked now: a 503 in words, which the borrower may try again. */
const unavailable = (name: string) => new HttpProblem(503, `${name} is not available at the moment. Try again in a few minutes.`);

/** How often a decision still pending is read again while the waterfall waits, unless the file says (`http.pollMs`). */
const POLL_MS = 500;
/** What a waiting pre-qualification keeps for itself before the waterfall's deadline, to answer in time. */
const ANSWER_MARGIN_MS = 100;

/** Where the lender reaches the portal: its callback route (decisions, signatures). */
export interface PortalAddresses {
  callbackUrl: string;
}

const errorAnswer = (): PrequalAnswer => ({ status: 'Error', lenderAppId: null, lenderAppUrl: null, adverseActionReason: null, reasonCodes: [], approvedAmount: null, offers: [], expiresAt: null });

export function httpAdapter(descriptor: LenderDescriptor, endpoint: LenderEndpoint | undefined, portal: PortalAddresses, log: LenderLog, dependencies: ClientDependencies = {}): LenderAdapter {
  const http = descriptor.http as LenderHttp;
  const client = lenderClient(descriptor.code, http, endpoint, dependencies);
  const lender = { code: descriptor.code, name: descriptor.name };

  /** The call's answer read by its mapping, or why there is none. */
  async function answerOf(name: OperationName, context: Context, options: CallOptions = {}): Promise<{ mapped: unknown; result: CallResult } | { mapped: undefined; result: CallResult }> {
    const result = await client.call(name, context, options);
    if (result.kind === 'outcome') {
      log({ lender: lender.code, operation: name, reason: result.reason });
      return { mapped: undefined, result };
    }
    const mapping = http.operations[name]!.answer;
    return { mapped: mapping === undefined ? result.body : render(mapping, { ...context, response: result }, `/http/operations/${name}/answer`), result };
  }

  /** A call whose answer the journey needs: an outcome or a mapping error is the lender being unavailable now. */
  async function needed(name: OperationName, context: Context, options: CallOptions = {}): Promise<Record<string, unknown>> {
    try {
      const { mapped } = await answerOf(name, context, options);
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

  /**
   * An order (finalize, fund, refund): the lender's reference, or its refusal (an answer the file maps as not
   * accepted, or a 4xx), which is final; a lender that cannot be reached now throws, and the order is tried again.
   */
  async function order(name: OperationName, context: Context, options: CallOptions = {}): Promise<LenderOrderAnswer> {
    if (!http.operations[name]) return { accepted: false, reason: `the lender file describes no '${name}' call` };
    const place = `/http/operations/${name}/answer`;
    try {
      const { mapped, result } = await answerOf(name, context, options);
      if (mapped === undefined) {
        if (result.kind === 'outcome' && (result.is === 'BadRequest' || result.is === 'Declined')) return { accepted: false, reason: result.reason };
        throw unavailable(lender.name);
      }
      const answer = (mapped ?? {}) as Record<string, unknown>;
      if (answer.accepted === false) return { accepted: false, reason: read.optionalText(answer.reason, `${place}/reason`) ?? 'not accepted' };
      return { accepted: true, reference: read.text(answer.reference, `${place}/reference`) };
    } catch (error) {
      if (!(error instanceof MappingError)) throw error;
      log({ lender: lender.code, operation: name, reason: error.message });
      throw unavailable(lender.name);
    }
  }

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

  /**
   * A lender that answers 'Pending' decides later (202, then a callback): its status is read again when its callback
   * arrives or every `pollMs`, until it decides or the waterfall's deadline nears; then it is PendingReview, with its
   * application id, so that the callback that comes later is taken.
   */
  async function decided(first: unknown, signal: AbortSignal, deadline: number, discountRate: number | null): Promise<PrequalAnswer> {
    let mapped = first;
    const place = '/http/operations/prequalify/answer';
    // Watched from the first wait to the decision: a callback that comes while the status is being read is this
    // pre-qualification's news too, not applied beside it.
    let watch: LenderNewsWatch | undefined;
    try {
      while (isPending(mapped)) {
        const lenderAppId = read.text((mapped as Record<string, unknown>).lenderAppId, `${place}/lenderAppId`);
        const left = deadline - Date.now() - ANSWER_MARGIN_MS;
        if (!http.operations.status || left <= 0 || signal.aborted) return { ...errorAnswer(), status: 'PendingReview', lenderAppId };
        watch ??= watchLenderNews(lender.code, lenderAppId);
        await watch.wait(Math.min(http.pollMs ?? POLL_MS, left), signal);
        const { mapped: now } = await answerOf('status', base({ id: null, lenderAppId }), { signal });
        if (now !== undefined) mapped = now;
      }
      return prequalAnswerOf(mapped, place, discountRate);
    } finally {
      watch?.close();
    }
  }

  return {
    code: descriptor.code,
    descriptor,

    async prequalify(applicant: Applicant, { signal, discountRate, deadline }) {
      const context = { ...base({ id: applicant.appId, amount: applicant.amount }), applicant, discountRate, portal };
      try {
        const { mapped, result } = await answerOf('prequalify', context, { signal });
        if (mapped === undefined) {
          if (result.kind === 'outcome' && (result.is === 'Declined' || result.is === 'PendingReview')) return { ...errorAnswer(), status: result.is };
          return errorAnswer();
        }
        return await decided(mapped, signal, deadline, discountRate);
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

    async select({ appId, lenderAppId, productCode, amount, returnUrl }) {
      const mapped = await needed('select', { ...base({ id: appId, lenderAppId, amount }), offer: { productCode, amount } });
      const contractId = read.text(mapped.contractId, '/http/operations/select/answer/contractId');
      const lenderAppUrl = read.optionalText(mapped.lenderAppUrl, '/http/operations/select/answer/lenderAppUrl');
      if (descriptor.journey.esign !== 'lender') return { contractId, lenderAppUrl };
      // The lender hosts the signing: where the borrower signs is opened now, with where they come back to.
      const signing = await needed('signing', { ...base({ id: appId, lenderAppId, contractId }), portal: { ...portal, returnUrl } });
      return { contractId, lenderAppUrl: read.text(signing.url, '/http/operations/signing/answer/url') };
    },

    async kba({ lenderAppId }) {
      const mapped = await needed('identityQuestions', base({ lenderAppId }));
      return { checkedBy: 'lender', questions: identityQuestionsOf(mapped, '/http/operations/identityQuestions/answer') };
    },

    async checkIdentity({ appId, lenderAppId, answers }) {
      const mapped = await needed('identityAnswers', { ...base({ id: appId, lenderAppId }), answers });
      return mapped.passed === true;
    },

    async esignDocuments({ appId, lenderAppId, contractId, lenderAppUrl }) {
      const mapped = await needed('signing', base({ id: appId, lenderAppId, contractId, lenderAppUrl }));
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
      const contract = contractEffectOf(event);
      if (event.eventType !== 'Decision' && event.eventType !== 'OfferUpdate') return contract;
      // A decision that cannot be read back now is not lost: the callback's job is tried again (decision 0262).
      const read = await statusOf({ appId: applicant.appId, lenderAppId: event.lenderAppId });
      if (!read?.decision) throw unavailable(lender.name);
      return { ...contract, decision: read.decision };
    },

    finalize: ({ appId, lenderAppId, contractId }) => order('finalize', base({ id: appId, lenderAppId, contractId })),
    fund: ({ appId, lenderAppId, contractId, amount, idempotencyKey }) => order('fund', { ...base({ id: appId, lenderAppId, contractId }), fund: { amount } }, { idempotencyKey }),
    refund: ({ appId, lenderAppId, contractId, amount, idempotencyKey }) => order('refund', { ...base({ id: appId, lenderAppId, contractId }), refund: { amount } }, { idempotencyKey }),
  };
}
