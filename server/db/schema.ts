import { sql, type SQL } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgEnum,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import type { CreditScoreUsed } from '../../core/lenders/terms.ts';
import type { KbaQuestion, StudioReview, StudioReviewState } from '../../codegen/generated/schemas.ts';

/*
 * Conventions (docs/decisions/0010-database.md):
 * - money is integer cents (`cents()`), never a binary float; rates are numeric;
 * - columns ending in `_enc` hold AES-256-GCM ciphertext from server/crypto/pii.ts, with a clear
 *   last-4 column beside them where lists need one;
 * - spec §4 enumerations are PostgreSQL enums; value lists that product owners extend (lender codes,
 *   config item types, file kinds) are text, so adding one is data, not a migration.
 */

const cents = (name: string) => bigint(name, { mode: 'number' });
const rate = (name: string) => numeric(name, { precision: 7, scale: 3, mode: 'number' });
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();
const at = (name: string) => timestamp(name, { withTimezone: true });

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

// ---- enumerations (spec §4, §6) -------------------------------------------------------------

export const enrollmentStatus = pgEnum('enrollment_status', [
  'New', 'ESignSent', 'ESignCompleted', 'Submitted', 'UnderReview', 'Declined', 'Approved', 'OnHold', 'WatchList', 'Terminated',
]);
export const appStage = pgEnum('app_stage', [
  'NotApplicable', 'OfferSelected', 'SigningRequired', 'ReadyToFinalize', 'Finalized', 'SubmittedForFunding', 'Funded',
  'NeedsAttention', 'Expired', 'Cancelled', 'Refund', 'Review', 'Declined',
]);
export const contractSubStatus = pgEnum('contract_sub_status', [
  'NotApplicable', 'ESignLinkSent', 'ESignGenerated', 'KBAPending', 'KBAPassed', 'KBAFailed', 'RefundSubmitted',
  'RefundProcessing', 'RefundCompleted', 'RefundCancelled', 'TermsPresented', 'PaymentMethodPresented',
  'AgreementPresented', 'FundingApproved', 'FundsReleased', 'Booked',
]);
export const residenceStatus = pgEnum('residence_status', ['Rent', 'Own', 'Other']);
export const employmentStatus = pgEnum('employment_status', [
  'EmployedFull', 'EmployedPart', 'SelfEmployed', 'Retired', 'Student', 'UnEmployed',
]);
export const timeZone = pgEnum('time_zone', ['AT', 'AZT', 'CT', 'ET', 'HT', 'MT', 'PT']);
/** The API speaks Checking=0, Savings=1 (§4); the database keeps the names. */
export const bankAccountType = pgEnum('bank_account_type', ['Checking', 'Savings']);
export const officeLenderStatus = pgEnum('office_lender_status', [
  'OfficeSubmitted', 'OfficeFundsSubmitted', 'SubmittedToLender', 'Completed', 'Cancelled',
]);
export const officeRole = pgEnum('office_role', ['admin', 'support', 'tpa', 'sales']);
export const internalRole = pgEnum('internal_role', ['df.admin', 'dfi.admin', 'product.owner']);
export const lenderAnswerStatus = pgEnum('lender_answer_status', [
  'Pending', 'Approved', 'Declined', 'PendingReview', 'Error', 'TimedOut',
]);
export const fundingStatus = pgEnum('funding_status', ['Initiated', 'Processing', 'Completed']);
export const refundStatus = pgEnum('refund_status', ['Submitted', 'Processing', 'Completed', 'Cancelled']);
export const refundApproval = pgEnum('refund_approval', ['Awaiting', 'Approved', 'Rejected']);
export const lenderTransactionStatus = pgEnum('lender_transaction_status', ['Submitted', 'Completed', 'Cancelled', 'Failed']);
export const appLogKind = pgEnum('app_log_kind', ['Event', 'Decision', 'Contract']);
export const messageChannel = pgEnum('message_channel', ['Email', 'Sms']);
export const outboxStatus = pgEnum('outbox_status', ['Pending', 'Sent', 'Failed']);
export const kbaStatus = pgEnum('kba_status', ['Pending', 'Passed', 'Failed']);

// ---- configuration ------------------------------------------------------------------------------

/** Spec §3 config items: value lists (States, Procedures, ...) and feature flags, by `type`. */
export const configItems = pgTable(
  'config_items',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    type: text('type').notNull(),
    name: text('name').notNull(),
    description: text('description'),
    value: text('value'),
    displayOrder: integer('display_order').notNull().default(0),
    isEnabled: boolean('is_enabled').notNull().default(true),
  },
  (t) => [uniqueIndex('config_items_type_name_key').on(t.type, t.name)],
);

// ---- offices ------------------------------------------------------------------------------------

/**
 * A practice group: the offices (locations) one business runs (decision 0281). Its locations' members switch between
 * them, report on them rolled up, and are invited to several at once; each location still enrolls and is reviewed alone.
 */
export const organizations = pgTable('organizations', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  name: text('name').notNull(),
  createdAt: createdAt(),
});

