import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sandboxKba } from '../core/lenders/identity-questions.ts';
import { latencyOf, newLenderAppId, repriceOffer, sandboxDecision } from '../core/lenders/underwriting.ts';
import type { Applicant } from '../core/lenders/terms.ts';
import { sleep } from './clock.ts';
import { problem, type ServiceContext } from './context.ts';
import { sameSecret } from './oauth.ts';
import { applicationView, type Contract, type LenderApplication } from './store.ts';
import { identityAnswersSchema, moneySchema, prequalifySchema, selectionSchema, signingSchema, type PrequalifyBody } from './schemas.ts';

/**
 * The lenders' API (lender-service/README.md): /lenders/{code}/… for every lender of screens/lenders/, each in its
 * style. Decisions and prices come from the shared underwriting (core/lenders/), as the in-process sandbox's do.
 */

type Params = { code: string; id?: string };
const upper = (code: string) => code.toUpperCase();

/** The caller is this lender's client: a bearer token issued to it, or (async-callback) the API key. */
function authorized(service: ServiceContext, request: FastifyRequest, code: string): boolean {
  if (service.lenders.get(code)!.style === 'async-callback') {
    const key = request.headers['x-api-key'];
    return typeof key === 'string' && sameSecret(key, service.config.apiKey);
  }
  return service.tokens.clientOf(request) === code;
}

const KEPT_ANSWERS = 10_000;

/** Money operations answer a repeat of their Idempotency-Key with the first answer, and do nothing again. */
function idempotent() {
  const answers = new Map<string, unknown>();
  return async (request: FastifyRequest, reply: FastifyReply, work: () => unknown) => {
    const key = request.headers['idempotency-key'];
    if (typeof key !== 'string' || key.length < 8 || key.length > 200) return problem(reply, 400, 'A money operation needs an Idempotency-Key header (8 to 200 characters).');
    const scoped = `${request.url}\n${key}`;
    if (answers.has(scoped)) return answers.get(scoped);
    const answer = await work();
    if (reply.statusCode >= 300) return answer;
    answers.set(scoped, answer);
    // The oldest keys go first, so a long bench keeps the process small.
    if (answers.size > KEPT_ANSWERS) answers.delete(answers.keys().next().value!);
    return answer;
  };
}

