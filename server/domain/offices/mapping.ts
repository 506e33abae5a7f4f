import type { components } from '../../../codegen/generated/api.ts';
import { decryptPii } from '../../crypto/pii.ts';
import { sql } from 'drizzle-orm';
import { files, officeOwners, users, type offices } from '../../db/schema.ts';
import { triesLeft } from './bank-tries.ts';
import { toDollars, toUtc } from '../values.ts';

type Schemas = components['schemas'];
type OfficeRecord = typeof offices.$inferSelect;

export function addressOf(row: Pick<OfficeRecord, 'streetAddress' | 'suiteNo' | 'city' | 'state' | 'zipCode'>): Schemas['Address'] | null {
  if (!row.streetAddress || !row.city || !row.state || !row.zipCode) return null;
  return { streetAddress: row.streetAddress, suiteNo: row.suiteNo, city: row.city, state: row.state, zipCode: row.zipCode };
}

/** The API's bank account type is the spec's integer (Checking=0, Savings=1). */
export const BANK_ACCOUNT_TYPES = ['Checking', 'Savings'] as const;

/** Files are served by Files GetContent to the staff who may see them. */
export const fileUrl = (id: string | null) => (id ? `/api/Files/GetContent/${id}` : null);

/** Logos and pictures on public pages are served anonymously by Files GetPublicContent (decision 0031). */
export const publicFileUrl = (id: string | null) => (id ? `/api/Files/GetPublicContent/${id}` : null);

/** `files.kind` of an owner's photo-id (a value of config items OfficeFileTypes). */
export const PHOTO_ID_KIND = 'PhotoId';
/** `files.kind` of landing page images: they are not enrollment documents. */
export const LANDING_LOGO_KIND = 'LandingLogo';
export const LANDING_PICTURE_KIND = 'LandingPicture';
export const LANDING_KINDS = [LANDING_LOGO_KIND, LANDING_PICTURE_KIND] as const;

export function toOwner(piiKey: Buffer, row: typeof officeOwners.$inferSelect, hasPhotoId: boolean): Schemas['Owner'] {
  return {
    id: row.id,
    officeId: row.officeId,
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email ?? '',
    mobilePhone: row.mobilePhone,
    homePhone: row.homePhone,
    title: row.title,
    dobDateTime: row.dobEnc ? `**/**/${decryptPii(piiKey, row.dobEnc).slice(0, 4)}` : null,
    last4SSN: row.ssnLast4,
    ownership: Math.round(row.ownershipPercent ?? 0),
    address: addressOf(row),
    annualIncome: toDollars(row.annualIncome),
    netWorth: toDollars(row.netWorth),
    primaryIncomeSource: row.primaryIncomeSource,
    secondaryIncomeSource: row.secondaryIncomeSource,
    isPrimary: row.isPrimary,
    isPhotoIdUploaded: hasPhotoId,
  };
}

/** The columns toOfficeFile reads; join `users` on files.createdBy for the uploader's name. */
export const officeFileColumns = {
  id: files.id,
  officeId: files.officeId,
  ownerId: files.ownerId,
  fileName: files.fileName,
  kind: files.kind,
  contentType: files.contentType,
  sizeBytes: files.sizeBytes,
  createdAt: files.createdAt,
  uploadedBy: sql<string | null>`${users.firstName} || ' ' || ${users.lastName}`,
  ownerName: sql<string | null>`(select ${officeOwners.firstName} || ' ' || ${officeOwners.lastName} from ${officeOwners} where ${officeOwners.id} = ${files.ownerId})`,
  // The words of the file type (config items OfficeFileTypes), so lists say 'W-9 Form' rather than 'W9'.
  typeName: sql<string | null>`(select ci.name from config_items ci where ci.type = 'OfficeFileTypes' and ci.value = ${files.kind} limit 1)`,
};

export function toOfficeFile(row: Pick<typeof files.$inferSelect, 'id' | 'officeId' | 'ownerId' | 'fileName' | 'kind' | 'contentType' | 'sizeBytes' | 'createdAt'> & { uploadedBy: string | null; ownerName: string | null; typeName: string | null }): Schemas['OfficeFile'] {
  return {
    id: row.id,
    officeId: row.officeId,
    ownerId: row.ownerId,
    ownerName: row.ownerName,
    fileName: row.fileName,
    fileType: row.kind,
    fileTypeName: row.typeName ?? row.kind,
    contentType: row.contentType,
    size: row.sizeBytes,
    description: null,
    uploadedBy: row.uploadedBy,
    uploadedAtUtc: toUtc(row.createdAt),
  };
}

export function toOfficeProfile(row: OfficeRecord, urlOf: (id: string | null) => string | null = publicFileUrl): Schemas['OfficeProfile'] {
  return {
    id: row.id,
    name: row.name,
    phone: row.phone,
    website: row.website,
    category: row.category,
    code: row.code,
    address: addressOf(row),
    timeZone: row.timeZone,
    logoUrl: urlOf(row.logoFileId),
  };
}

export function toOfficeCore(row: OfficeRecord): Omit<Schemas['Office'], 'owners' | 'files' | 'primaryUser' | 'requiredDocuments' | 'organization'> {
  return {
    id: row.id,
    name: row.name,
    legalName: row.legalName,
    phone: row.phone,
    fax: row.fax,
    website: row.website,
    licenseNo: row.licenseNo,
    licenseState: row.licenseState,
    category: row.category,
    taxId: row.taxId,
    businessType: row.businessType,
    annualRevenue: toDollars(row.annualRevenue),
    code: row.code,
    groupCode: row.groupCode,
    promoCode: row.promoCode,
    howHeard: row.howHeard,
    locationCount: row.locationCount,
    isActive: row.isActive,
    isEnrollmentCompleted: row.isEnrollmentCompleted,
    isApproved: row.isApproved,
    isReviewed: row.isReviewed,
    enrollmentStatus: row.enrollmentStatus,
    address: addressOf(row),
    timeZone: row.timeZone,
    logoUrl: fileUrl(row.logoFileId),
    bankAccountType: row.bankAccountType === null ? null : (BANK_ACCOUNT_TYPES.indexOf(row.bankAccountType) as 0 | 1),
    bankName: row.bankName,
    routingNumberLast4: row.bankRoutingLast4,
    accountNumberLast4: row.bankAccountLast4,
    googlePlaceId: row.googlePlaceId,
    utmSource: row.utmSource,
    utmMedium: row.utmMedium,
    utmCampaign: row.utmCampaign,
    achProvider: row.achProvider,
    achAccountId: row.achAccountId,
    achVerifyStatus: row.achVerifyStatus as Schemas['Office']['achVerifyStatus'],
    achDebitStatus: row.achDebitStatus as Schemas['Office']['achDebitStatus'],
    achVerifiedAtUtc: toUtc(row.achVerifiedAt),
    achDepositsSentAtUtc: toUtc(row.achDepositsSentAt),
    achVerifyTriesLeft: triesLeft(row.achVerifyFailures),
    refundApprovalAbove: toDollars(row.refundApprovalAbove),
    statusReason: row.statusReason,
    statusChangedAtUtc: toUtc(row.statusChangedAt),
    createdAtUtc: toUtc(row.createdAt),
    updatedAtUtc: toUtc(row.updatedAt),
  };
}