export const offices = pgTable(
  'offices',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity({ startWith: 100 }),
    name: text('name').notNull(),
    legalName: text('legal_name'),
    phone: text('phone'),
    fax: text('fax'),
    website: text('website'),
    licenseNo: text('license_no'),
    licenseState: text('license_state'),
    category: text('category'),
    taxId: text('tax_id'),
    businessType: text('business_type'),
    annualRevenue: cents('annual_revenue'),
    groupCode: text('group_code'),
    promoCode: text('promo_code'),
    howHeard: text('how_heard'),
    locationCount: integer('location_count'),
    streetAddress: text('street_address'),
    suiteNo: text('suite_no'),
    city: text('city'),
    state: text('state'),
    zipCode: text('zip_code'),
    timeZone: timeZone('time_zone'),
    googlePlaceId: text('google_place_id'),
    utmSource: text('utm_source'),
    utmMedium: text('utm_medium'),
    utmCampaign: text('utm_campaign'),

    enrollmentStatus: enrollmentStatus('enrollment_status').notNull().default('New'),
    isEnrollmentCompleted: boolean('is_enrollment_completed').notNull().default(false),
    isApproved: boolean('is_approved').notNull().default(false),
    isReviewed: boolean('is_reviewed').notNull().default(false),
    isActive: boolean('is_active').notNull().default(true),
    submittedAt: at('submitted_at'),
    approvedAt: at('approved_at'),
    /** Why the office has its current status and since when (the last row of office_status_changes, kept here for every page load). */
    statusReason: text('status_reason'),
    statusChangedAt: at('status_changed_at'),

    /** Landing page (/landing/{code}); `groupCode` groups offices on /landing/multi/{code}. */
    code: text('code'),
    landingDescription: text('landing_description'),
    showMaps: boolean('show_maps').notNull().default(false),
    mapsUrl: text('maps_url'),
    logoFileId: uuid('logo_file_id').references((): AnyPgColumn => files.id, { onDelete: 'set null' }),
    pictureFileId: uuid('picture_file_id').references((): AnyPgColumn => files.id, { onDelete: 'set null' }),

    bankAccountType: bankAccountType('bank_account_type'),
    bankName: text('bank_name'),
    bankAccountName: text('bank_account_name'),
    bankRoutingNumberEnc: text('bank_routing_number_enc'),
    bankRoutingLast4: text('bank_routing_last4'),
    bankAccountNumberEnc: text('bank_account_number_enc'),
    bankAccountLast4: text('bank_account_last4'),

    /** Bank verification and debit authorisation with the ACH provider, for funding and refunds. */
    achProvider: text('ach_provider'),
    achCustomerId: text('ach_customer_id'),
    achAccountId: text('ach_account_id'),
    achAccountStatus: text('ach_account_status'),
    achVerifyMethod: text('ach_verify_method'),
    achVerifyStatus: text('ach_verify_status'),
    achVerifiedAt: at('ach_verified_at'),
    /** Refunds above this many cents need a second person's approval (decision 0280); null: none do. */
    refundApprovalAbove: cents('refund_approval_above'),
    organizationId: integer('organization_id').references(() => organizations.id),
    achDebitStatus: text('ach_debit_status'),
    achDebitAuthorizedAt: at('ach_debit_authorized_at'),
    /** Micro-deposit verification: when the deposits were sent and how many wrong pairs the office typed since (decision 0152). */
    achDepositsSentAt: at('ach_deposits_sent_at'),
    achVerifyFailures: integer('ach_verify_failures').notNull().default(0),

    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('offices_code_key').on(t.code),
    index('offices_group_code_idx').on(t.groupCode),
    index('offices_enrollment_status_idx').on(t.enrollmentStatus),
    index('offices_organization_idx').on(t.organizationId),
  ],
);

export const officeOwners = pgTable(
  'office_owners',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    officeId: integer('office_id').notNull().references(() => offices.id, { onDelete: 'cascade' }),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    title: text('title'),
    email: text('email'),
    mobilePhone: text('mobile_phone'),
    homePhone: text('home_phone'),
    dobEnc: text('dob_enc'),
    ssnEnc: text('ssn_enc'),
    ssnLast4: text('ssn_last4'),
    ownershipPercent: numeric('ownership_percent', { precision: 5, scale: 2, mode: 'number' }),
    streetAddress: text('street_address'),
    suiteNo: text('suite_no'),
    city: text('city'),
    state: text('state'),
    zipCode: text('zip_code'),
    annualIncome: cents('annual_income'),
    netWorth: cents('net_worth'),
    primaryIncomeSource: text('primary_income_source'),
    secondaryIncomeSource: text('secondary_income_source'),
    isPrimary: boolean('is_primary').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('office_owners_office_idx').on(t.officeId)],
);

/** Per-office config items (alerts, terms, promo terms, landing banner, feature flags). */
export const officeSettings = pgTable(
  'office_settings',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    officeId: integer('office_id').notNull().references(() => offices.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    name: text('name').notNull(),
    value: text('value'),
    displayOrder: integer('display_order').notNull().default(0),
    isEnabled: boolean('is_enabled').notNull().default(true),
  },
  (t) => [uniqueIndex('office_settings_office_type_name_key').on(t.officeId, t.type, t.name)],
);

/** Every change of an office's enrollment status: who, when, from what to what and why (decision 0150). */
export const officeStatusChanges = pgTable(
  'office_status_changes',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    officeId: integer('office_id').notNull().references(() => offices.id, { onDelete: 'cascade' }),
    fromStatus: enrollmentStatus('from_status').notNull(),
    toStatus: enrollmentStatus('to_status').notNull(),
    reason: text('reason').notNull(),
    changedBy: uuid('changed_by').references((): AnyPgColumn => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index('office_status_changes_office_idx').on(t.officeId, t.createdAt)],
);

