import type { components } from '../../../codegen/generated/api.ts';
import type { Applicant } from '../../../core/lenders/terms.ts';
import { liveSet } from '../../descriptors/live.ts';
import { HttpProblem } from '../../http/problem.ts';
import { lenderEndpointOf } from '../../lenders/http/endpoint.ts';
import { lenderAdapter } from '../../lenders/registry.ts';
import type { LenderLog } from '../../lenders/http/adapter.ts';
import type { Services } from '../../services.ts';
import { catalogueOf } from '../offices/office-lenders.ts';
import { toCents, toDollars } from '../values.ts';
import { draftLenders, draftProblems } from './publish.ts';

type Schemas = components['schemas'];
type Problem = Schemas['LenderTryResult']['problems'][number];

/**
 * The studio's 'Try it' (issue 38 item 5): a lender file as it would be published — drafted, or live — is asked to
 * pre-qualify a sample applicant at the lender's test environment (LENDER_<CODE>_TEST_URL and its secrets; in demo mode
 * the lender service), never its live address, and the product owner sees what the portal would record: the
 * decision, the offers, the reasons, and each problem of the call or of the mapping at its place in the file. Nothing
 * is written: no application, no lender row, no log line.
 */

/**
 * The sample application's id: one no application has (ids count up from 1), so that a lender that answers later and
 * calls back about it changes nothing.
 */
const SAMPLE_APP_ID = 2_147_483_647;

/** The same person each time; the sandbox rules read the last name (README, Sandbox rules). */
const LAST_NAMES: Record<Schemas['LenderTrySample'], string> = { Approve: 'Sample', Decline: 'Decline', Review: 'Pending', Counter: 'Counter' };

function sampleApplicant(sample: Schemas['LenderTrySample'], amount: number): Applicant {
  return {
    appId: SAMPLE_APP_ID, firstName: 'Sam', lastName: LAST_NAMES[sample], email: 'sam.sample@example.com', mobilePhone: '(512) 555-0100', homePhone: null,
    address: { streetAddress: '1234 Cedar Ln', suiteNo: '', city: 'Austin', state: 'TX', zipCode: '78704' },
    dob: '1985-04-12', ssn: '900123456', annualIncome: 60_000_00, additionalIncome: null, monthlyHousingPayment: 1_200_00,
    employmentStatus: 'EmployedFull', employerName: null, monthsEmployed: null, residenceStatus: 'Rent', isActiveMilitary: false, amount, serviceDate: null,
  };
}

/** A mapping's problem names its place first ('/http/operations/prequalify/answer/offers: expected a list'). */
function problemOf(operation: string, reason: string): Problem {
  const placed = /^(\/\S*): ([\s\S]*)$/.exec(reason);
  return { operation, place: placed ? placed[1]! : null, reason: (placed ? placed[2]! : reason).slice(0, 1000) };
}

export async function tryLender(services: Services, body: Schemas['LenderTry']): Promise<Schemas['LenderTryResult']> {
  const { settings } = services;
  const live = await liveSet(services.db);
  if ((await draftProblems(live, body.files)).length > 0) {
    throw HttpProblem.conflict('Fix the problems of the drafts first: a lender is tried as its file would be published.');
  }
  const liveOne = catalogueOf(services).descriptors.find((d) => d.code === body.code);
  const descriptor = draftLenders(live, body.files).find((d) => d.code === body.code) ?? liveOne;
  if (!descriptor) throw new HttpProblem(404, 'There is no lender file with that code, drafted or live.');
  const problems: Problem[] = [];
  const log: LenderLog = ({ operation, reason }) => void problems.push(problemOf(operation, reason));
  const overHttp = descriptor.adapter === 'http' && !settings.lendersInProcess;
  // A drafted file is a product owner's, not yet the platform's: it is sent only to the lender's test environment.
  const endpoint = overHttp ? lenderEndpointOf(settings, descriptor.code, 'test') : undefined;
  if (overHttp && !endpoint) {
    throw HttpProblem.conflict(`${descriptor.name} has no test environment configured (LENDER_${descriptor.code.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_TEST_URL): a lender is tried there, never at its live address.`);
  }
  // A draft of a live lender tries its mapping against that lender as it answers now; a new one is taught to the
  // demo's lender service, which has nothing else to play it from.
  const adapter = lenderAdapter(descriptor, settings, { log, environment: 'test', teach: !liveOne });
  const started = Date.now();
  const deadline = started + settings.lenderTimeoutMs;
  let answer;
  try {
    answer = await adapter.prequalify(sampleApplicant(body.sample, toCents(body.amount)), { signal: AbortSignal.timeout(settings.lenderTimeoutMs), discountRate: null, deadline });
  } catch (error) {
    problems.push(problemOf('prequalify', error instanceof Error ? error.message : String(error)));
    answer = undefined;
  }
  return {
    decision: answer?.status ?? 'Error',
    latencyMs: Date.now() - started,
    sentTo: endpoint?.baseUrl ?? null,
    approvedAmount: answer?.approvedAmount == null ? null : toDollars(answer.approvedAmount),
    adverseActionReason: answer?.adverseActionReason ?? null,
    reasonCodes: answer?.reasonCodes.slice(0, 20) ?? [],
    offers: (answer?.offers ?? []).slice(0, 50).map((offer) => ({
      productName: offer.productName, term: offer.term, apr: offer.apr, amount: toDollars(offer.amount), monthlyPayment: toDollars(offer.monthlyPayment),
      minLine: toDollars(offer.minLine), maxLine: toDollars(offer.maxLine),
    })),
    problems: problems.slice(0, 50),
  };
}
