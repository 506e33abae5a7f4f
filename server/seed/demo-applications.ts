import { encryptPii, last4 } from '../crypto/pii.ts';
import type { Db } from '../db/index.ts';
import {
  applicationLenders,
  applications,
  appLogs,
  appNotes,
  offers,
  refunds,
  sendAppLogs,
  stipulations,
  type appStage,
  type contractSubStatus,
  type lenderAnswerStatus,
  type refundStatus,
} from '../db/schema.ts';
import type { SeededOffice } from './demo-offices.ts';
import { sandboxAppUrl } from '../lenders/sandbox.ts';
import { depositAfterLenderPaid, depositAfterRequest } from '../domain/applications/funding-steps.ts';

type Stage = (typeof appStage.enumValues)[number];
type SubStatus = (typeof contractSubStatus.enumValues)[number];
type Answer = (typeof lenderAnswerStatus.enumValues)[number];
type RefundStatus = (typeof refundStatus.enumValues)[number];

/** How an application at each stage looks: what the lenders said and how far the contract got. */
interface StagePlan {
  /** Age range in days, so that open offers are still valid and expired ones old enough. */
  age: [min: number, max: number];
  decision: (typeof lenderAnswerStatus.enumValues)[number];
  contract: string | null;
  subStatus: SubStatus;
  /** Answer of the first three office lenders (the others decline); they make offers when Approved. */
  answer: Answer;
  selected: boolean;
  statusText: string;
  contractLog: string[];
}

const PLANS: Record<Stage, StagePlan> = {
  NotApplicable: { age: [0, 10], decision: 'Pending', contract: null, subStatus: 'NotApplicable', answer: 'Pending', selected: false, statusText: 'Waiting for lender decisions', contractLog: [] },
  Review: { age: [1, 20], decision: 'PendingReview', contract: null, subStatus: 'NotApplicable', answer: 'PendingReview', selected: false, statusText: 'Lender review in progress: proof of income requested', contractLog: [] },
  Declined: { age: [1, 90], decision: 'Declined', contract: null, subStatus: 'NotApplicable', answer: 'Declined', selected: false, statusText: 'No offers available', contractLog: [] },
  NeedsAttention: { age: [1, 20], decision: 'Pending', contract: null, subStatus: 'NotApplicable', answer: 'Error', selected: false, statusText: 'Credit file frozen: the borrower must lift the freeze and resubmit', contractLog: [] },
  OfferSelected: { age: [1, 25], decision: 'Approved', contract: 'Pending', subStatus: 'TermsPresented', answer: 'Approved', selected: true, statusText: 'Offer selected', contractLog: ['Offer selected'] },
  SigningRequired: { age: [2, 25], decision: 'Approved', contract: 'Pending', subStatus: 'ESignLinkSent', answer: 'Approved', selected: true, statusText: 'Waiting for the borrower to sign', contractLog: ['Offer selected', 'E-sign link sent to the borrower'] },
  ReadyToFinalize: { age: [3, 28], decision: 'Approved', contract: 'Signed', subStatus: 'KBAPassed', answer: 'Approved', selected: true, statusText: 'Signed: ready to finalize', contractLog: ['Offer selected', 'Identity questions passed', 'Loan agreement signed'] },
  Finalized: { age: [4, 40], decision: 'Approved', contract: 'Signed', subStatus: 'Booked', answer: 'Approved', selected: true, statusText: 'Finalized', contractLog: ['Offer selected', 'Loan agreement signed', 'Finalized by the office'] },
  SubmittedForFunding: { age: [5, 45], decision: 'Approved', contract: 'Signed', subStatus: 'FundingApproved', answer: 'Approved', selected: true, statusText: 'Submitted for funding', contractLog: ['Offer selected', 'Loan agreement signed', 'Finalized by the office', 'Submitted for funding'] },
  Funded: { age: [8, 90], decision: 'Approved', contract: 'Funded', subStatus: 'FundsReleased', answer: 'Approved', selected: true, statusText: 'Funded', contractLog: ['Offer selected', 'Loan agreement signed', 'Finalized by the office', 'Funds released'] },
  Refund: { age: [20, 90], decision: 'Approved', contract: 'Funded', subStatus: 'RefundSubmitted', answer: 'Approved', selected: true, statusText: 'Partial refund requested', contractLog: ['Offer selected', 'Loan agreement signed', 'Funds released', 'Refund requested'] },
  Expired: { age: [35, 90], decision: 'Approved', contract: null, subStatus: 'NotApplicable', answer: 'Approved', selected: false, statusText: 'Offers expired', contractLog: [] },
  Cancelled: { age: [3, 90], decision: 'Approved', contract: 'Cancelled', subStatus: 'NotApplicable', answer: 'Approved', selected: true, statusText: 'Cancelled by the office', contractLog: ['Offer selected', 'Application cancelled by the office'] },
};