/**
 * The sandbox ACH provider's side of a micro-deposit verification: the two amounts it "sent" to an account,
 * encrypted like bank numbers (two amounts of 1–99 cents are too few combinations to hide behind a hash).
 */
export const achSandboxDeposits = pgTable('ach_sandbox_deposits', {
  accountId: text('account_id').primaryKey(),
  officeId: integer('office_id').notNull().references(() => offices.id, { onDelete: 'cascade' }),
  amountsEnc: text('amounts_enc').notNull(),
  createdAt: createdAt(),
});

// ---- users --------------------------------------------------------------------------------------

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Stored lower-cased (the check enforces it) so the unique index is case-insensitive. */
    email: text('email').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    role: officeRole('role').notNull(),
    userRole: internalRole('user_role'),
    title: text('title'),
    timeZone: timeZone('time_zone'),
    /** `local` for the built-in identity provider, else the external issuer's name. */
    provider: text('provider').notNull().default('local'),
    providerId: text('provider_id'),
    passwordHash: text('password_hash'),
    isDisabled: boolean('is_disabled').notNull().default(false),
    lastLoginAt: at('last_login_at'),
    utmSource: text('utm_source'),
    utmMedium: text('utm_medium'),
    utmCampaign: text('utm_campaign'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('users_email_key').on(t.email),
    uniqueIndex('users_provider_subject_key').on(t.provider, t.providerId),
    check('users_email_lower_check', sql`${t.email} = lower(${t.email})`),
  ],
);

export const userOffices = pgTable(
  'user_offices',
  {
    userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    officeId: integer('office_id').notNull().references(() => offices.id, { onDelete: 'cascade' }),
    role: officeRole('role').notNull(),
    title: text('title'),
    timeZone: timeZone('time_zone'),
    isPrimary: boolean('is_primary').notNull().default(false),
    isInvited: boolean('is_invited').notNull().default(false),
    isInviteProcessed: boolean('is_invite_processed').notNull().default(false),
    isDisabled: boolean('is_disabled').notNull().default(false),
    /**
     * Permissions given beyond the role's template, and taken from it (core/permissions.ts, decision 0279): the role
     * stays a template, so a person whose role changes keeps what was said of them alone.
     */
    permissionsGranted: text('permissions_granted').array().notNull().default(sql`'{}'::text[]`),
    permissionsWithdrawn: text('permissions_withdrawn').array().notNull().default(sql`'{}'::text[]`),
    lastLoginAt: at('last_login_at'),
    createdAt: createdAt(),
  },
  // The primary key (user_id, office_id) serves "offices of a user".
  (t) => [primaryKey({ columns: [t.userId, t.officeId] }), index('user_offices_office_idx').on(t.officeId)],
);

export const invites = pgTable(
  'invites',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    officeId: integer('office_id').notNull().references(() => offices.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    role: officeRole('role').notNull(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: at('expires_at').notNull(),
    usedAt: at('used_at'),
    /** The other locations of the office's organization the same invitation joins (decision 0281). */
    alsoOfficeIds: integer('also_office_ids').array().notNull().default(sql`'{}'::integer[]`),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('invites_token_hash_key').on(t.tokenHash), index('invites_office_idx').on(t.officeId)],
);

// ---- lenders ------------------------------------------------------------------------------------

export const lenders = pgTable(
  'lenders',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    phone: text('phone'),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('lenders_code_key').on(t.code)],
);

export const officeLenders = pgTable(
  'office_lenders',
  {
    officeId: integer('office_id').notNull().references(() => offices.id, { onDelete: 'cascade' }),
    lenderId: integer('lender_id').notNull().references(() => lenders.id),
    /** The lender's own id for this office once it is enrolled there. */
    lenderOfficeId: text('lender_office_id'),
    status: officeLenderStatus('status'),
    notes: text('notes'),
    numOrder: integer('num_order').notNull().default(0),
    programUrl: text('program_url'),
    officeApplyMode: text('office_apply_mode'),
    isEnrollmentCompleted: boolean('is_enrollment_completed').notNull().default(false),
    isReviewed: boolean('is_reviewed').notNull().default(false),
    isEnabled: boolean('is_enabled').notNull().default(true),
    discountRate: rate('discount_rate'),
    showApply: boolean('show_apply').notNull().default(false),
    /** The office's public landing page lists this lender (the landing page editor's choice). */
    showOnLanding: boolean('show_on_landing').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.officeId, t.lenderId] })],
);

// ---- applications -------------------------------------------------------------------------------

