import { and, desc, eq, ne, sql } from 'drizzle-orm';
import type { components } from '../../../codegen/generated/api.ts';
import type { Db } from '../../db/index.ts';
import { StatementCache } from '../../db/prepared.ts';
import { applicationLenders, applications, files, lenders, offers, offices, refunds } from '../../db/schema.ts';
import { ADVERSE_ACTION_KIND } from './adverse-action.ts';
import { decryptPii } from '../../crypto/pii.ts';
import { HttpProblem } from '../../http/problem.ts';
import { creditTermsOf, disclose } from '../../../core/credit.ts';
import { toCents, toDollars, toUsDate, toUtc } from '../values.ts';
import { displayFlags, mayResendLink, statusChip } from './status.ts';
import type { ApplicationRecord } from './records.ts';

type Schemas = components['schemas'];
export type Application = Schemas['Application'];
export type Offer = Schemas['Offer'];

type OfferRecord = typeof offers.$inferSelect & { lenderCode: string; lenderName: string };

export function toOffer(row: OfferRecord): Offer {
  const offer = {
    id: row.id,
    lenderCode: row.lenderCode,
    lenderName: row.lenderName,
    productCode: row.productCode,
    productName: row.productName ?? row.productCode,
    productType: row.productType,
    promoTerm: row.promoTerm,
    term: row.term,
    noInterestTerm: row.noInterestTerm,
    minLine: toDollars(row.minLine),
    maxLine: toDollars(row.maxLine),
    promoAPR: row.promoApr,
    apr: row.apr,
    interestRate: row.interestRate,
    monthlyPayment: toDollars(row.monthlyPayment),
    promoMonthlyPayment: toDollars(row.promoMonthlyPayment),
    amount: toDollars(row.amount),
    originationFee: toDollars(row.originationFee),
    totalInterest: toDollars(row.totalInterest),
    totalCost: toDollars(row.totalCost),
    discountRate: row.discountRate,
    discountAmount: toDollars(row.discountAmount),
    url: row.url,
    isSelected: row.isSelected,
    isVisible: row.isVisible,
    isDefault: row.isDefault,
    messages: row.messages,
  };
  return { ...offer, disclosure: disclosureOf(offer) };
}

/** The Truth in Lending disclosure of an offer at its amount: for the chosen one, what the borrower signs for. */
function disclosureOf(offer: Omit<Offer, 'disclosure'>): Schemas['Disclosure'] | null {
  const terms = creditTermsOf({
      productType: offer.productType,
      amountCents: offer.amount === null ? null : toCents(offer.amount),
      feeCents: offer.originationFee === null ? null : toCents(offer.originationFee),
      apr: offer.apr,
      term: offer.term,
      promoTerm: offer.promoTerm,
    });
  if (!terms) return null;
  const d = disclose(terms);
  return {
    amountFinanced: toDollars(d.amountFinancedCents),
    financeCharge: toDollars(d.financeChargeCents),
    totalOfPayments: toDollars(d.totalOfPaymentsCents),
    apr: d.apr,
    payments: d.payments.map((run) => ({ count: run.count, amount: toDollars(run.amountCents), firstMonth: run.firstMonth })),
    promotion: d.promotion && { months: d.promotion.months, monthlyPayment: toDollars(d.promotion.monthlyCents), interestIfUnpaid: toDollars(d.promotion.interestIfUnpaidCents) },
  };
}

/** The latest adverse-action notice kept with the application, as sent. */
async function adverseActionNoticeOf(db: Db, appId: number): Promise<string | null> {
  const [file] = await db
    .select({ bytes: files.bytes })
    .from(files)
    .where(and(eq(files.appId, appId), eq(files.kind, ADVERSE_ACTION_KIND)))
    .orderBy(desc(files.createdAt))
    .limit(1);
  return file ? Buffer.from(file.bytes).toString('utf8') : null;
}

/** The date of birth is shown as **\/**\/yyyy: enough to recognise, useless to an identity thief. */
function maskedDob(piiKey: Buffer, encrypted: string | null): string | null {
  if (!encrypted) return null;
  const dob = decryptPii(piiKey, encrypted);
  return `**/**/${dob.slice(0, 4)}`;
}

/** The statements an application read runs on every detail view and borrower step, prepared once (decision 0140). */
const offersStatement = new StatementCache<{ offer: typeof offers.$inferSelect; lenderCode: string; lenderName: string }[]>('app_offers_');
const applicationStatement = new StatementCache<{ app: ApplicationRecord; officeName: string; officeCategory: string | null; lenderPhone: string | null; lenderAppId: string | null }[]>('app_read_');
const lastRefundStatement = new StatementCache<(typeof refunds.$inferSelect)[]>('app_refund_');
const APP_ID = sql.placeholder('appId');

export async function offersOf(db: Db, appId: number): Promise<Offer[]> {
  const rows = await offersStatement.run(db, 'offers', { appId }, () =>
    db
      .select({ offer: offers, lenderCode: lenders.code, lenderName: lenders.name })
      .from(offers)
      .innerJoin(lenders, eq(lenders.id, offers.lenderId))
      .where(eq(offers.appId, APP_ID))
      .orderBy(offers.lenderId, offers.id),
  );
  return rows.map(({ offer, lenderCode, lenderName }) => toOffer({ ...offer, lenderCode, lenderName }));
}

/** When the newest link sent to the borrower and not yet opened stops working; null when none waits. */
async function waitingLinkExpiry(db: Db, appId: number): Promise<string | null> {
  const [row] = (await db.execute<{ until: string | Date | null }>(sql`select max(expires_at) as until from link_tokens where app_id = ${appId} and used_at is null and expires_at > now()`)).rows;
  return row?.until ? new Date(row.until).toISOString() : null;
}