const STAGES = Object.keys(PLANS) as Stage[];

const FIRST_NAMES = [
  'Emma', 'Liam', 'Olivia', 'Noah', 'Ava', 'Ethan', 'Sophia', 'Mason', 'Isabella', 'Lucas', 'Mia', 'Logan', 'Charlotte', 'Aiden',
  'Amelia', 'Jackson', 'Harper', 'Carter', 'Evelyn', 'Grayson', 'Abigail', 'Mateo', 'Emily', 'Daniel', 'Elizabeth', 'Henry',
  'Sofia', 'Owen', 'Avery', 'Wyatt', 'Ella', 'Jack', 'Scarlett', 'Julian', 'Grace', 'Levi', 'Chloe', 'Isaac', 'Victoria', 'Gabriel',
];
const LAST_NAMES = [
  'Johnson', 'Martinez', 'Nguyen', "O'Connor", 'Garcia', 'Robinson', 'Clark', 'Rodriguez', 'Lewis', 'Walker', 'Hall', 'Allen',
  'Young', 'Hernandez', 'King', 'Wright', 'Lopez', 'Hill', 'Scott', 'Green', 'Adams', 'Baker', 'Gonzalez', 'Nelson', 'Carter-Reyes',
  'Mitchell', 'Perez', 'Roberts', 'Turner', 'Phillips', 'Campbell', 'Parker', 'Evans', 'Edwards', 'Collins', 'Stewart', 'Sanchez',
  'Morris', 'Rogers', 'Reed',
];
const STREETS = ['Oak St', 'Maple Ave', 'Cedar Ln', 'Elm Dr', 'Pine Ct', 'Willow Way', 'Birch Rd', 'Lakeview Dr'];
const PROCEDURES = ['Implants', 'Orthodontics', 'ClearAligners', 'Crowns', 'Veneers', 'Dentures', 'RootCanal', 'GeneralDentistry'];
const EMPLOYERS = ['City Hospital', 'Lone Star Logistics', 'Northside School District', 'Capitol Insurance', 'Self', 'Riverside Foods'];
const EMPLOYMENT = ['EmployedFull', 'EmployedFull', 'EmployedPart', 'SelfEmployed', 'Retired', 'EmployedFull'] as const;
const DECLINE_REASONS = ['Insufficient credit history', 'Debt-to-income ratio too high', 'Recent delinquency on credit file'];
const NOTES = [
  'Patient prefers a call after 5 pm.',
  'Treatment plan reviewed with the patient; second phase expected in three months.',
  'Borrower asked about paying off early: no prepayment penalty.',
];

/** Lender products offered in the demo: a deferred-interest promotion and two instalment loans. */
const PRODUCTS = [
  { code: 'PROMO12', name: '12 Months No Interest if Paid in Full', type: 'DeferredInterest', term: 12, apr: 26.99, promoTerm: 12, promoApr: 0 },
  { code: 'INST36', name: '36-Month Fixed Payment Plan', type: 'Installment', term: 36, apr: 17.99, promoTerm: null, promoApr: null },
  { code: 'INST60', name: '60-Month Low Payment Plan', type: 'Installment', term: 60, apr: 9.99, promoTerm: null, promoApr: null },
] as const;