export const applications = pgTable(
  'applications',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity({ startWith: 1000 }),
    officeId: integer('office_id').notNull().references(() => offices.id),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),

    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    /** 'first last' lower-cased, for the prefix name filter; generated so no writer can forget it. */
    searchName: text('search_name')
      .notNull()
      .generatedAlwaysAs((): SQL => sql`lower(${applications.firstName} || ' ' || ${applications.lastName})`),
    email: text('email'),
    mobilePhone: text('mobile_phone'),
    homePhone: text('home_phone'),
    streetAddress: text('street_address'),
    suiteNo: text('suite_no'),
    city: text('city'),
    state: text('state'),
    zipCode: text('zip_code'),
    dobEnc: text('dob_enc'),
    ssnEnc: text('ssn_enc'),
    last4Ssn: text('last4_ssn'),

    annualIncome: cents('annual_income'),
    otherIncome: cents('other_income'),
    otherIncomeSource: text('other_income_source'),
    monthlyHousingPayment: cents('monthly_housing_payment'),
    employmentStatus: employmentStatus('employment_status'),
    employerName: text('employer_name'),
    employerPhone: text('employer_phone'),
    jobTitle: text('job_title'),
    employmentMonths: integer('employment_months'),
    residenceStatus: residenceStatus('residence_status'),
    isActiveMilitary: boolean('is_active_military').notNull().default(false),

    /** The borrower's language for what is written to them (decision 0216); null is the source language, English. */
    language: text('language'),
    /**
     * The studio publication whose pages, disclosures and translations the borrower was last shown when they acted
     * (issue 41, decision 0289): 0 the files as deployed; null not known (no borrower step yet, or a client that
     * does not say).
     */
    shownPublication: integer('shown_publication'),

    amount: cents('amount').notNull(),
    serviceDate: date('service_date', { mode: 'string' }),
    procedure: text('procedure'),
    referenceCode: text('reference_code'),

    stage: appStage('stage').notNull().default('NotApplicable'),
    /** The overall lender decision; the contract state's value list is left open by the spec. */
    decisionStatus: lenderAnswerStatus('decision_status'),
    contractStatus: text('contract_status'),
    contractSubStatus: contractSubStatus('contract_sub_status').notNull().default('NotApplicable'),
    statusText: text('status_text'),
    /** When statusText last changed (a trigger keeps it, migration 0013): the page says since when the borrower is where they are. */
    statusSince: at('status_since').notNull().defaultNow(),

    /** The chosen lender, copied by value so lists need no join. */
    lenderId: integer('lender_id').references(() => lenders.id),
    lenderCode: text('lender_code'),
    lenderName: text('lender_name'),
    thirdPartyLender: text('third_party_lender'),
    contractId: text('contract_id'),
    lenderAppUrl: text('lender_app_url'),
    productCode: text('product_code'),
    productName: text('product_name'),
    productType: text('product_type'),
    promoTerm: integer('promo_term'),
    promoApr: rate('promo_apr'),
    approvedAmount: cents('approved_amount'),
    apr: rate('apr'),
    term: integer('term'),
    monthlyPayment: cents('monthly_payment'),
    expiration: at('expiration'),

    inOfficeApply: boolean('in_office_apply').notNull().default(false),
    enableRemoteSign: boolean('enable_remote_sign').notNull().default(false),
    isFinalized: boolean('is_finalized').notNull().default(false),
    isExpired: boolean('is_expired').notNull().default(false),
    isMismatch: boolean('is_mismatch').notNull().default(false),
    isOfferMatch: boolean('is_offer_match').notNull().default(false),
    isBorrowerHold: boolean('is_borrower_hold').notNull().default(false),
    isLenderHold: boolean('is_lender_hold').notNull().default(false),
    isPending: boolean('is_pending').notNull().default(false),
    isCreditFrozen: boolean('is_credit_frozen').notNull().default(false),
    isCreditLocked: boolean('is_credit_locked').notNull().default(false),
    isPoiReqd: boolean('is_poi_reqd').notNull().default(false),
    isSsnMismatch: boolean('is_ssn_mismatch').notNull().default(false),

    fundedAmount: cents('funded_amount'),
    fundedAt: at('funded_at'),
    fundingStatus: fundingStatus('funding_status'),
    refundedAmount: cents('refunded_amount').notNull().default(0),
    /**
     * The funding tracker's steps (issue 40, decision 0278): requested when the office finalized, initiated when the
     * lender said it paid, deposited on the funded day, reconciled when the office matched the deposit to its bank
     * statement. The expected deposit day is counted in business days when the loan is requested and again when the
     * lender pays; it stays once deposited, to be set against the actual day.
     */
    fundingRequestedAt: at('funding_requested_at'),
    fundingInitiatedAt: at('funding_initiated_at'),
    expectedDepositOn: date('expected_deposit_on', { mode: 'string' }),
    reconciledAt: at('reconciled_at'),
    reconciledBy: uuid('reconciled_by').references(() => users.id, { onDelete: 'set null' }),

    /**
     * What the reports and the funded lists count of the lenders' answers (decision 0277), kept by the database whenever
     * an answer or an offer is written (migration 0016): how many lenders were asked, how many approved, the place in
     * the office's lender order of the first that approved, and the selected offer's discount rate.
     */
    lendersAsked: smallint('lenders_asked').notNull().default(0),
    lendersApproved: smallint('lenders_approved').notNull().default(0),
    firstApprovedPlace: smallint('first_approved_place'),
    discountRate: rate('discount_rate'),

    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // Ascending keys: a backward scan serves `ORDER BY created_at DESC` (drizzle's desc() is NULLS FIRST,
    // which an index declared DESC NULLS LAST could not serve).
    // Office lists, newest first, and their COUNT(*).
    index('applications_office_created_idx').on(t.officeId, t.createdAt),
    // Kanban and stage-filtered office lists: applications_office_stage_cards_idx (migration 0024), a covering index
    // drizzle cannot declare.
    // Name prefix filter (LIKE 'q%'); text_pattern_ops makes LIKE usable whatever the collation.
    index('applications_office_search_idx').on(t.officeId, t.searchName.op('text_pattern_ops')),
    index('applications_search_idx').on(t.searchName.op('text_pattern_ops')),
    // Last name alone ('smi' finds John Smith), beside the 'first last' prefix above (decision 0080).
    index('applications_office_last_name_idx').on(t.officeId, sql`lower(${t.lastName}) text_pattern_ops`),
    index('applications_last_name_idx').on(sql`lower(${t.lastName}) text_pattern_ops`),
    // Admin lists across offices.
    index('applications_created_idx').on(t.createdAt),
    index('applications_stage_created_idx').on(t.stage, t.createdAt),
    // Funded lists; partial because most applications are never funded.
    index('applications_office_funded_idx').on(t.officeId, t.fundedAt).where(sql`${t.fundedAt} is not null`),
    index('applications_funded_idx').on(t.fundedAt).where(sql`${t.fundedAt} is not null`),
    // The funding tracker: an office's loans from the finalize on, newest request first.
    index('applications_office_funding_idx').on(t.officeId, t.fundingRequestedAt).where(sql`${t.fundingRequestedAt} is not null`),
    check('applications_amount_check', sql`${t.amount} > 0`),
  ],
);

