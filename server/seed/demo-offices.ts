import { createHash } from 'node:crypto';
import { encryptPii, last4 } from '../crypto/pii.ts';
import { PHOTO_ID_KIND } from '../domain/offices/mapping.ts';
import { REQUIRED_OFFICE_FILES } from '../domain/offices/required-documents.ts';
import { flagsOf, SUBMITTED_REASON, type EnrollmentStatus, type ReviewStatus } from '../domain/offices/review-transitions.ts';
import type { Db } from '../db/index.ts';
import { files, officeLenders, officeOwners, offices, officeSettings, officeStatusChanges, organizations, type timeZone } from '../db/schema.ts';

type TimeZone = (typeof timeZone.enumValues)[number];

interface DemoOffice {
  key: string;
  name: string;
  legalName: string;
  category: string;
  status: EnrollmentStatus;
  street: string;
  city: string;
  state: string;
  zip: string;
  phone: string;
  timeZone: TimeZone;
  /** Landing-page code, for offices that have a landing page. */
  code?: string;
  lenders: string[];
  /** The platform admin's decisions after the submission, oldest first, with their reasons; the last gives `status`. */
  decisions?: readonly (readonly [ReviewStatus, string])[];
  /** An approved office that has started no application yet (the demo applications go to the others). */
  noApplications?: true;
  /** The practice group the office is a location of (decision 0281). */
  organization?: string;
}

/** The demo's practice group: the office admin's two offices are its locations, so Reports roll them up. */
const DEMO_GROUP = 'Bright Smiles Dental Group';

const VERIFIED = 'Licenses, owners and bank documents checked.';