/** An application as the detail view and the borrower flows see it; PII masked. */
export async function getApplication(db: Db, piiKey: Buffer, id: number): Promise<Application> {
  return (await readApplication(db, piiKey, id)).application;
}

/** The application as the API shows it, and the record it was read from (for what else the caller derives from it). */
export async function readApplication(db: Db, piiKey: Buffer, id: number): Promise<{ application: Application; record: ApplicationRecord }> {
  const [found] = await applicationStatement.run(db, 'application', { appId: id }, () =>
    db
      .select({ app: applications, officeName: offices.name, officeCategory: offices.category, lenderPhone: lenders.phone, lenderAppId: applicationLenders.lenderAppId })
      .from(applications)
      .innerJoin(offices, eq(offices.id, applications.officeId))
      .leftJoin(lenders, eq(lenders.id, applications.lenderId))
      .leftJoin(applicationLenders, and(eq(applicationLenders.appId, applications.id), eq(applicationLenders.lenderId, applications.lenderId)))
      .where(eq(applications.id, APP_ID)),
  );
  if (!found) throw new HttpProblem(404, 'The application could not be found.');
  const { app } = found;
  const [appOffers, [lastRefund]] = await Promise.all([
    offersOf(db, id),
    lastRefundStatement.run(db, 'last refund', { appId: id }, () =>
      db.select().from(refunds).where(and(eq(refunds.appId, APP_ID), ne(refunds.status, 'Cancelled'))).orderBy(desc(refunds.createdAt), desc(refunds.id)).limit(1),
    ),
  ]);
  const selected = appOffers.find((o) => o.isSelected);
  // Only a declined application has a notice: no read on the hot path of the others.
  const notice = app.stage === 'Declined' ? await adverseActionNoticeOf(db, id) : null;
  const application: Application = {
    id: app.id,
    officeId: app.officeId,
    officeName: found.officeName,
    officeCategory: found.officeCategory,
    contractId: app.contractId,
    lenderId: app.lenderId,
    lenderCode: app.lenderCode,
    lenderName: app.lenderName,
    lenderPhone: found.lenderPhone,
    lenderAppId: found.lenderAppId,
    lenderAppUrl: app.lenderAppUrl,
    thirdPartyLender: app.thirdPartyLender,
    firstName: app.firstName,
    lastName: app.lastName,
    email: app.email,
    mobilePhone: app.mobilePhone,
    homePhone: app.homePhone,
    address:
      app.streetAddress && app.city && app.state && app.zipCode
        ? { streetAddress: app.streetAddress, suiteNo: app.suiteNo, city: app.city, state: app.state, zipCode: app.zipCode }
        : null,
    dobDateTime: maskedDob(piiKey, app.dobEnc),
    last4SSN: app.last4Ssn,
    annualIncome: toDollars(app.annualIncome),
    additionalIncome: toDollars(app.otherIncome),
    residenceStatus: app.residenceStatus,
    monthlyHousingPayment: toDollars(app.monthlyHousingPayment),
    employmentStatus: app.employmentStatus,
    employerName: app.employerName,
    monthsEmployed: app.employmentMonths,
    isActiveMilitary: app.isActiveMilitary,
    amount: toDollars(app.amount),
    serviceDate: toUsDate(app.serviceDate),
    decisionStatus: app.decisionStatus as Application['decisionStatus'],
    contractStatus: app.contractStatus,
    contractSubStatus: app.contractSubStatus,
    stage: app.stage,
    statusChip: statusChip(app),
    statusText: app.statusText,
    approvedAmount: toDollars(app.approvedAmount),
    monthlyPayment: toDollars(app.monthlyPayment),
    apr: app.apr,
    term: app.term,
    productCode: app.productCode,
    productName: app.productName,
    productType: app.productType,
    disclosure: selected?.disclosure ?? null,
    adverseActionNotice: notice,
    offers: appOffers,
    selectedOfferId: selected?.id ?? null,
    downloadUrl: null,
    eSignUrl: null,
    expirationDateUtc: toUtc(app.expiration),
    referenceCode: app.referenceCode,
    inOfficeApply: app.inOfficeApply,
    enableRemoteSign: app.enableRemoteSign,
    shownPublication: app.shownPublication,
    isMismatch: app.isMismatch,
    isBorrowerHold: app.isBorrowerHold,
    isLenderHold: app.isLenderHold,
    isFinalized: app.isFinalized,
    isExpired: app.isExpired,
    isOfferMatch: app.isOfferMatch,
    isSSNMismatch: app.isSsnMismatch,
    isPending: app.isPending,
    isCreditFrozen: app.isCreditFrozen,
    isCreditLocked: app.isCreditLocked,
    isPOIReqd: app.isPoiReqd,
    fundingStatus: app.fundingStatus,
    fundedAmount: toDollars(app.fundedAmount),
    fundedDate: app.fundedAt ? toUsDate(app.fundedAt.toISOString()) : null,
    refundId: lastRefund?.id ?? null,
    refundAmount: lastRefund ? toDollars(lastRefund.amount) : null,
    refundStatus: lastRefund?.status ?? null,
    totalRefundedAmount: toDollars(app.refundedAmount),
    ...displayFlags(app),
    showResendLinkButton: mayResendLink(app),
    statusSinceUtc: toUtc(app.statusSince),
    linkExpiresAtUtc: mayResendLink(app) ? await waitingLinkExpiry(db, id) : null,
    createdAtUtc: toUtc(app.createdAt),
    updatedAtUtc: toUtc(app.updatedAt),
  };
  return { application, record: app };
}