/** Each lender's answer to a submitted application. */
export const applicationLenders = pgTable(
  'application_lenders',
  {
    appId: bigint('app_id', { mode: 'number' }).notNull().references(() => applications.id, { onDelete: 'cascade' }),
    lenderId: integer('lender_id').notNull().references(() => lenders.id),
    status: lenderAnswerStatus('status').notNull().default('Pending'),
    adverseActionReason: text('adverse_action_reason'),
    /** The credit score the lender used for a decline, stated in the adverse-action notice (decision 0221). */
    creditScore: jsonb('credit_score').$type<CreditScoreUsed>(),
    lenderAppId: text('lender_app_id'),
    respondedAt: at('responded_at'),
    latencyMs: integer('latency_ms'),
    /** Kept by the database for the reports (migration 0016): the lender's place among those asked, in the office's order; its best offer. */
    place: smallint('place'),
    bestAmount: cents('best_amount'),
    bestApr: rate('best_apr'),
    /** Kept by the database (migration 0022): approved, and the only lender that approved the application. */
    approvedAlone: boolean('approved_alone').notNull().default(false),
    /**
     * The application's day, office and author, copied by the database as the answer is written (migration 0022): they
     * never change, and the reports' approvals by lender read the answers of a period without joining 100,000
     * applications (decision 0282).
     */
    appCreatedAt: at('app_created_at'),
    appOfficeId: integer('app_office_id'),
    appCreatedBy: uuid('app_created_by'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.appId, t.lenderId] })],
);

export const offers = pgTable(
  'offers',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    appId: bigint('app_id', { mode: 'number' }).notNull().references(() => applications.id, { onDelete: 'cascade' }),
    lenderId: integer('lender_id').notNull().references(() => lenders.id),
    productCode: text('product_code').notNull(),
    productName: text('product_name'),
    productType: text('product_type'),
    promoTerm: integer('promo_term'),
    term: integer('term'),
    noInterestTerm: integer('no_interest_term'),
    minLine: cents('min_line'),
    maxLine: cents('max_line'),
    promoApr: rate('promo_apr'),
    apr: rate('apr'),
    interestRate: rate('interest_rate'),
    amount: cents('amount'),
    monthlyPayment: cents('monthly_payment'),
    promoMonthlyPayment: cents('promo_monthly_payment'),
    originationFee: cents('origination_fee'),
    totalInterest: cents('total_interest'),
    totalCost: cents('total_cost'),
    discountRate: rate('discount_rate'),
    discountAmount: cents('discount_amount'),
    url: text('url'),
    isSelected: boolean('is_selected').notNull().default(false),
    isVisible: boolean('is_visible').notNull().default(true),
    isDefault: boolean('is_default').notNull().default(false),
    messages: jsonb('messages').$type<string[]>().notNull().default([]),
    createdAt: createdAt(),
  },
  (t) => [index('offers_app_idx').on(t.appId)],
);

export const appNotes = pgTable(
  'app_notes',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    appId: bigint('app_id', { mode: 'number' }).notNull().references(() => applications.id, { onDelete: 'cascade' }),
    note: text('note').notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('app_notes_app_idx').on(t.appId, t.createdAt)],
);

/** Uploaded documents; the bytes live in the database until object storage is configured. */
export const files = pgTable(
  'files',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    officeId: integer('office_id')
      .notNull()
      .references((): AnyPgColumn => offices.id, { onDelete: 'cascade' }),
    appId: bigint('app_id', { mode: 'number' }).references(() => applications.id, { onDelete: 'cascade' }),
    ownerId: integer('owner_id').references(() => officeOwners.id, { onDelete: 'set null' }),
    kind: text('kind').notNull(),
    fileName: text('file_name').notNull(),
    /** What the uploader said the file is (application files). */
    description: text('description'),
    contentType: text('content_type').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    sha256: text('sha256').notNull(),
    bytes: bytea('bytes').notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index('files_office_idx').on(t.officeId), index('files_app_idx').on(t.appId)],
);

/** Audit trail of an application (spec: event, decision and contract logs). */
export const appLogs = pgTable(
  'app_logs',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    appId: bigint('app_id', { mode: 'number' }).notNull().references(() => applications.id, { onDelete: 'cascade' }),
    kind: appLogKind('kind').notNull(),
    message: text('message').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>(),
    actor: text('actor'),
    createdAt: createdAt(),
  },
  (t) => [index('app_logs_app_idx').on(t.appId, t.createdAt)],
);