/** One office per enrollment status; the first two are the approved offices with applications, the last an approved New York office with none yet. */
const DEMO_OFFICES: readonly DemoOffice[] = [
  {
    key: 'bright', name: 'Bright Smiles Dental', legalName: 'Bright Smiles Dental PLLC', category: 'Dental', status: 'Approved',
    street: '2400 S Lamar Blvd', city: 'Austin', state: 'TX', zip: '78704', phone: '(512) 555-0142', timeZone: 'CT',
    code: 'brightsmiles', lenders: ['ally', 'gsky', 'lpoint', 'lusa', 'powerpay', 'upg'], decisions: [['Approved', VERIFIED]], organization: DEMO_GROUP,
  },
  {
    key: 'lakeside', name: 'Lakeside Family Dental', legalName: 'Lakeside Family Dental S.C.', category: 'Dental', status: 'Approved',
    street: '118 E Washington Ave', city: 'Madison', state: 'WI', zip: '53703', phone: '(608) 555-0177', timeZone: 'CT',
    code: 'lakeside', lenders: ['cleargage', 'covered', 'gsky', 'lpoint', 'powerpay', 'upg'], decisions: [['Approved', VERIFIED]], organization: DEMO_GROUP,
  },
  {
    key: 'cedar', name: 'Cedar Park Orthodontics', legalName: 'Cedar Park Orthodontics LLC', category: 'Orthodontics', status: 'Submitted',
    street: '1890 Ranch Shopping Center', city: 'Cedar Park', state: 'TX', zip: '78613', phone: '(512) 555-0190', timeZone: 'CT',
    lenders: ['gsky', 'lpoint', 'upg'],
  },
  {
    key: 'harbor', name: 'Harbor View Medical Group', legalName: 'Harbor View Medical Group Inc.', category: 'Medical', status: 'UnderReview',
    street: '600 W Broadway', city: 'San Diego', state: 'CA', zip: '92101', phone: '(619) 555-0133', timeZone: 'PT',
    lenders: ['ally', 'covered', 'upg'], decisions: [['UnderReview', 'Checking the medical group license with the state board.']],
  },
  {
    key: 'sunrise', name: 'Sunrise Pediatric Dentistry', legalName: 'Sunrise Pediatric Dentistry PA', category: 'Dental', status: 'New',
    street: '55 W Church St', city: 'Orlando', state: 'FL', zip: '32801', phone: '(407) 555-0116', timeZone: 'ET', lenders: [],
  },
  {
    key: 'maple', name: 'Maple Street Veterinary Clinic', legalName: 'Maple Street Veterinary Clinic LLC', category: 'Veterinary',
    status: 'ESignSent', street: '210 Maple St', city: 'Burlington', state: 'VT', zip: '05401', phone: '(802) 555-0158', timeZone: 'ET',
    lenders: [],
  },
  {
    key: 'desert', name: 'Desert Bloom Dermatology', legalName: 'Desert Bloom Dermatology PC', category: 'Dermatology',
    status: 'ESignCompleted', street: '3030 N Central Ave', city: 'Phoenix', state: 'AZ', zip: '85012', phone: '(602) 555-0124',
    timeZone: 'AZT', lenders: [],
  },
  {
    key: 'pinecrest', name: 'Pinecrest Chiropractic', legalName: 'Pinecrest Chiropractic PLLC', category: 'Chiropractic', status: 'Declined',
    street: '875 W Main St', city: 'Boise', state: 'ID', zip: '83702', phone: '(208) 555-0171', timeZone: 'MT', lenders: [],
    decisions: [['Declined', 'The business license on file expired in 2024 and no renewal was provided.']],
  },
  {
    key: 'coastal', name: 'Coastal Vision Center', legalName: 'Coastal Vision Center LLC', category: 'Vision', status: 'OnHold',
    street: '180 Meeting St', city: 'Charleston', state: 'SC', zip: '29401', phone: '(843) 555-0109', timeZone: 'ET',
    lenders: ['ally', 'gsky'], decisions: [['Approved', VERIFIED], ['OnHold', 'Waiting for the renewed state optometry license.']],
  },
  {
    key: 'summit', name: 'Summit Hearing Associates', legalName: 'Summit Hearing Associates Inc.', category: 'Hearing', status: 'WatchList',
    street: '1600 Stout St', city: 'Denver', state: 'CO', zip: '80202', phone: '(303) 555-0185', timeZone: 'MT',
    code: 'summithearing', lenders: ['ally', 'covered', 'gsky', 'lpoint', 'upg'],
    decisions: [['Approved', VERIFIED], ['WatchList', 'Refund requests above 10% of funded applications last quarter.']],
  },
  {
    key: 'riverbend', name: 'Riverbend Cosmetic Surgery', legalName: 'Riverbend Cosmetic Surgery PC', category: 'CosmeticSurgery',
    status: 'Terminated', street: '1301 Punchbowl St', city: 'Honolulu', state: 'HI', zip: '96813', phone: '(808) 555-0147',
    timeZone: 'HT', lenders: ['gsky'], decisions: [['Approved', VERIFIED], ['Terminated', 'The practice closed; the owners asked to end the agreement.']],
  },
  {
    // New York (screens/states.json): its patients fill in their applications themselves (decision 0213).
    key: 'empire', name: 'Empire State Dental Care', legalName: 'Empire State Dental Care PLLC', category: 'Dental', status: 'Approved',
    street: '90 State St', city: 'Albany', state: 'NY', zip: '12207', phone: '(518) 555-0163', timeZone: 'ET',
    // Its page (and QR code) is where its patients start on their own (decision 0217).
    code: 'empiredental', lenders: ['ally', 'gsky', 'lpoint'], decisions: [['Approved', VERIFIED]], noApplications: true,
  },
];

const BEFORE_SUBMISSION: readonly EnrollmentStatus[] = ['New', 'ESignSent', 'ESignCompleted'];
/** Offices that share this code appear together on /landing/multi/{code}. */
const GROUP_CODE = 'demogroup';

export interface SeededOffice {
  key: string;
  id: number;
  name: string;
  city: string;
  state: string;
  zip: string;
  status: EnrollmentStatus;
  lenders: { code: string; discountRate: number }[];
  hasApplications: boolean;
}

