import { and, asc, eq } from 'drizzle-orm';
import type { components } from '../../../codegen/generated/api.ts';
import { applications, lenders, offers } from '../../db/schema.ts';
import type { Caller } from '../../http/caller.ts';
import { HttpProblem } from '../../http/problem.ts';
import type { Services } from '../../services.ts';
import { toOffer, type Offer } from '../applications/detail.ts';
import { offersExpired } from '../applications/expiry.ts';
import { BEFORE_SIGNING } from '../applications/status.ts';
import { lockApplication } from '../applications/records.ts';
import { message } from '../offices/records.ts';
import { toCents } from '../values.ts';
import { moveApplication } from '../applications/moves.ts';
import { catalogueOf, lenderAppIdOf } from '../offices/office-lenders.ts';
import { routePath } from './routing.ts';
import { formatCents } from '../../../core/i18n.ts';
import { SOURCE_LANGUAGE } from '../../../core/current-language.ts';
import { isPlanKind } from '../../../core/credit.ts';
import type { StoredOffer } from '../../lenders/types.ts';

type Schemas = components['schemas'];

const dollars = (cents: number) => formatCents(SOURCE_LANGUAGE.tag, cents);

/** An offer row as an adapter prices it again: its plan kind only when it is one. */
const storedOffer = (offer: typeof offers.$inferSelect): StoredOffer => ({ ...offer, productType: isPlanKind(offer.productType) ? offer.productType : null });

/**
 * App_GetOffers: the application's offers; with `amount`, each priced again for that amount within
 * its line by the lender's adapter (a read: nothing is stored until SelectOffer). An offer that does
 * not cover the amount stays in the list with isVisible false and a message saying why.
 */
export async function offerList(services: Services, appId: number, amountDollars: number | undefined): Promise<Offer[]> {
  const { db } = services;
  const [app] = await db.select().from(applications).where(eq(applications.id, appId));
  if (!app) throw new HttpProblem(404, 'The application could not be found.');
  const rows = await db
    .select({ offer: offers, lenderCode: lenders.code, lenderName: lenders.name })
    .from(offers)
    .innerJoin(lenders, eq(lenders.id, offers.lenderId))
    .where(eq(offers.appId, appId))
    .orderBy(asc(offers.lenderId), asc(offers.id));
  if (amountDollars === undefined) return rows.map(({ offer, lenderCode, lenderName }) => toOffer({ ...offer, lenderCode, lenderName }));
  const amount = toCents(amountDollars);
  if (amount <= 0) throw HttpProblem.field('amount', message('minValue', 0.01));
  if (app.approvedAmount !== null && amount > app.approvedAmount) throw HttpProblem.field('amount', message('loanExceedsApproved'));
  const catalogue = catalogueOf(services);
  return rows.map(({ offer, lenderCode, lenderName }) => {
    const adapter = catalogue.get(lenderCode);
    const priced = adapter?.reprice(storedOffer(offer), amount, offer.discountRate ?? 0);
    if (!priced) {
      const range = `${dollars(offer.minLine ?? 0)} to ${dollars(offer.maxLine ?? 0)}`;
      return toOffer({ ...offer, lenderCode, lenderName, isVisible: false, messages: [...offer.messages, `Available for amounts from ${range}.`] });
    }
    return toOffer({ ...offer, ...priced, promoApr: priced.promoApr, lenderCode, lenderName });
  });
}


/** Said to a borrower who chooses an offer after the offers expired. */
export const OFFERS_EXPIRED = 'These offers have expired. Ask the office to submit your application again.';

/**
 * App_SelectOffer: the borrower picks an offer and ticks the confirmation (agreeToTerms, checked by
 * the contract). The lender opens the contract; the application moves to OfferSelected with the
 * offer's terms, sub-status TermsPresented. Choosing again before signing replaces the choice and
 * starts a new signing ceremony (a new contract id).
 */