/** One row per application link sent by text or e-mail (/logs/sendapp). */
export const sendAppLogs = pgTable(
  'send_app_logs',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    officeId: integer('office_id').notNull().references(() => offices.id, { onDelete: 'cascade' }),
    appId: bigint('app_id', { mode: 'number' }).references(() => applications.id, { onDelete: 'set null' }),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    email: text('email'),
    mobilePhone: text('mobile_phone'),
    amount: cents('amount').notNull(),
    serviceDate: date('service_date', { mode: 'string' }),
    enableRemoteSign: boolean('enable_remote_sign').notNull().default(false),
    sentBy: uuid('sent_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index('send_app_logs_office_created_idx').on(t.officeId, t.createdAt)],
);

export const refunds = pgTable(
  'refunds',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    appId: bigint('app_id', { mode: 'number' }).notNull().references(() => applications.id, { onDelete: 'cascade' }),
    /** Copied from the application so the refund lists filter without a join. */
    officeId: integer('office_id').notNull().references(() => offices.id),
    amount: cents('amount').notNull(),
    reason: text('reason'),
    status: refundStatus('status').notNull().default('Submitted'),
    achStatus: text('ach_status'),
    estimatedAchDeliveryDate: date('estimated_ach_delivery_date', { mode: 'string' }),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    /**
     * A refund above the office's approval amount waits for a second person (decision 0280): Awaiting until approved
     * (then the lender is told) or rejected (then it is cancelled); null when no approval was needed.
     */
    approval: refundApproval('approval'),
    approvedBy: uuid('approved_by').references(() => users.id, { onDelete: 'set null' }),
    approvedAt: at('approved_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('refunds_office_created_idx').on(t.officeId, t.createdAt),
    index('refunds_created_idx').on(t.createdAt),
    index('refunds_app_idx').on(t.appId),
    check('refunds_amount_check', sql`${t.amount} > 0`),
  ],
);

/** Charges and cancellations the office submits to the lender (SubmitTrans / CancelTrans). */
export const lenderTransactions = pgTable(
  'lender_transactions',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    appId: bigint('app_id', { mode: 'number' }).notNull().references(() => applications.id, { onDelete: 'cascade' }),
    lenderId: integer('lender_id').notNull().references(() => lenders.id),
    kind: text('kind').notNull(),
    amount: cents('amount').notNull(),
    status: lenderTransactionStatus('status').notNull().default('Submitted'),
    lenderReference: text('lender_reference'),
    data: jsonb('data').$type<Record<string, unknown>>(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('lender_transactions_app_idx').on(t.appId)],
);

/** Conditions a lender sets before funding (proof of income, photo id, ...). */
export const stipulations = pgTable(
  'stipulations',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    appId: bigint('app_id', { mode: 'number' }).notNull().references(() => applications.id, { onDelete: 'cascade' }),
    lenderId: integer('lender_id').references(() => lenders.id),
    name: text('name').notNull(),
    explanation: text('explanation'),
    isRequired: boolean('is_required').notNull().default(true),
    documentId: uuid('document_id').references(() => files.id, { onDelete: 'set null' }),
    isPhotoIdUploaded: boolean('is_photo_id_uploaded').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [index('stipulations_app_idx').on(t.appId)],
);

/** Identity quiz; answers are kept only as hashes so the database never holds the key. */
export const kbaQuizzes = pgTable(
  'kba_quizzes',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    appId: bigint('app_id', { mode: 'number' }).notNull().references(() => applications.id, { onDelete: 'cascade' }),
    transactionId: text('transaction_id').notNull(),
    quizId: text('quiz_id').notNull(),
    questions: jsonb('questions').$type<KbaQuestion[]>().notNull(),
    answerHashes: jsonb('answer_hashes').$type<Record<string, string>>().notNull(),
    attempts: integer('attempts').notNull().default(0),
    status: kbaStatus('status').notNull().default('Pending'),
    expiresAt: at('expires_at').notNull(),
    createdAt: createdAt(),
    completedAt: at('completed_at'),
  },
  (t) => [index('kba_quizzes_app_idx').on(t.appId)],
);

// ---- borrower authentication --------------------------------------------------------------------

/**
 * One passcode request: the challenge its requester holds (the id, answered only to them), the code sent, and the wrong
 * tries made against it. Wrong tries lock the challenge, never the application (docs/decisions/0173). A request from a
 * landing page that matches no application gets a challenge without one, which never verifies.
 */
export const otpChallenges = pgTable(
  'otp_challenges',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    appId: bigint('app_id', { mode: 'number' }).references(() => applications.id, { onDelete: 'cascade' }),
    channel: messageChannel('channel').notNull(),
    codeHash: text('code_hash').notNull(),
    expiresAt: at('expires_at').notNull(),
    attempts: integer('attempts').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index('otp_challenges_app_idx').on(t.appId, t.channel, t.createdAt)],
);

/** Single-use links e-mailed or texted to a borrower. */
export const linkTokens = pgTable(
  'link_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    appId: bigint('app_id', { mode: 'number' }).notNull().references(() => applications.id, { onDelete: 'cascade' }),
    expiresAt: at('expires_at').notNull(),
    usedAt: at('used_at'),
    createdAt: createdAt(),
  },
  (t) => [index('link_tokens_app_idx').on(t.appId)],
);

// ---- platform -----------------------------------------------------------------------------------

/** Replayed answers for retried writes; `statusCode` is null while the first attempt runs. */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    key: text('key').notNull(),
    operation: text('operation').notNull(),
    actor: text('actor').notNull(),
    requestHash: text('request_hash').notNull(),
    statusCode: smallint('status_code'),
    response: jsonb('response'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.key, t.operation, t.actor] }), index('idempotency_keys_created_idx').on(t.createdAt)],
);