export function registerLenderApi(app: FastifyInstance, service: ServiceContext): void {
  const once = idempotent();

  app.register(async (scope) => {
    scope.addHook('onRequest', async (request, reply) => {
      const { code } = request.params as Params;
      if (!service.lenders.has(code)) return problem(reply, 404, `No lender '${code}' here.`);
      if (!authorized(service, request, code)) {
        return reply.code(401).header('www-authenticate', 'Bearer error="invalid_token"').type('application/problem+json').send({ type: 'about:blank', title: 'Unauthorized', status: 401, detail: 'A valid bearer token (or X-Api-Key) of this lender is required.' });
      }
    });

    /** The application of the path; answers 404 when this lender has none by that id. */
    const found = (request: FastifyRequest, reply: FastifyReply): LenderApplication | undefined => {
      const { code, id } = request.params as Params;
      const application = service.store.get(code, id!);
      if (!application) void problem(reply, 404, 'This lender has no application by that id.');
      return application;
    };

    scope.post('/lenders/:code/applications', { schema: { body: prequalifySchema } }, async (request, reply) => {
      const { code } = request.params as Params;
      const { descriptor, style } = service.lenders.get(code)!;
      const body = request.body as PrequalifyBody;
      if (style === 'async-callback' && !body.callbackUrl) return problem(reply, 400, 'This lender decides later: give a callbackUrl.');
      const application: LenderApplication = {
        code,
        lenderAppId: newLenderAppId(code),
        appId: body.appId,
        applicant: applicantOf(body),
        discountRate: body.discountRate ?? null,
        callbackUrl: body.callbackUrl ?? null,
        answer: null,
        contract: null,
        questions: null,
        identity: null,
        signing: null,
      };
      const decide = () => {
        application.answer = sandboxDecision(descriptor, application.applicant, { lenderAppId: application.lenderAppId, lenderAppUrl: null, discountRate: application.discountRate });
      };
      if (style === 'async-callback') {
        service.store.add(application);
        service.later(service.config.callbackDelayMs, async () => {
          decide();
          await sendDecision(service, application);
        });
        return reply.code(202).send(applicationView(application));
      }
      // The file's latency and failures, as the in-process sandbox simulates them.
      await sleep(latencyOf(descriptor.sandbox));
      if (descriptor.sandbox.failureRate > 0 && Math.random() < descriptor.sandbox.failureRate) return problem(reply, 503, `${code}: simulated failure`);
      decide();
      service.store.add(application);
      return applicationView(application);
    });

    scope.get('/lenders/:code/applications/:id', async (request, reply) => {
      const application = found(request, reply);
      if (application) return applicationView(application);
    });

    scope.post('/lenders/:code/applications/:id/selection', { schema: { body: selectionSchema } }, async (request, reply) => {
      const application = found(request, reply);
      if (!application) return;
      const { productCode, amount } = request.body as { productCode: string; amount?: number };
      const offer = application.answer?.offers.find((candidate) => candidate.productCode === productCode);
      if (!offer) return problem(reply, 409, 'There is no offer of that product on this application.');
      if (application.contract && application.contract.status !== 'Selected') return problem(reply, 409, 'The contract is already signed.');
      const terms = repriceOffer(service.lenders.get(application.code)!.descriptor, offer, amount ?? offer.amount, offer.discountRate);
      if (!terms) return problem(reply, 422, `The amount is outside the offer's line (${offer.minLine} to ${offer.maxLine} cents).`);
      application.contract = {
        contractId: `${upper(application.code)}-C${application.appId}-${randomBytes(3).toString('hex').toUpperCase()}`,
        productCode,
        terms,
        status: 'Selected',
        signedAt: null,
        finalizedAt: null,
        funding: null,
        refunds: [],
      };
      return applicationView(application);
    });

    scope.get('/lenders/:code/applications/:id/identity-questions', async (request, reply) => {
      const application = found(request, reply);
      if (!application) return;
      application.questions ??= sandboxKba(application.applicant);
      return { questions: application.questions.map(({ id, text, choices }) => ({ id, text, choices })) };
    });

    scope.post('/lenders/:code/applications/:id/identity-questions/answers', { schema: { body: identityAnswersSchema } }, async (request, reply) => {
      const application = found(request, reply);
      if (!application) return;
      if (!application.questions) return problem(reply, 409, 'Ask for the identity questions first.');
      const { answers } = request.body as { answers: Record<string, string> };
      const correct = application.questions.filter((question) => answers[question.id] === question.answerId).length;
      application.identity = { passed: correct === application.questions.length, correct, asked: application.questions.length };
      return application.identity;
    });

    scope.post('/lenders/:code/applications/:id/signing', { schema: { body: signingSchema } }, async (request, reply) => {
      const application = found(request, reply);
      if (!application) return;
      if (application.contract?.status !== 'Selected') return problem(reply, 409, 'Select an offer first; a signed contract is not signed again.');
      const { descriptor, style } = service.lenders.get(application.code)!;
      const documents = descriptor.disclosures.filter((d) => (d.showWith ?? 'both') !== 'offers').map((d) => ({ title: d.title, text: d.text }));
      if (style !== 'hosted-signing') return { hostedBy: 'platform', signingUrl: null, documents };
      const { returnUrl, callbackUrl } = request.body as { returnUrl?: string; callbackUrl?: string };
      if (!returnUrl) return problem(reply, 400, 'This lender hosts the signing: give the returnUrl the browser goes back to.');
      if (callbackUrl) application.callbackUrl = callbackUrl;
      if (!application.callbackUrl) return problem(reply, 400, 'This lender tells the completion by callback: give a callbackUrl.');
      const token = randomBytes(18).toString('base64url');
      service.store.startSigning(application, { token, returnUrl });
      return { hostedBy: 'lender', signingUrl: `${service.origin()}/signing/${encodeURIComponent(application.code)}/${token}`, documents };
    });

    scope.post('/lenders/:code/applications/:id/finalize', async (request, reply) => {
      const application = found(request, reply);
      if (!application) return;
      const contract = application.contract;
      const hosted = service.lenders.get(application.code)!.style === 'hosted-signing';
      // A lender that hosts the signing knows when it is signed; elsewhere the platform's signing is this call.
      if (!contract || (hosted ? contract.status !== 'Signed' : contract.status !== 'Selected' && contract.status !== 'Signed')) {
        return problem(reply, 409, hosted ? 'The borrower has not signed on the lender\'s page yet.' : 'Select an offer first; a finalized contract is not finalized again.');
      }
      const now = new Date().toISOString();
      contract.signedAt ??= now;
      contract.finalizedAt = now;
      contract.status = 'Finalized';
      return applicationView(application);
    });

    /**
     * A money operation on the application's contract: once per Idempotency-Key, its amount in cents. The key is the
     * caller's name for the order, sent back with the callback that tells the money moved (`orderKey`).
     */
    type Order = { amount: number; orderKey: string };
    const moneyRoute = (path: string, work: (application: LenderApplication, contract: Contract | null, order: Order, reply: FastifyReply) => unknown) =>
      scope.post(`/lenders/:code/applications/:id/${path}`, { schema: { body: moneySchema } }, async (request, reply) => {
        const application = found(request, reply);
        const order = { amount: (request.body as { amount: number }).amount, orderKey: String(request.headers['idempotency-key'] ?? '') };
        if (application) return once(request, reply, () => work(application, application.contract, order, reply));
      });

    // The money moves a moment later, and the caller is told by callback, as a lender's bank would.
    moneyRoute('fundings', (application, contract, { amount, orderKey }, reply) => {
      if (contract?.status !== 'Finalized') return problem(reply, 409, 'Only a finalized contract is funded, once.');
      if (amount > contract.terms.amount) return problem(reply, 422, `The amount is above the contract's ${contract.terms.amount} cents.`);
      contract.funding = { fundingId: `${contract.contractId}-F`, amount, fundedAt: new Date().toISOString() };
      contract.status = 'Funded';
      service.later(service.config.callbackDelayMs, () => sendMoneyNews(service, application, 'Funding', { fundingId: contract.funding!.fundingId, amountCents: amount, orderKey }));
      return contract.funding;
    });

    moneyRoute('refunds', (application, contract, { amount, orderKey }, reply) => {
      if (contract?.status !== 'Funded' || !contract.funding) return problem(reply, 409, 'Only a funded contract is refunded.');
      const refunded = contract.refunds.reduce((sum, refund) => sum + refund.amount, 0);
      if (refunded + amount > contract.funding.amount) return problem(reply, 422, `Refunds would pass the ${contract.funding.amount} cents funded (${refunded} refunded).`);
      const refund = { refundId: `${contract.contractId}-R${contract.refunds.length + 1}`, amount, reference: `${contract.contractId}-R${randomBytes(3).toString('hex').toUpperCase()}`, refundedAt: new Date().toISOString() };
      contract.refunds.push(refund);
      service.later(service.config.callbackDelayMs, () => sendMoneyNews(service, application, 'Refund', { refundId: refund.refundId, reference: refund.reference, amountCents: amount, orderKey }));
      return { ...refund, accepted: true };
    });
  });
}