export interface DemoApplicationContext {
  piiKey: Buffer;
  /** Where the sandbox lenders' pages are (sandboxSiteUrl): the lenders' links of the demo applications go there. */
  lenderSite: string | null;
  offices: readonly SeededOffice[];
  lenders: ReadonlyMap<string, { id: number; name: string; fundingDays: number | undefined }>;
  staffUserId: string;
  staffEmail: string;
  count: number;
}

/**
 * The funding tracker's days of a demo loan: a funded one requested three days after the application, paid by the
 * lender a day later and deposited on the funded day, every third reconciled by the office admin two days on; one still
 * waiting requested in the last few days (a loan waits days, not weeks), paid by the lender a day on when its funding
 * is Processing. The expected deposit is counted as the server counts it.
 */
function fundingDaysFor(stage: Stage, i: number, createdAt: Date, fundedAt: Date, now: number, lenderDays: number | undefined, adminId: string) {
  const funded = stage === 'Funded' || stage === 'Refund';
  if (!funded && stage !== 'SubmittedForFunding') return {};
  const day = 86_400_000;
  const requestedAt = funded
    ? new Date(Math.min(createdAt.getTime() + 3 * day, fundedAt.getTime() - 2 * 3_600_000))
    : new Date(Math.max(createdAt.getTime(), now - ((i % 3) + 1) * day));
  const paid = funded || i % 2 === 1;
  const initiatedAt = paid ? new Date(Math.max(requestedAt.getTime(), Math.min(requestedAt.getTime() + day, (funded ? fundedAt.getTime() : now) - 3_600_000))) : null;
  const reconciledAt = funded && i % 3 === 0 ? new Date(Math.min(fundedAt.getTime() + 2 * day, now)) : null;
  return {
    fundingRequestedAt: requestedAt,
    fundingInitiatedAt: initiatedAt,
    expectedDepositOn: initiatedAt && !funded ? depositAfterLenderPaid(initiatedAt) : depositAfterRequest(requestedAt, lenderDays),
    reconciledAt,
    reconciledBy: reconciledAt ? adminId : null,
  };
}

/**
 * Applications spread over the given offices so that every office has every stage at least once
 * (count >= 13 x offices), dated over the last 90 days. Deterministic except for the dates.
 */