export async function seedDemoOffices(
  db: Db,
  piiKey: Buffer,
  lenderIds: ReadonlyMap<string, number>,
  alertRecipient: string,
): Promise<SeededOffice[]> {
  const seeded: SeededOffice[] = [];
  const groups = new Map<string, number>();
  for (const name of new Set(DEMO_OFFICES.flatMap((office) => office.organization ?? []))) {
    const [group] = await db.insert(organizations).values({ name }).returning({ id: organizations.id });
    groups.set(name, group!.id);
  }
  for (const [index, office] of DEMO_OFFICES.entries()) {
    const started = office.status !== 'New';
    const flags = flagsOf(office.status);
    const isApproved = flags.isApproved;
    const isEnrollmentCompleted = !BEFORE_SUBMISSION.includes(office.status);
    const history = isEnrollmentCompleted ? statusHistory(office, index) : [];
    const current = history.at(-1);
    const routing = '110000000';
    const account = `00012345${String(6789 + index * 111).padStart(4, '0')}`;
    const [row] = await db
      .insert(offices)
      .values({
        name: office.name,
        legalName: office.legalName,
        phone: office.phone,
        website: `https://www.${office.name.toLowerCase().replace(/[^a-z]+/g, '')}.example`,
        licenseNo: started ? `${office.state}-${48210 + index * 7}` : null,
        licenseState: office.state,
        category: office.category,
        taxId: started ? `87-${String(1234560 + index * 13).padStart(7, '0')}` : null,
        businessType: started ? 'LLC' : null,
        annualRevenue: started ? (1_200_000 + index * 150_000) * 100 : null,
        howHeard: 'Referral',
        locationCount: 1,
        streetAddress: office.street,
        city: office.city,
        state: office.state,
        zipCode: office.zip,
        timeZone: office.timeZone,
        enrollmentStatus: office.status,
        isEnrollmentCompleted,
        ...flags,
        statusReason: current && current.to !== 'Submitted' ? current.reason : null,
        statusChangedAt: current?.at ?? null,
        submittedAt: isEnrollmentCompleted ? daysAgo(120 - index) : null,
        approvedAt: isApproved ? daysAgo(100 - index) : null,
        code: office.code ?? null,
        groupCode: office.code && isApproved ? GROUP_CODE : null,
        organizationId: office.organization === undefined ? null : groups.get(office.organization)!,
        landingDescription: office.code
          ? `${office.name} offers flexible monthly payment plans from several lenders. Apply in minutes; checking your options does not affect your credit score.`
          : null,
        showMaps: Boolean(office.code),
        mapsUrl: office.code
          ? `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(`${office.street}, ${office.city}, ${office.state} ${office.zip}`)}`
          : null,
        ...(started && {
          bankAccountType: 'Checking' as const,
          bankName: 'First Community Bank',
          bankAccountName: office.legalName,
          bankRoutingNumberEnc: encryptPii(piiKey, routing),
          bankRoutingLast4: last4(routing),
          bankAccountNumberEnc: encryptPii(piiKey, account),
          bankAccountLast4: last4(account),
        }),
        ...(isApproved && {
          achProvider: 'sandbox',
          achCustomerId: `cus_demo_${office.key}`,
          achAccountId: `ba_demo_${office.key}`,
          achAccountStatus: 'Active',
          achVerifyMethod: 'MicroDeposits',
          achVerifyStatus: 'Verified',
          achVerifiedAt: daysAgo(95 - index),
          achDebitStatus: 'Authorized',
          achDebitAuthorizedAt: daysAgo(95 - index),
        }),
      })
      .returning({ id: offices.id });
    const id = row!.id;
    if (history.length > 0) {
      await db.insert(officeStatusChanges).values(history.map(({ from, to, reason, at }) => ({ officeId: id, fromStatus: from, toStatus: to, reason, createdAt: at })));
    }

    if (started) {
      const ownerIds = await seedOwners(db, piiKey, id, office, index, isApproved);
      // A submitted enrollment had every required document (decision 0148).
      if (isEnrollmentCompleted) await seedDocuments(db, id, ownerIds);
    }
    // The demo lenders this deployment's lender files have (LENDERS_DIR may hold others).
    const links = office.lenders.filter((code) => lenderIds.has(code)).map((code, order) => ({ code, discountRate: 3.5 + ((order * 1.25) % 6) }));
    if (links.length > 0) {
      await db.insert(officeLenders).values(
        links.map(({ code, discountRate }, order) => ({
          officeId: id,
          lenderId: lenderIds.get(code)!,
          lenderOfficeId: isApproved ? `${code.toUpperCase()}-${id}` : null,
          status: isApproved ? ('Completed' as const) : ('OfficeSubmitted' as const),
          numOrder: order + 1,
          isEnrollmentCompleted: isApproved,
          isReviewed: isApproved,
          discountRate,
          showApply: !isApproved,
        })),
      );
    }
    if (isApproved) {
      await db.insert(officeSettings).values(
        ['NewApplication', 'OfferSelected', 'DocumentsSigned', 'ApplicationFunded', 'RefundUpdate'].map((name, order) => ({
          officeId: id,
          type: 'OfficeAlertTypes',
          name,
          value: alertRecipient,
          displayOrder: order + 1,
        })),
      );
    }
    seeded.push({
      key: office.key, id, name: office.name, city: office.city, state: office.state, zip: office.zip, status: office.status, lenders: links,
      hasApplications: office.status === 'Approved' && !office.noApplications,
    });
  }
  return seeded;
}

