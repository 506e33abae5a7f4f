import type { PricedTerms } from '../core/lenders/payments.ts';
import type { Applicant, KbaQuestionDraft, PrequalAnswer } from '../core/lenders/terms.ts';

/**
 * What the lender service remembers of each application, in memory: it stands in for lenders in demos, tests and
 * benches, and a restart forgets, as a lender's sandbox may.
 */

export type ContractStatus = 'Selected' | 'Signed' | 'Finalized' | 'Funded';

export interface Contract {
  contractId: string;
  productCode: string;
  terms: PricedTerms;
  status: ContractStatus;
  signedAt: string | null;
  finalizedAt: string | null;
  funding: { fundingId: string; amount: number; fundedAt: string } | null;
  refunds: { refundId: string; amount: number; reference: string; refundedAt: string }[];
}

export interface LenderApplication {
  code: string;
  lenderAppId: string;
  /** The caller's id of the application, named in every callback. */
  appId: number;
  applicant: Applicant;
  discountRate: number | null;
  callbackUrl: string | null;
  /** Null while an async-callback lender is still deciding. */
  answer: PrequalAnswer | null;
  contract: Contract | null;
  questions: KbaQuestionDraft[] | null;
  identity: { passed: boolean; correct: number; asked: number } | null;
  /** A lender-hosted signing in progress: its page's token and where the browser goes after it. */
  signing: { token: string; returnUrl: string } | null;
}

/** Enough for any demo or bench; the oldest go first so the process stays small. */
const KEPT = 10_000;

export class ApplicationStore {
  private readonly byId = new Map<string, LenderApplication>();
  private readonly bySigningToken = new Map<string, LenderApplication>();

  add(application: LenderApplication): void {
    this.byId.set(application.lenderAppId, application);
    if (this.byId.size <= KEPT) return;
    const [oldest] = this.byId.values();
    this.byId.delete(oldest!.lenderAppId);
    if (oldest!.signing) this.bySigningToken.delete(oldest!.signing.token);
  }

  get(code: string, lenderAppId: string): LenderApplication | undefined {
    const application = this.byId.get(lenderAppId);
    return application?.code === code ? application : undefined;
  }

  startSigning(application: LenderApplication, signing: { token: string; returnUrl: string }): void {
    if (application.signing) this.bySigningToken.delete(application.signing.token);
    application.signing = signing;
    this.bySigningToken.set(signing.token, application);
  }

  bySigning(token: string): LenderApplication | undefined {
    return this.bySigningToken.get(token);
  }
}

/** An application as the API answers it: money in cents, dates ISO (JSON writes a Date so). */
export function applicationView(application: LenderApplication) {
  const { answer } = application;
  return {
    applicationId: application.lenderAppId,
    lenderCode: application.code,
    appId: application.appId,
    status: answer?.status ?? 'Pending',
    approvedAmount: answer?.approvedAmount ?? null,
    reason: answer?.adverseActionReason ?? null,
    reasonCodes: answer?.reasonCodes ?? [],
    creditScore: answer?.creditScore ?? null,
    offers: answer?.offers ?? [],
    expiresAt: answer?.expiresAt ?? null,
    identity: application.identity,
    contract: application.contract,
  };
}