export async function selectOffer(services: Services, caller: Caller, body: Schemas['SelectOffer']): Promise<void> {
  const { db } = services;
  const catalogue = catalogueOf(services);
  await db.transaction(async (tx) => {
    const app = await lockApplication(tx, body.appId);
    const signed = app.contractStatus === 'Signed';
    if (!BEFORE_SIGNING.includes(app.stage) || signed || (app.stage === 'NotApplicable' && !app.isOfferMatch)) {
      throw HttpProblem.conflict('An offer cannot be selected in the application\'s current state.');
    }
    // Past the offers' expiry the sweep has not reached yet (decision 0233).
    if (offersExpired(app, new Date())) throw HttpProblem.conflict(OFFERS_EXPIRED);
    const [found] = await tx
      .select({ offer: offers, lenderCode: lenders.code, lenderName: lenders.name })
      .from(offers)
      .innerJoin(lenders, eq(lenders.id, offers.lenderId))
      .where(and(eq(offers.id, body.offerId), eq(offers.appId, app.id)));
    if (!found) throw new HttpProblem(404, 'The offer could not be found.');
    const { offer, lenderCode, lenderName } = found;
    const adapter = catalogue.get(lenderCode);
    if (!adapter) throw HttpProblem.conflict(`${lenderName} is not available at the moment.`);
    const amount = body.amount === undefined ? (offer.amount ?? app.amount) : toCents(body.amount);
    if (offer.maxLine !== null && amount > offer.maxLine) throw HttpProblem.field('amount', message('loanExceedsApproved'));
    if (offer.minLine !== null && amount < offer.minLine) throw HttpProblem.field('amount', message('minValue', (offer.minLine / 100).toFixed(2)));
    const priced = amount === offer.amount ? null : adapter.reprice(storedOffer(offer), amount, offer.discountRate ?? 0);
    if (amount !== offer.amount && !priced) throw HttpProblem.field('amount', `This plan is not available for ${dollars(amount)}.`);
    const terms = priced ?? offer;
    const opened = await adapter.select({
      appId: app.id, lenderAppId: await lenderAppIdOf(tx, app.id, offer.lenderId), productCode: offer.productCode, amount,
      // A lender that hosts the signing sends the borrower back to their application's summary.
      returnUrl: `${services.settings.publicUrl}/#${routePath('app-borrower-id', { id: app.id })}`,
    });
    await tx.update(offers).set({ isSelected: false }).where(eq(offers.appId, app.id));
    await tx
      .update(offers)
      .set({
        isSelected: true,
        amount,
        monthlyPayment: terms.monthlyPayment,
        promoMonthlyPayment: terms.promoMonthlyPayment,
        originationFee: terms.originationFee,
        totalInterest: terms.totalInterest,
        totalCost: terms.totalCost,
        discountAmount: terms.discountAmount,
      })
      .where(eq(offers.id, offer.id));
    await moveApplication(
      tx,
      app,
      caller,
      {
        stage: 'OfferSelected',
        contractSubStatus: 'TermsPresented',
        contractStatus: 'Pending',
        lenderId: offer.lenderId,
        lenderCode,
        lenderName,
        contractId: opened.contractId,
        lenderAppUrl: opened.lenderAppUrl,
        productCode: offer.productCode,
        productName: offer.productName,
        productType: offer.productType,
        promoTerm: offer.promoTerm,
        promoApr: offer.promoApr,
        apr: offer.apr,
        term: offer.term,
        monthlyPayment: terms.monthlyPayment,
        approvedAmount: offer.maxLine,
        amount,
        statusText: `Offer selected: ${lenderName}, ${offer.productName ?? offer.productCode}`,
      },
      'Offer selected',
      {
        offerId: offer.id,
        lender: lenderCode,
        product: offer.productCode,
        contractId: opened.contractId,
        before: { stage: app.stage, amountCents: app.amount, lender: app.lenderCode, contractId: app.contractId },
        after: { stage: 'OfferSelected', amountCents: amount, lender: lenderCode },
      },
    );
  });
}