/** The applicant's optional facts, as the caller leaves them out. */
const UNSAID = {
  email: null, mobilePhone: null, homePhone: null, additionalIncome: null, monthlyHousingPayment: null, employmentStatus: null,
  employerName: null, monthsEmployed: null, residenceStatus: null, isActiveMilitary: false, serviceDate: null,
};

function applicantOf(body: PrequalifyBody): Applicant {
  const { address, ...facts } = body.applicant;
  return { ...UNSAID, ...facts, address: { ...address, suiteNo: address.suiteNo ?? null }, appId: body.appId, amount: body.amount };
}

/** Money that moved, told by callback: the funding (the contract is then Funded) or a refund. */
async function sendMoneyNews(service: ServiceContext, application: LenderApplication, eventType: 'Funding' | 'Refund', data: Record<string, string | number>): Promise<void> {
  if (!application.callbackUrl) return;
  await service.callbacks.send(application.callbackUrl, {
    lenderCode: application.code,
    appId: application.appId,
    lenderAppId: application.lenderAppId,
    eventType,
    ...(eventType === 'Funding' ? { contractStatus: 'Funded' } : {}),
    data,
  });
}

/** The decision, told by callback: a thin event (the status); the offers are fetched with GET …/applications/{id}. */
export async function sendDecision(service: ServiceContext, application: LenderApplication): Promise<void> {
  const answer = application.answer!;
  if (!application.callbackUrl) return;
  await service.callbacks.send(application.callbackUrl, {
    lenderCode: application.code,
    appId: application.appId,
    lenderAppId: application.lenderAppId,
    eventType: 'Decision',
    decisionStatus: answer.status,
    ...(answer.status === 'Declined' && answer.adverseActionReason ? { data: { adverseActionReason: answer.adverseActionReason } } : {}),
  });
}
