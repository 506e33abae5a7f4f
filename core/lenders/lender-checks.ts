/**
 * A lender file's own checks (beside its meta-schema): pure, so the descriptor set (core/descriptors/set.ts) checks a
 * studio draft's lender exactly as the server checks a file it reads.
 */
import type { LenderDescriptor } from '../../codegen/generated/descriptors.ts';
import { quoted } from '../descriptors/errors.ts';

const FORMAT = 1;

/**
 * Headers a lender file's authentication may not name: the portal sets them for the request itself, and a file that a
 * product owner publishes must not redirect a call (Host) or corrupt its framing.
 */
const RESERVED_HEADERS = /^(host|content-length|content-type|content-encoding|transfer-encoding|connection|keep-alive|upgrade|te|trailer|expect|accept|cookie|idempotency-key|proxy-.*|sec-.*)$/i;

/** What the meta-schema cannot check of a lender file: its name, the journey's steps against its routes, amounts. */
export function lenderProblems(file: string, doc: LenderDescriptor): string[] {
  const problems: string[] = [];
  if (file.replace(/^.*\//, '') !== `${doc.code}.json`) problems.push(`the file must be named ${doc.code}.json`);
  if (doc.format !== FORMAT) problems.push(`format ${doc.format} is not supported (expected ${FORMAT})`);
  const routed = new Set(doc.routes.map((route) => route.step));
  const { journey } = doc;
  for (const step of journey.steps) if (!routed.has(step)) problems.push(`journey step ${quoted(step)} has no route`);
  if (journey.esign === 'platform') {
    for (const key of ['consent', 'kba', 'sign'] as const) {
      const step = journey[key];
      if (!step) problems.push(`journey.${key} is required when journey.esign is 'platform'`);
      else if (!journey.steps.includes(step)) problems.push(`journey.${key} ${quoted(step)} is not one of journey.steps`);
    }
  }
  // A lender spoken to over HTTP runs the calls the journey needs of it: its own identity questions where the platform
  // signs, the signing where it hosts it.
  if (doc.adapter === 'http' && doc.http) {
    const { auth } = doc.http;
    for (const header of auth.kind === 'apiKey' ? [auth.header] : auth.kind === 'hmac' ? [auth.header, auth.timestampHeader] : []) {
      if (RESERVED_HEADERS.test(header)) problems.push(`http.auth header ${quoted(header)} is one the portal sets itself (the host, the body's length and type, the connection, the idempotency key)`);
    }
    const calls = doc.http.operations;
    const needed = journey.esign === 'platform' ? (['identityQuestions', 'identityAnswers'] as const) : (['signing'] as const);
    for (const name of ['select', 'status', ...needed] as const) if (!calls[name]) problems.push(`http.operations.${name} is required by this lender's journey`);
  }
  if (journey.done && !journey.steps.includes(journey.done)) problems.push(`journey.done ${quoted(journey.done)} is not one of journey.steps`);
  if (doc.eligibility.amount.min > doc.eligibility.amount.max) problems.push('eligibility.amount.min is above eligibility.amount.max');
  if (doc.eligibility.excludedStates?.length && !doc.eligibility.states.includes('*')) problems.push('eligibility.excludedStates needs states ["*"]');
  for (const product of doc.sandbox.products) {
    if (product.minAmount > product.maxAmount) problems.push(`product ${product.code}: minAmount is above maxAmount`);
    if (product.type === 'DeferredInterest' && !product.promoTerm) problems.push(`product ${product.code}: a DeferredInterest product needs promoTerm`);
  }
  doc.sandbox.rules.forEach((rule, index) => {
    if (rule.approvedAmount !== undefined && rule.decision !== 'Approved') problems.push(`sandbox.rules[${index}]: approvedAmount goes with the decision Approved`);
  });
  const latency = doc.sandbox.latencyMs;
  if (typeof latency === 'object' && latency.min > latency.max) problems.push('sandbox.latencyMs.min is above sandbox.latencyMs.max');
  return problems;
}
