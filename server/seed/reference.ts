import type { Db } from '../db/index.ts';
import { configItems } from '../db/schema.ts';
import { TIME_ZONES } from '../../core/time-zones.ts';

/**
 * Reference data every deployment needs (value lists and the lender catalogue). Inserted by natural
 * key with ON CONFLICT DO NOTHING, so it is safe to run again and never overwrites an edited row.
 */

type ConfigItem = typeof configItems.$inferInsert;

/** `name` is the label shown in lists, `value` the code stored and sent by the API. */
function list(type: string, entries: readonly (readonly [name: string, value: string, description?: string])[]): ConfigItem[] {
  return entries.map(([name, value, description], index) => ({
    type,
    name,
    value,
    description: description ?? null,
    displayOrder: index + 1,
    isEnabled: true,
  }));
}

const STATES = [
  ['Alabama', 'AL'], ['Alaska', 'AK'], ['Arizona', 'AZ'], ['Arkansas', 'AR'], ['California', 'CA'], ['Colorado', 'CO'],
  ['Connecticut', 'CT'], ['Delaware', 'DE'], ['District of Columbia', 'DC'], ['Florida', 'FL'], ['Georgia', 'GA'],
  ['Hawaii', 'HI'], ['Idaho', 'ID'], ['Illinois', 'IL'], ['Indiana', 'IN'], ['Iowa', 'IA'], ['Kansas', 'KS'],
  ['Kentucky', 'KY'], ['Louisiana', 'LA'], ['Maine', 'ME'], ['Maryland', 'MD'], ['Massachusetts', 'MA'],
  ['Michigan', 'MI'], ['Minnesota', 'MN'], ['Mississippi', 'MS'], ['Missouri', 'MO'], ['Montana', 'MT'],
  ['Nebraska', 'NE'], ['Nevada', 'NV'], ['New Hampshire', 'NH'], ['New Jersey', 'NJ'], ['New Mexico', 'NM'],
  ['New York', 'NY'], ['North Carolina', 'NC'], ['North Dakota', 'ND'], ['Ohio', 'OH'], ['Oklahoma', 'OK'],
  ['Oregon', 'OR'], ['Pennsylvania', 'PA'], ['Rhode Island', 'RI'], ['South Carolina', 'SC'], ['South Dakota', 'SD'],
  ['Tennessee', 'TN'], ['Texas', 'TX'], ['Utah', 'UT'], ['Vermont', 'VT'], ['Virginia', 'VA'], ['Washington', 'WA'],
  ['West Virginia', 'WV'], ['Wisconsin', 'WI'], ['Wyoming', 'WY'],
] as const;

