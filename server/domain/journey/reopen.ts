import { and, eq, inArray } from 'drizzle-orm';
import type { Settings } from '../../config.ts';
import type { Db } from '../../db/index.ts';
import { applicationLenders, applications, offers } from '../../db/schema.ts';
import { demoServiceUrl, lenderEndpointOf } from '../../lenders/http/endpoint.ts';
import { teachesDemoService } from '../../lenders/http/demo-teaching.ts';
import { watchLenderNews } from '../../lenders/http/news.ts';
import { lenderCatalogue } from '../../lenders/registry.ts';
import type { LenderAdapter } from '../../lenders/types.ts';
import type { OfferTerms } from '../../../core/lenders/terms.ts';
import { writeLogs, type ApplicationRecord } from '../applications/records.ts';
import { applicantOf } from './applicant.ts';
import { routePath } from './routing.ts';

/**
 * Demo mode (decision 0261): the lender service keeps its applications in memory, so after each start of it the
 * portal's open applications — those of the demo data among them — name lender ids it never issued, and their
 * signing, finalizing or refunding would find the lender without them. Once the portal listens, each application whose
 * offer is chosen, at the demo's lender service, is opened at its lender again as the journey opened it: its
 * pre-qualification, then the choice of its plan (or the lender's default plan, for the demo data's made-up ones); a
 * contract past signing is then set where it stands (decision 0264). The lender's new ids and terms replace the old
 * ones, and a log line says so.
 */

/**
 * Stages where the lender holds a contract, and where it stands there: chosen and not yet signed (null: as selecting
 * leaves it), signed, finalized, funded. The office finalizes the signed ones and refunds the funded ones, orders the
 * lender must find its contract for.
 */
const AT_LENDER = {
  OfferSelected: null,
  SigningRequired: null,
  ReadyToFinalize: 'Signed',
  Finalized: 'Finalized',
  SubmittedForFunding: 'Finalized',
  Funded: 'Funded',
  Refund: 'Funded',
} as const satisfies Partial<Record<ApplicationRecord['stage'], 'Signed' | 'Finalized' | 'Funded' | null>>;
type AtLender = keyof typeof AT_LENDER;

/** A contract past selection, put in the lender service's books as the portal's records have it (no money moves). */
async function restoreContract(settings: Settings, code: string, lenderAppId: string, status: 'Signed' | 'Finalized' | 'Funded', amount: number): Promise<void> {
  const url = `${demoServiceUrl(settings)}/admin/lenders/${encodeURIComponent(code)}/applications/${encodeURIComponent(lenderAppId)}/contract`;
  const response = await fetch(url, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ status, fundedAmount: amount }), signal: AbortSignal.timeout(10_000) });
  if (!response.ok) throw new Error(`the lender service did not take the contract as ${status}: ${response.status} ${(await response.text()).slice(0, 300)}`);
}
const SERVICE_WAIT_MS = 60_000;

type Log = { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };

/** Waits for the demo's lender service (started beside the portal) to answer; false when it does not in time. */
async function serviceUp(settings: Pick<Settings, 'lenderEnv'>): Promise<boolean> {
  const url = `${demoServiceUrl(settings)}/health`;
  for (const until = Date.now() + SERVICE_WAIT_MS; Date.now() < until; ) {
    if (await fetch(url, { signal: AbortSignal.timeout(2_000) }).then((r) => r.ok, () => false)) return true;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return false;
}

/** Opens one application again; why not, when it cannot be. */
async function reopen(db: Db, settings: Settings, app: ApplicationRecord): Promise<string | null> {
  const adapter = lenderCatalogue(settings).get(app.lenderCode ?? '');
  if (!adapter || adapter.descriptor.adapter !== 'http' || !app.lenderId || !app.productCode) return 'not a lender over HTTP';
  if (!teachesDemoService(settings, lenderEndpointOf(settings, adapter.code))) return "a lender of its own, not the demo's lender service";
  const [chosen] = await db.select().from(offers).where(and(eq(offers.appId, app.id), eq(offers.isSelected, true)));
  if (!chosen) return 'no chosen offer';
  const answer = await adapter.prequalify(applicantOf(app, settings.piiKey), { signal: AbortSignal.timeout(30_000), discountRate: chosen.discountRate, deadline: Date.now() + 30_000 });
  // The same plan where the lender offers it; else its default one, which the application then shows (the demo data's
  // plans are made up, not its lenders').
  const offer = answer.offers.find((o) => o.productCode === app.productCode) ?? answer.offers.find((o) => o.isDefault) ?? answer.offers[0];
  if (!answer.lenderAppId || !offer) return `the lender answered ${answer.status} without offers`;
  // A lender that decides by callback may send it after its status told the decision: until the new id is recorded
  // below, its callback waits in the queue (it then finds the decision recorded) instead of meeting the old id.
  const watch = watchLenderNews(adapter.code, answer.lenderAppId);
  try {
    await reopenAs(db, settings, app, adapter, chosen, answer.lenderAppId, offer);
  } finally {
    watch.close();
  }
  return null;
}

/** The lender's new id, plan and contract, recorded and set in the lender service's books as the portal has them. */
async function reopenAs(db: Db, settings: Settings, app: ApplicationRecord, adapter: LenderAdapter, chosen: typeof offers.$inferSelect, lenderAppId: string, offer: OfferTerms): Promise<void> {
  const opened = await adapter.select({
    appId: app.id, lenderAppId, productCode: offer.productCode, amount: offer.amount,
    returnUrl: `${settings.publicUrl}/#${routePath('app-borrower-id', { id: app.id })}`,
  });
  const { productCode, productName, productType, promoTerm, promoApr, apr, term, monthlyPayment, amount } = offer;
  const standing = AT_LENDER[app.stage as AtLender];
  if (standing) await restoreContract(settings, adapter.code, lenderAppId, standing, amount);
  await db.transaction(async (tx) => {
    await tx.update(applicationLenders).set({ lenderAppId }).where(and(eq(applicationLenders.appId, app.id), eq(applicationLenders.lenderId, app.lenderId!)));
    await tx
      .update(offers)
      .set({ productCode, productName, productType, promoTerm, promoApr, apr, term, monthlyPayment, amount, interestRate: offer.interestRate, minLine: offer.minLine, maxLine: offer.maxLine, originationFee: offer.originationFee, totalCost: offer.totalCost, totalInterest: offer.totalInterest, promoMonthlyPayment: offer.promoMonthlyPayment, discountAmount: offer.discountAmount })
      .where(eq(offers.id, chosen.id));
    await tx
      .update(applications)
      .set({ contractId: opened.contractId, lenderAppUrl: opened.lenderAppUrl, productCode, productName, productType, promoTerm, promoApr, apr, term, monthlyPayment, amount, approvedAmount: offer.maxLine })
      .where(eq(applications.id, app.id));
    await writeLogs(tx, app.id, { kind: 'anonymous' }, [
      {
        kind: 'Event',
        message: 'Opened again at the lender (demo)',
        data: { lender: adapter.code, requestId: lenderAppId, contractId: opened.contractId, product: productCode, amountCents: amount, before: { contractId: app.contractId, product: app.productCode, amountCents: app.amount } },
      },
    ]);
  });
}

/**
 * Only where the lender service was started beside the portal, empty (LENDER_SERVICE_BESIDE=true: `npm start` and the
 * end-to-end run set it): a bench or a deployment with lenders of its own keeps its applications as they are.
 */
export async function reopenAtLenders(db: Db, settings: Settings, log: Log): Promise<void> {
  if (settings.mode !== 'demo' || settings.lendersInProcess || settings.lenderEnv.LENDER_SERVICE_BESIDE !== 'true') return;
  const open = await db.select().from(applications).where(inArray(applications.stage, Object.keys(AT_LENDER) as AtLender[]));
  if (open.length === 0) return;
  if (!(await serviceUp(settings))) {
    log.warn({ applications: open.length }, 'the lender service did not answer: the open applications were not opened at their lenders again');
    return;
  }
  let reopened = 0;
  for (const app of open) {
    try {
      const why = await reopen(db, settings, app);
      if (why === null) reopened += 1;
      else log.info({ appId: app.id, why }, 'an open application stays as it is');
    } catch (error) {
      log.warn({ appId: app.id, err: error }, 'an open application could not be opened at its lender again');
    }
  }
  log.info({ reopened, open: open.length }, 'open applications opened at their lenders again');
}