export async function seedDemoApplications(db: Db, ctx: DemoApplicationContext): Promise<void> {
  const random = mulberry32(20240611);
  const now = Date.now();
  for (let i = 0; i < ctx.count; i++) {
    const stage = STAGES[i % STAGES.length]!;
    const plan = PLANS[stage];
    const office = ctx.offices[i % ctx.offices.length]!;
    const firstName = FIRST_NAMES[i % FIRST_NAMES.length]!;
    const lastName = LAST_NAMES[(i * 7) % LAST_NAMES.length]!;
    const ageDays = plan.age[0] + random() * (plan.age[1] - plan.age[0]);
    const createdAt = new Date(now - ageDays * 86_400_000);
    const amount = (500 + Math.floor(random() * 145) * 100 + (i % 4) * 25) * 100;
    const ssn = `9${String(30 + (i % 70))}-${String(10 + (i % 80)).padStart(2, '0')}-${String(1000 + i * 211).slice(-4)}`;
    const dob = `${1955 + ((i * 3) % 45)}-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + ((i * 5) % 28)).padStart(2, '0')}`;
    const inOfficeApply = i % 3 === 0;
    const email = `${firstName}.${lastName.replace(/[^A-Za-z]/g, '')}${i}@example.com`.toLowerCase();
    const mobilePhone = `(555) 555-${String(1000 + i).padStart(4, '0')}`;
    const officeLenderCodes = office.lenders.map((l) => l.code);
    const offering = plan.answer === 'Approved' ? office.lenders.slice(0, 3) : [];
    // The n-th lender of the office knows the application by this id, and shows it at this address.
    const lenderAppIdOf = (code: string, n: number) => `${code.toUpperCase()}-A${700_000 + i * 10 + n}`;
    const lenderAppUrlOf = (code: string, n: number) => (ctx.lenderSite ? sandboxAppUrl(ctx.lenderSite, code, lenderAppIdOf(code, n)) : null);
    const productOffers = offering.map((lender, n) => offerFor(lender.code, n, amount, lender.discountRate, lenderAppUrlOf(lender.code, n)));
    const chosenIndex = i % Math.max(productOffers.length, 1);
    const chosen = plan.selected ? productOffers[chosenIndex] : undefined;
    const chosenLender = chosen ? ctx.lenders.get(chosen.lenderCode)! : undefined;
    const fundedAt = new Date(Math.min(createdAt.getTime() + 6 * 86_400_000, now - 3_600_000));
    const isFunded = stage === 'Funded' || stage === 'Refund';
    const refundRows = stage === 'Refund' ? refundsFor(amount, i) : [];
    const funding = fundingDaysFor(stage, i, createdAt, fundedAt, now, chosenLender?.fundingDays, ctx.staffUserId);

    const [row] = await db
      .insert(applications)
      .values({
        officeId: office.id,
        createdBy: inOfficeApply ? ctx.staffUserId : null,
        firstName,
        lastName,
        email,
        mobilePhone,
        homePhone: i % 4 === 0 ? `(555) 555-${String(2000 + i).padStart(4, '0')}` : null,
        streetAddress: `${100 + i * 17} ${STREETS[i % STREETS.length]}`,
        suiteNo: i % 5 === 0 ? `Apt ${i + 2}` : null,
        city: office.city,
        state: office.state,
        zipCode: office.zip,
        dobEnc: encryptPii(ctx.piiKey, dob),
        ssnEnc: encryptPii(ctx.piiKey, ssn),
        last4Ssn: last4(ssn),
        annualIncome: (32_000 + Math.floor(random() * 120) * 1_000) * 100,
        otherIncome: i % 6 === 0 ? 6_000_00 : null,
        otherIncomeSource: i % 6 === 0 ? 'Rental income' : null,
        monthlyHousingPayment: (900 + (i % 10) * 150) * 100,
        employmentStatus: EMPLOYMENT[i % EMPLOYMENT.length],
        employerName: EMPLOYERS[i % EMPLOYERS.length],
        jobTitle: i % 2 === 0 ? 'Manager' : 'Technician',
        employmentMonths: 6 + ((i * 13) % 120),
        residenceStatus: (['Rent', 'Own', 'Other'] as const)[i % 3],
        isActiveMilitary: i % 17 === 0,
        amount,
        serviceDate: isoDate(new Date(createdAt.getTime() + (7 + (i % 14)) * 86_400_000)),
        procedure: PROCEDURES[i % PROCEDURES.length],
        stage,
        decisionStatus: plan.decision,
        contractStatus: plan.contract,
        contractSubStatus: refundRows[refundRows.length - 1]?.subStatus ?? plan.subStatus,
        statusText: plan.statusText,
        lenderId: chosenLender?.id ?? null,
        lenderCode: chosen?.lenderCode ?? null,
        lenderName: chosenLender?.name ?? null,
        contractId: chosen && plan.contract ? `${chosen.lenderCode.toUpperCase()}-${String(580_000 + i * 37)}` : null,
        lenderAppUrl: chosen ? lenderAppUrlOf(chosen.lenderCode, chosenIndex) : null,
        productCode: chosen?.productCode ?? null,
        productName: chosen?.productName ?? null,
        productType: chosen?.productType ?? null,
        promoTerm: chosen?.promoTerm ?? null,
        promoApr: chosen?.promoApr ?? null,
        approvedAmount: productOffers.length > 0 ? Math.max(...productOffers.map((o) => o.maxLine)) : null,
        apr: chosen?.apr ?? null,
        term: chosen?.term ?? null,
        monthlyPayment: chosen?.monthlyPayment ?? null,
        expiration: productOffers.length > 0 ? new Date(createdAt.getTime() + 30 * 86_400_000) : null,
        inOfficeApply,
        enableRemoteSign: !inOfficeApply && i % 2 === 0,
        isFinalized: ['Finalized', 'SubmittedForFunding', 'Funded', 'Refund'].includes(stage),
        isExpired: stage === 'Expired',
        isOfferMatch: productOffers.length > 0,
        isPending: stage === 'NotApplicable' || stage === 'Review',
        isPoiReqd: stage === 'Review',
        isCreditFrozen: stage === 'NeedsAttention',
        fundedAmount: isFunded && chosen ? amount - chosen.discountAmount : null,
        fundedAt: isFunded ? fundedAt : null,
        fundingStatus: isFunded ? 'Completed' : stage === 'SubmittedForFunding' ? (i % 2 ? 'Processing' : 'Initiated') : null,
        refundedAmount: refundRows.reduce((sum, r) => sum + r.amount, 0),
        ...funding,
        createdAt,
        updatedAt: createdAt,
        statusSince: createdAt,
      })
      .returning({ id: applications.id });
    const appId = row!.id;
    const at = (hours: number) => new Date(Math.min(createdAt.getTime() + hours * 3_600_000, now));

    await db.insert(applicationLenders).values(
      officeLenderCodes.map((code, n) => {
        const answer: Answer = n < 3 ? plan.answer : plan.answer === 'Pending' ? 'Pending' : 'Declined';
        return {
          appId,
          lenderId: ctx.lenders.get(code)!.id,
          status: answer,
          adverseActionReason: answer === 'Declined' ? DECLINE_REASONS[(i + n) % DECLINE_REASONS.length]! : null,
          lenderAppId: answer === 'Pending' ? null : lenderAppIdOf(code, n),
          respondedAt: answer === 'Pending' ? null : at(0.01),
          latencyMs: answer === 'Pending' ? null : 400 + Math.floor(random() * 3_600),
          createdAt,
        };
      }),
    );

    if (productOffers.length > 0) {
      await db.insert(offers).values(
        productOffers.map(({ lenderCode, ...offer }, n) => ({
          ...offer,
          appId,
          lenderId: ctx.lenders.get(lenderCode)!.id,
          isSelected: plan.selected && n === chosenIndex,
          isDefault: n === 0,
          createdAt,
        })),
      );
    }

    if (refundRows.length > 0) {
      await db.insert(refunds).values(
        refundRows.map(({ subStatus: _, ...refund }, n) => ({
          ...refund,
          appId,
          officeId: office.id,
          createdBy: ctx.staffUserId,
          estimatedAchDeliveryDate: isoDate(at(24 * (13 + n * 3))),
          createdAt: at(24 * (10 + n * 3)),
          updatedAt: at(24 * (11 + n * 3)),
        })),
      );
    }

    if (!inOfficeApply) {
      await db.insert(sendAppLogs).values({
        officeId: office.id,
        appId,
        firstName,
        lastName,
        email: i % 2 === 0 ? email : null,
        mobilePhone: i % 2 === 0 ? null : mobilePhone,
        amount,
        enableRemoteSign: i % 2 === 0,
        sentBy: ctx.staffUserId,
        createdAt,
      });
    }

    if (i % 3 === 0) {
      await db.insert(appNotes).values({ appId, note: NOTES[i % NOTES.length]!, createdBy: ctx.staffUserId, createdAt: at(2), updatedAt: at(2) });
    }

    if (stage === 'Review') {
      await db.insert(stipulations).values({
        appId,
        lenderId: ctx.lenders.get(officeLenderCodes[0]!)!.id,
        name: 'Proof of income',
        explanation: 'Upload a recent pay stub or the last two bank statements.',
        createdAt: at(0.02),
      });
    }

    const actor = inOfficeApply ? ctx.staffEmail : 'borrower';
    await db.insert(appLogs).values([
      { appId, kind: 'Event' as const, message: 'Application created', actor, createdAt },
      { appId, kind: 'Event' as const, message: `Submitted to ${officeLenderCodes.length} lenders`, actor, createdAt: at(0.005) },
      ...officeLenderCodes.slice(0, 3).map((code) => ({
        appId,
        kind: 'Decision' as const,
        message: `${ctx.lenders.get(code)!.name}: ${plan.answer}`,
        data: { lender: code, status: plan.answer },
        actor: 'system',
        createdAt: at(0.01),
      })),
      ...plan.contractLog.map((message, n) => ({
        appId,
        kind: 'Contract' as const,
        message,
        data: chosen ? { lender: chosen.lenderCode, product: chosen.productCode } : null,
        actor: n === 0 ? 'borrower' : 'system',
        createdAt: at(4 + n * 20),
      })),
    ]);
  }
}