const REFERENCE_CONFIG_ITEMS: readonly ConfigItem[] = [
  ...list('States', STATES),
  ...list('BusinessTypes', [
    ['Sole Proprietorship', 'SoleProprietorship'], ['Partnership', 'Partnership'],
    ['Limited Liability Company', 'LLC'], ['S Corporation', 'SCorp'], ['C Corporation', 'CCorp'],
    ['Professional Corporation', 'ProfessionalCorp'], ['Non-Profit Organization', 'NonProfit'],
  ]),
  ...list('OfficeCategories', [
    ['Dental', 'Dental'], ['Orthodontics', 'Orthodontics'], ['Medical', 'Medical'], ['Veterinary', 'Veterinary'],
    ['Dermatology', 'Dermatology'], ['Cosmetic Surgery', 'CosmeticSurgery'], ['Chiropractic', 'Chiropractic'],
    ['Vision', 'Vision'], ['Hearing', 'Hearing'], ['Fertility', 'Fertility'],
  ]),
  ...list('TimeZones', TIME_ZONES.map(({ code, label, iana }) => [label, code, iana] as const)),
  ...list('OfficeUserRoles', [
    ['Administrator', 'admin', 'Manages the office, its users, lenders and landing page'],
    ['Support', 'support', 'Starts and follows applications'],
    ['Third-Party Administrator', 'tpa', 'Follows applications on behalf of the office'],
    ['Sales', 'sales', 'Sales representative for the office'],
  ]),
  ...list('AdminUserRoles', [
    ['Platform Administrator', 'df.admin', 'All offices, users, applications and funding'],
    ['DFI Administrator', 'dfi.admin', 'All offices and applications, without funding or user management'],
  ]),
  ...list('EmploymentStatus', [
    ['Employed Full-Time', 'EmployedFull'], ['Employed Part-Time', 'EmployedPart'], ['Self-Employed', 'SelfEmployed'],
    ['Retired', 'Retired'], ['Student', 'Student'], ['Unemployed', 'UnEmployed'],
  ]),
  ...list('OfficeLenderStatus', [
    ['Submitted by Office', 'OfficeSubmitted'], ['Funding Documents Submitted', 'OfficeFundsSubmitted'],
    ['Submitted to Lender', 'SubmittedToLender'], ['Completed', 'Completed'], ['Cancelled', 'Cancelled'],
  ]),
  ...list('OfficeFileTypes', [
    ['W-9 Form', 'W9'], ['Voided Check', 'VoidedCheck'], ['Business License', 'BusinessLicense'],
    ['Provider License', 'ProviderLicense'], ['Owner Photo ID', 'PhotoId'], ['Bank Statement', 'BankStatement'],
    ['Signed Merchant Agreement', 'MerchantAgreement'],
  ]),
  ...list('BusinessLoanPurpose', [
    ['Equipment Purchase', 'Equipment'], ['Working Capital', 'WorkingCapital'], ['Practice Expansion', 'Expansion'],
    ['Marketing', 'Marketing'], ['Debt Refinance', 'Refinance'],
  ]),
  ...list('OfficeOwnerPrimaryIncomeSource', [
    ['Practice Income', 'PracticeIncome'], ['Salary', 'Salary'], ['Investments', 'Investments'], ['Other', 'Other'],
  ]),
  ...list('OfficeOwnerSecondaryIncomeSource', [
    ['None', 'None'], ['Rental Income', 'RentalIncome'], ['Investments', 'Investments'],
    ['Spouse or Partner Income', 'SpouseIncome'], ['Pension', 'Pension'], ['Other', 'Other'],
  ]),
  ...list('OfficeAlertTypes', [
    ['New application', 'NewApplication'], ['Offer selected', 'OfferSelected'], ['Documents signed', 'DocumentsSigned'],
    ['Application funded', 'ApplicationFunded'], ['Refund update', 'RefundUpdate'],
  ]),
  ...list('Relationships', [
    ['Self', 'Self'], ['Spouse', 'Spouse'], ['Parent', 'Parent'], ['Child', 'Child'], ['Legal Guardian', 'Guardian'],
    ['Other', 'Other'],
  ]),
  ...list('Procedures', [
    ['Dental Implants', 'Implants'], ['Orthodontics / Braces', 'Orthodontics'], ['Clear Aligners', 'ClearAligners'],
    ['Crowns and Bridges', 'Crowns'], ['Veneers', 'Veneers'], ['Dentures', 'Dentures'], ['Root Canal', 'RootCanal'],
    ['General Dentistry', 'GeneralDentistry'], ['LASIK', 'Lasik'], ['Hearing Aids', 'HearingAids'],
    ['Cosmetic Surgery', 'CosmeticSurgery'], ['Dermatology Treatment', 'Dermatology'], ['Veterinary Care', 'Veterinary'],
    ['Fertility Treatment', 'Fertility'], ['Other', 'Other'],
  ]),
  ...list('ResidenceStatus', [['Rent', 'Rent'], ['Own', 'Own'], ['Other', 'Other']]),
  ...list('HowHeard', [
    ['Search engine', 'Search'], ['Referral from another practice', 'Referral'], ['Lender representative', 'LenderRep'],
    ['Trade show or conference', 'TradeShow'], ['Social media', 'SocialMedia'], ['E-mail', 'Email'], ['Other', 'Other'],
  ]),
  ...list('feature-flag', [
    ['sendAppEmail', 'true', "'Email a link' in the send-application popup"],
    ['sendAppSms', 'true', "'Text a link' in the send-application popup"],
    ['sendAppServiceDate', 'true', 'The optional estimated service date in the send-application popup'],
    ['sendAppRemoteSign', 'true', "The 'Enable Remote Sign' checkbox in the send-application popup"],
  ]),
  ...list('RefundStatus', [
    ['Submitted', 'Submitted'], ['Processing', 'Processing'], ['Completed', 'Completed'], ['Cancelled', 'Cancelled'],
  ]),
  // The plan lengths, in months, an office may offer its patients (Settings → Terms, Promo Terms; decision 0160).
  ...list('Terms', [['12 months', '12'], ['24 months', '24'], ['36 months', '36'], ['48 months', '48'], ['60 months', '60']]),
  ...list('PromoTerms', [
    ['6 months, no interest if paid in full', '6'], ['12 months, no interest if paid in full', '12'],
    ['18 months, no interest if paid in full', '18'], ['24 months, no interest if paid in full', '24'],
  ]),
];

export async function seedReferenceData(db: Db): Promise<void> {
  await db.insert(configItems).values([...REFERENCE_CONFIG_ITEMS]).onConflictDoNothing();
}
