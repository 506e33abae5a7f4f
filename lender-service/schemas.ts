/**
 * The request bodies of the lenders' API as JSON Schema (Fastify validates them): money in integer cents, dates
 * yyyy-mm-dd, addresses http(s) only.
 */

const cents = { type: 'integer', minimum: 0, maximum: 1_000_000_000 } as const;
const nullableText = (maxLength: number) => ({ type: ['string', 'null'], maxLength }) as const;
const url = { type: 'string', maxLength: 2000, pattern: '^https?://' } as const;
const date = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' } as const;

const applicantSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['firstName', 'lastName', 'address', 'dob', 'ssn', 'annualIncome'],
  properties: {
    firstName: { type: 'string', minLength: 1, maxLength: 100 },
    lastName: { type: 'string', minLength: 1, maxLength: 100 },
    email: nullableText(254),
    mobilePhone: nullableText(30),
    homePhone: nullableText(30),
    address: {
      type: 'object',
      additionalProperties: false,
      required: ['streetAddress', 'city', 'state', 'zipCode'],
      properties: {
        streetAddress: { type: 'string', minLength: 1, maxLength: 200 },
        suiteNo: nullableText(50),
        city: { type: 'string', minLength: 1, maxLength: 100 },
        state: { type: 'string', pattern: '^[A-Z]{2}$' },
        zipCode: { type: 'string', pattern: '^\\d{5}(-\\d{4})?$' },
      },
    },
    dob: date,
    ssn: { type: 'string', pattern: '^\\d{9}$' },
    annualIncome: cents,
    additionalIncome: { type: ['integer', 'null'], minimum: 0, maximum: 1_000_000_000 },
    monthlyHousingPayment: { type: ['integer', 'null'], minimum: 0, maximum: 1_000_000_000 },
    employmentStatus: nullableText(50),
    employerName: nullableText(200),
    monthsEmployed: { type: ['integer', 'null'], minimum: 0, maximum: 1200 },
    residenceStatus: nullableText(50),
    isActiveMilitary: { type: 'boolean' },
    serviceDate: { anyOf: [date, { type: 'null' }] },
  },
} as const;

export const prequalifySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['appId', 'amount', 'applicant'],
  properties: {
    appId: { type: 'integer', minimum: 1, maximum: 2_147_483_647 },
    amount: cents,
    discountRate: { type: ['number', 'null'], minimum: 0, maximum: 100 },
    callbackUrl: url,
    applicant: applicantSchema,
  },
} as const;

export interface PrequalifyBody {
  appId: number;
  amount: number;
  discountRate?: number | null;
  callbackUrl?: string;
  applicant: {
    firstName: string;
    lastName: string;
    email?: string | null;
    mobilePhone?: string | null;
    homePhone?: string | null;
    address: { streetAddress: string; suiteNo?: string | null; city: string; state: string; zipCode: string };
    dob: string;
    ssn: string;
    annualIncome: number;
    additionalIncome?: number | null;
    monthlyHousingPayment?: number | null;
    employmentStatus?: string | null;
    employerName?: string | null;
    monthsEmployed?: number | null;
    residenceStatus?: string | null;
    isActiveMilitary?: boolean;
    serviceDate?: string | null;
  };
}

export const selectionSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['productCode'],
  properties: { productCode: { type: 'string', minLength: 1, maxLength: 50 }, amount: cents },
} as const;

export const identityAnswersSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['answers'],
  properties: { answers: { type: 'object', maxProperties: 20, additionalProperties: { type: 'string', maxLength: 50 } } },
} as const;

export const signingSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { returnUrl: url, callbackUrl: url },
} as const;

/** A funding or a refund. */
export const moneySchema = { type: 'object', additionalProperties: false, required: ['amount'], properties: { amount: { ...cents, minimum: 1 } } } as const;