function offerFor(lenderCode: string, n: number, amount: number, discountRate: number, lenderAppUrl: string | null) {
  const product = PRODUCTS[n % PRODUCTS.length]!;
  const monthlyPayment = payment(amount, product.promoApr ?? product.apr, product.promoTerm ?? product.term);
  const totalCost = monthlyPayment * (product.promoTerm ?? product.term);
  const discountAmount = Math.round((amount * discountRate) / 100);
  return {
    lenderCode,
    productCode: `${lenderCode.toUpperCase()}-${product.code}`,
    productName: product.name,
    productType: product.type,
    promoTerm: product.promoTerm,
    promoApr: product.promoApr,
    term: product.term,
    noInterestTerm: product.promoTerm,
    apr: product.apr,
    interestRate: product.apr,
    amount,
    minLine: 25_000,
    maxLine: Math.ceil(amount / 100_000) * 100_000 + 100_000,
    monthlyPayment,
    promoMonthlyPayment: product.promoTerm ? monthlyPayment : null,
    originationFee: 0,
    totalInterest: totalCost - amount,
    totalCost,
    discountRate,
    discountAmount,
    // The offer's row on the lender's page (its product code, as the sandbox adapter links offers).
    url: lenderAppUrl && `${lenderAppUrl}#${`${lenderCode}-${product.code}`.toLowerCase()}`,
    messages: product.promoTerm
      ? [`No interest if paid in full within ${product.promoTerm} months.`, `Standard APR of ${product.apr}% applies after the promotional period.`]
      : ['Fixed monthly payments.', 'No prepayment penalty.'],
  };
}

/** Monthly payment in cents of an amortised loan (a promotion at 0% simply splits the amount). */
function payment(amountCents: number, aprPercent: number, months: number): number {
  if (aprPercent === 0) return Math.ceil(amountCents / months);
  const r = aprPercent / 100 / 12;
  return Math.round((amountCents * r) / (1 - (1 + r) ** -months));
}

/** One or two partial refunds, in cents, with the sub-status the latest one gives the application. */
function refundsFor(amount: number, i: number) {
  const rows: { amount: number; reason: string; status: RefundStatus; achStatus: string; subStatus: SubStatus }[] = [
    { amount: Math.round(amount / 400) * 100, reason: 'Treatment plan reduced', status: 'Completed', achStatus: 'Completed', subStatus: 'RefundCompleted' },
  ];
  if (i % 2 === 0) {
    rows.push({ amount: Math.round(amount / 1000) * 100, reason: 'Billing adjustment', status: 'Submitted', achStatus: 'Initiated', subStatus: 'RefundSubmitted' });
  }
  return rows;
}

function isoDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** Small seeded generator so the demo data is the same on every machine. */
function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