/** E-mail and SMS waiting to be sent (and, in demo mode, the only place they go). */
export const outbox = pgTable(
  'outbox',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    channel: messageChannel('channel').notNull(),
    recipient: text('recipient').notNull(),
    subject: text('subject'),
    body: text('body').notNull(),
    links: jsonb('links').$type<{ label: string; url: string }[]>().notNull().default([]),
    status: outboxStatus('status').notNull().default('Pending'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    createdAt: createdAt(),
    sentAt: at('sent_at'),
  },
  (t) => [
    index('outbox_created_idx').on(t.createdAt),
    index('outbox_pending_idx').on(t.createdAt).where(sql`${t.status} = 'Pending'`),
  ],
);

export const jobState = pgEnum('job_state', ['Queued', 'Running', 'Done', 'Dead']);

/**
 * Work done after the request that asked for it (server/jobs): lender callbacks, decision polls, money told to a
 * lender. A job is claimed with SKIP LOCKED for a lease; its `attempts` at the claim fences its completion, so a
 * worker whose lease ran out cannot overwrite the next worker's result. `key` makes a job once per queue (a
 * callback's id, a refund's id): enqueuing it again finds the first.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    queue: text('queue').notNull(),
    key: text('key'),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    state: jobState('state').notNull().default('Queued'),
    runAt: timestamp('run_at', { withTimezone: true }).notNull().defaultNow(),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(10),
    lockedUntil: at('locked_until'),
    lastError: text('last_error'),
    result: jsonb('result').$type<Record<string, unknown>>(),
    createdAt: createdAt(),
    finishedAt: at('finished_at'),
  },
  (t) => [
    uniqueIndex('jobs_queue_key_key').on(t.queue, t.key),
    index('jobs_due_idx').on(t.runAt).where(sql`${t.state} in ('Queued', 'Running')`),
    index('jobs_finished_idx').on(t.finishedAt).where(sql`${t.state} = 'Done'`),
  ],
);

/** Mobile numbers that replied STOP; SMS to them is refused. */
export const smsOptOuts = pgTable('sms_opt_outs', {
  phone: text('phone').primaryKey(),
  createdAt: createdAt(),
});

export const securityEvents = pgTable(
  'security_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    kind: text('kind').notNull(),
    actor: text('actor'),
    detail: jsonb('detail').$type<Record<string, unknown>>(),
    /** The client's address as limits count it: an IPv6 one as its /64 (server/http/addresses.ts networkOf). */
    ip: text('ip'),
    createdAt: createdAt(),
  },
  (t) => [
    index('security_events_created_idx').on(t.createdAt),
    // Sign-in and passcode limits count one actor's or one address's recent events of a kind.
    index('security_events_actor_idx').on(t.kind, t.actor, t.createdAt),
    index('security_events_ip_idx').on(t.kind, t.ip, t.createdAt),
  ],
);

/**
 * The browsers each staff member signed in from (a random id the provider's cookie carries, kept as a hash): a correct
 * password from one of them is never slowed by failures elsewhere (decision 0252).
 */
export const knownDevices = pgTable(
  'known_devices',
  {
    userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    deviceHash: text('device_hash').notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.deviceHash] })],
);

/** Storage for the embedded OpenID provider's adapter (sessions, grants, codes, tokens). */
export const oidcStore = pgTable(
  'oidc_store',
  {
    model: text('model').notNull(),
    id: text('id').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    grantId: text('grant_id'),
    userCode: text('user_code'),
    uid: text('uid'),
    expiresAt: at('expires_at'),
    consumedAt: at('consumed_at'),
  },
  (t) => [
    primaryKey({ columns: [t.model, t.id] }),
    index('oidc_store_grant_idx').on(t.grantId),
    index('oidc_store_user_code_idx').on(t.userCode),
    index('oidc_store_uid_idx').on(t.uid),
    index('oidc_store_expires_idx').on(t.expiresAt),
  ],
);

/**
 * The descriptor sets published from the studio (issue 18, decision 0228): each row is the overlay — the descriptor
 * files, as authored, that differ from the ones deployed with the build — in force from its publication until the
 * next. The newest row is the live set; a rollback is a new row with an earlier overlay, so the history is the audit.
 */
export const descriptorPublications = pgTable(
  'descriptor_publications',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    /** The content hash of the overlay, which names the set the browser loads. */
    hash: text('hash').notNull(),
    overlay: jsonb('overlay').$type<Record<string, unknown>>().notNull(),
    /** The files this publication changed against the one before. */
    changed: jsonb('changed').$type<string[]>().notNull(),
    note: text('note').notNull(),
    /** The publication whose overlay a rollback restored (0: the deployed files). */
    restoredFrom: integer('restored_from'),
    publishedBy: uuid('published_by').notNull().references(() => users.id),
    /** The second product owner who approved it (four eyes, decision 0288); none when published without a review. */
    approvedBy: uuid('approved_by').references(() => users.id),
    publishedAt: createdAt(),
  },
);

/**
 * A change a product owner asked to publish (issue 41, decision 0288): the files as they asked, which a second owner
 * approves (it is then published, or at its time) or sends back, with comments. Until it is published or dropped, the
 * change is fixed: another edit is another request.
 */