const OWNERS = [
  ['Daniel', 'Alvarez'], ['Rachel', 'Kim'], ['Thomas', 'Becker'], ['Aisha', 'Rahman'], ['Michael', 'Oduya'], ['Laura', 'Fischer'],
  ['Kevin', 'Tran'], ['Susan', 'Moretti'], ['Brian', 'Walsh'], ['Helen', 'Castillo'], ['Peter', 'Novak'], ['Grace', 'Liu'],
] as const;

async function seedOwners(db: Db, piiKey: Buffer, officeId: number, office: DemoOffice, index: number, twoOwners: boolean): Promise<number[]> {
  const shares = twoOwners ? [60, 40] : [100];
  const rows = await db.insert(officeOwners).values(
    shares.map((share, n) => {
      const [firstName, lastName] = OWNERS[(index * 2 + n) % OWNERS.length]!;
      const ssn = `9${String(10 + index).padStart(2, '0')}-${String(20 + n).padStart(2, '0')}-${String(4100 + index * 37 + n).padStart(4, '0')}`;
      return {
        officeId,
        firstName,
        lastName,
        title: n === 0 ? 'Owner, DDS' : 'Partner',
        email: `${firstName}.${lastName}@${office.key}.example`.toLowerCase(),
        mobilePhone: `(555) 555-02${String(index * 2 + n).padStart(2, '0')}`,
        dobEnc: encryptPii(piiKey, `19${70 + index}-0${1 + n}-1${n}`),
        ssnEnc: encryptPii(piiKey, ssn),
        ssnLast4: last4(ssn),
        ownershipPercent: share,
        streetAddress: `${400 + index * 10 + n} Residence Ln`,
        city: office.city,
        state: office.state,
        zipCode: office.zip,
        annualIncome: (250_000 + index * 10_000) * 100,
        netWorth: (1_500_000 + index * 50_000) * 100,
        primaryIncomeSource: 'PracticeIncome',
        secondaryIncomeSource: n === 0 ? 'Investments' : 'None',
        isPrimary: n === 0,
      };
    }),
  ).returning({ id: officeOwners.id });
  return rows.map((row) => row.id);
}

/** A one-page PDF standing in for each document an enrollment needs. */
const DEMO_PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n', 'latin1');

async function seedDocuments(db: Db, officeId: number, ownerIds: readonly number[]) {
  const document = (kind: string, ownerId: number | null, fileName: string) => ({
    officeId, ownerId, kind, fileName, contentType: 'application/pdf', sizeBytes: DEMO_PDF.length,
    sha256: createHash('sha256').update(DEMO_PDF).digest('hex'), bytes: DEMO_PDF, createdBy: null,
  });
  await db.insert(files).values([
    ...REQUIRED_OFFICE_FILES.map((kind) => document(kind, null, `${kind}.pdf`)),
    ...ownerIds.map((ownerId, n) => document(PHOTO_ID_KIND, ownerId, `photo-id-${n + 1}.pdf`)),
  ]);
}

/** The submission, then each decision ten days apart; by nobody (changedBy null): the seed decided them. */
function statusHistory(office: DemoOffice, index: number) {
  const steps = [{ from: 'New' as EnrollmentStatus, to: 'Submitted' as EnrollmentStatus, reason: SUBMITTED_REASON, at: daysAgo(120 - index) }];
  for (const [n, [to, reason]] of (office.decisions ?? []).entries()) steps.push({ from: steps.at(-1)!.to, to, reason, at: daysAgo(100 - index - n * 10) });
  if (steps.at(-1)!.to !== office.status) throw new Error(`demo office ${office.key}: its decisions end in ${steps.at(-1)!.to}, not ${office.status}`);
  return steps;
}

function daysAgo(days: number): Date {
  return new Date(Date.now() - days * 86_400_000);
}
