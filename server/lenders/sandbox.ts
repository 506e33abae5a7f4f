import { randomBytes } from 'node:crypto';
import type { LenderDescriptor } from '../../core/lenders/descriptor.ts';
import { declinedAnswer, latencyOf, newLenderAppId, offersFor, repriceOffer, sandboxDecision } from '../../core/lenders/underwriting.ts';
import { sandboxKba } from '../../core/lenders/identity-questions.ts';
import type { LenderAdapter, LenderEventEffect } from './types.ts';
import { contractEffectOf } from './events.ts';

/**
 * The sandbox lender in-process: every answer comes from the lender's JSON (screens/lenders/<code>.json, `sandbox`),
 * decided by the shared underwriting (core/lenders/underwriting.ts, which the lender service runs too); latency and
 * failures are simulated here so that the waterfall's timeouts are real. Nothing is stored here: the domain keeps the
 * answers (application_lenders, offers).
 */

/** The sandbox lenders' own pages (server/lenders/site.ts, docs/decisions/0191), under the portal's address. */
export const SITE_PATH = '/sandbox/lenders';

/** Where the sandbox lenders' pages are: served in demo mode only, so elsewhere a sandbox lender has no site (null). */
export function sandboxSiteUrl(settings: { mode: string; publicUrl: string }): string | null {
  return settings.mode === 'demo' ? `${settings.publicUrl}${SITE_PATH}` : null;
}

/** A sandbox lender's page of one application: the lenderAppUrl it answers. */
export const sandboxAppUrl = (site: string, code: string, lenderAppId: string) => `${site}/${encodeURIComponent(code)}/applications/${encodeURIComponent(lenderAppId)}`;

export class SandboxFailure extends Error {}

function abortable(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0) return signal.aborted ? Promise.reject(signal.reason) : Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
}

// ---- the adapter --------------------------------------------------------------------------------

/** `site`: where this lender's pages are (sandboxSiteUrl); null when they are not served, and its answers link nowhere. */
export function sandboxAdapter(descriptor: LenderDescriptor, site: string | null): LenderAdapter {
  const settings = descriptor.sandbox;
  const code = descriptor.code;
  const appUrl = (lenderAppId: string | null) => (site && lenderAppId ? sandboxAppUrl(site, code, lenderAppId) : null);
  const contextOf = (lenderAppId: string, discountRate: number | null) => ({ lenderAppId, lenderAppUrl: appUrl(lenderAppId), discountRate });

  return {
    code,
    descriptor,

    async prequalify(applicant, { signal, discountRate }) {
      await abortable(latencyOf(settings), signal);
      if (settings.failureRate > 0 && Math.random() < settings.failureRate) throw new SandboxFailure(`${code}: simulated failure`);
      return sandboxDecision(descriptor, applicant, contextOf(newLenderAppId(code), discountRate));
    },

    reprice(offer, amount, discountRate) {
      return repriceOffer(descriptor, { productCode: offer.productCode, minLine: offer.minLine ?? 0, maxLine: offer.maxLine ?? 0 }, amount, discountRate);
    },

    async select({ appId, lenderAppId }) {
      return {
        contractId: `${code.toUpperCase()}-C${appId}-${randomBytes(3).toString('hex').toUpperCase()}`,
        lenderAppUrl: appUrl(lenderAppId),
      };
    },

    async kba({ applicant }) {
      return { checkedBy: 'portal', questions: sandboxKba(applicant) };
    },

    async esignDocuments({ lenderAppUrl }) {
      const hostedBy = descriptor.journey.esign;
      const clauses = descriptor.disclosures
        .filter((d) => (d.showWith ?? 'both') !== 'offers')
        .map((d) => ({ title: d.title, text: d.text }));
      return { hostedBy, url: hostedBy === 'lender' && lenderAppUrl ? `${lenderAppUrl}/sign` : null, clauses };
    },

    async status() {
      return null;
    },

    async callback(event, applicant, { discountRate }): Promise<LenderEventEffect> {
      const effect: LenderEventEffect = contractEffectOf(event);
      if (event.eventType === 'Decision' && event.decisionStatus) {
        if (event.decisionStatus === 'Approved') {
          // A review that ends in an approval: the lender prices its products as for any approval.
          effect.decision = offersFor(descriptor, applicant, contextOf(event.lenderAppId, discountRate));
          if (event.approvedAmount !== undefined && effect.decision.status === 'Approved') {
            effect.decision.approvedAmount = Math.max(Math.round(event.approvedAmount * 100), applicant.amount);
          }
        } else if (event.decisionStatus === 'Declined') {
          effect.decision = declinedAnswer(event.lenderAppId, typeof event.data?.adverseActionReason === 'string' ? event.data.adverseActionReason : 'Declined by the lender after review');
        } else {
          const status = event.decisionStatus === 'TimedOut' ? 'Error' : event.decisionStatus === 'Pending' ? 'PendingReview' : event.decisionStatus;
          effect.decision = { ...declinedAnswer(event.lenderAppId, ''), status, adverseActionReason: null, reasonCodes: [] };
        }
      }
      return effect;
    },

    async finalize({ contractId }) {
      return { accepted: true, reference: contractId };
    },

    async fund({ contractId }) {
      return { accepted: true, reference: `${contractId}-F` };
    },

    async refund({ contractId }) {
      return { accepted: true, reference: `${contractId}-R${randomBytes(3).toString('hex').toUpperCase()}` };
    },
  };
}