export const studioReviews = pgTable(
  'studio_reviews',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    files: jsonb('files').$type<Record<string, Record<string, unknown> | null>>().notNull(),
    note: text('note').notNull(),
    publishOutOfDate: boolean('publish_out_of_date').notNull().default(false),
    /** The live publication the change was asked over: a file changed since is named, and the change asked again. */
    basedOn: integer('based_on').notNull(),
    state: text('state').$type<StudioReviewState>().notNull().default('Pending'),
    publishAt: at('publish_at'),
    comments: jsonb('comments').$type<StudioReview['comments']>().notNull().default([]),
    /** Who approved it so far, in order (the API shows names and times; the ids keep one approval per owner). */
    approvals: jsonb('approvals').$type<Array<StudioReview['approvals'][number] & { userId: string }>>().notNull().default([]),
    askedBy: uuid('asked_by').notNull().references(() => users.id),
    askedAt: createdAt(),
    decidedBy: uuid('decided_by').references(() => users.id),
    decidedAt: at('decided_at'),
    publicationId: integer('publication_id'),
    /** Why a scheduled publication did not go live (the checks of that time). */
    failure: text('failure'),
  },
  (t) => [index('studio_reviews_state_idx').on(t.state, t.id)],
);

/**
 * A product owner's drafts in the studio (issue 41, decision 0274): the text of each file as they typed it — valid JSON
 * or not yet — saved as they type, so a reload or another device loses nothing; other owners see that they exist.
 */
export const studioDrafts = pgTable('studio_drafts', {
  userId: uuid('user_id').primaryKey().references(() => users.id, { onDelete: 'cascade' }),
  files: jsonb('files').$type<Record<string, string>>().notNull(),
  updatedAt: updatedAt(),
});

/**
 * What happened that people and their software care about (issue 39): recorded once, in the transaction of the change,
 * with a public id, its type (schemas/enums/event-type.json), its office and subject. `data` never carries an SSN, a
 * date of birth or a bank number: events leave the portal by webhook.
 */
export const events = pgTable(
  'events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    eventId: uuid('event_id').notNull().defaultRandom().unique(),
    type: text('type').notNull(),
    officeId: integer('office_id').references(() => offices.id, { onDelete: 'cascade' }),
    appId: integer('app_id'),
    subject: jsonb('subject').$type<{ kind: string; id: string }>().notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('events_office_idx').on(t.officeId, t.id), index('events_app_idx').on(t.appId, t.id)],
);

export const webhookEndpointStatus = pgEnum('webhook_endpoint_status', ['Active', 'Paused']);

/**
 * Where an office (or, with no office, the platform) wants its events sent, signed with its secret (kept encrypted,
 * shown once). While a rotation overlaps, the previous secret signs too, until `previousUntil`.
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    officeId: integer('office_id').references(() => offices.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    description: text('description'),
    eventTypes: jsonb('event_types').$type<string[]>().notNull(),
    secret: text('secret').notNull(),
    previousSecret: text('previous_secret'),
    previousUntil: at('previous_until'),
    status: webhookEndpointStatus('status').notNull().default('Active'),
    pausedReason: text('paused_reason'),
    /** Deleted endpoints stay as a tombstone (no secret, no deliveries): a repeated delete answers as the first did. */
    deletedAt: at('deleted_at'),
    createdBy: uuid('created_by').references((): AnyPgColumn => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('webhook_endpoints_office_idx').on(t.officeId)],
);

export const webhookDeliveryStatus = pgEnum('webhook_delivery_status', ['Pending', 'Delivered', 'Failed']);

/** One event to one endpoint, with what its last attempt met: the endpoint's delivery log. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    endpointId: integer('endpoint_id').notNull().references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    eventId: bigint('event_id', { mode: 'number' }).notNull().references(() => events.id, { onDelete: 'cascade' }),
    /** Deliveries of one key reach the endpoint in the order of their events: the application, else the event itself. */
    orderKey: text('order_key').notNull(),
    status: webhookDeliveryStatus('status').notNull().default('Pending'),
    attempts: integer('attempts').notNull().default(0),
    responseStatus: integer('response_status'),
    responseExcerpt: text('response_excerpt'),
    latencyMs: integer('latency_ms'),
    lastError: text('last_error'),
    lastAttemptAt: at('last_attempt_at'),
    deliveredAt: at('delivered_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('webhook_deliveries_once').on(t.endpointId, t.eventId),
    index('webhook_deliveries_log_idx').on(t.endpointId, t.id),
    index('webhook_deliveries_open_idx').on(t.endpointId, t.orderKey, t.eventId).where(sql`${t.status} <> 'Delivered'`),
  ],
);

/**
 * An office's API keys for its partners' software (issue 39; decision 0268): only a SHA-256 of the key is kept (the
 * key is 32 random bytes, so a hash is as strong as a slow one), with its first characters to tell keys apart. Each
 * call counts in its minute's window (window_start, window_count) in this row, so a key's limit holds on every node.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    officeId: integer('office_id').notNull().references(() => offices.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    hash: text('hash').notNull(),
    prefix: text('prefix').notNull(),
    perMinute: integer('per_minute').notNull(),
    windowStart: at('window_start'),
    windowCount: integer('window_count').notNull().default(0),
    lastUsedAt: at('last_used_at'),
    revokedAt: at('revoked_at'),
    createdBy: uuid('created_by').references((): AnyPgColumn => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('api_keys_hash_idx').on(t.hash), index('api_keys_office_idx').on(t.officeId)],
);
