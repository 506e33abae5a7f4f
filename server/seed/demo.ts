import { eq, sql } from 'drizzle-orm';
import type { Settings } from '../config.ts';
import { hashPassword } from '../identity/password.ts';
import type { Db } from '../db/index.ts';
import { applications, jobs, lenders, userOffices, users, type internalRole, type officeRole } from '../db/schema.ts';
import { seedDemoApplications } from './demo-applications.ts';
import { seedDemoOffices, type SeededOffice } from './demo-offices.ts';
import { seedReferenceData } from './reference.ts';
import { lenderCatalogue, syncLenderRows } from '../lenders/registry.ts';
import { sandboxSiteUrl } from '../lenders/sandbox.ts';

export const DEMO_PASSWORD = 'demo-pass-1234';

type OfficeRole = (typeof officeRole.enumValues)[number];

interface DemoUser {
  email: string;
  description: string;
  firstName: string;
  lastName: string;
  title: string;
  role: OfficeRole;
  userRole?: (typeof internalRole.enumValues)[number];
  /** Office keys of demo-offices.ts with the role held there. */
  offices: readonly (readonly [office: string, role: OfficeRole])[];
}

const DEMO_USERS: readonly DemoUser[] = [
  {
    email: 'admin@demo.test', description: 'Platform admin (df.admin): all offices, users, applications and funding',
    firstName: 'Dana', lastName: 'Whitfield', title: 'Platform Administrator', role: 'admin', userRole: 'df.admin', offices: [],
  },
  {
    email: 'dfi@demo.test', description: 'Limited platform admin (dfi.admin): offices and applications, no funding or user management',
    firstName: 'Marcus', lastName: 'Reed', title: 'Compliance Analyst', role: 'support', userRole: 'dfi.admin', offices: [],
  },
  {
    email: 'owner@demo.test', description: 'Product owner (product.owner): edits, previews and publishes screens, brands, lenders, translations, state rules and shared parts in the studio; sees no office data',
    firstName: 'Paula', lastName: 'Novak', title: 'Product Owner', role: 'admin', userRole: 'product.owner', offices: [],
  },
  {
    email: 'owner2@demo.test', description: "A second product owner (product.owner): approves or sends back another owner's change asked for review (four eyes, decision 0288)",
    firstName: 'Theo', lastName: 'Grant', title: 'Product Owner', role: 'admin', userRole: 'product.owner', offices: [],
  },
  {
    email: 'office.admin@demo.test', description: 'Office admin of Bright Smiles Dental and Lakeside Family Dental, two locations of one organization (switch offices, reports rolled up)',
    firstName: 'Olivia', lastName: 'Bennett', title: 'Practice Manager', role: 'admin', offices: [['bright', 'admin'], ['lakeside', 'admin']],
  },
  {
    email: 'office.support@demo.test', description: 'Office support user at Bright Smiles Dental',
    firstName: 'Sam', lastName: 'Ortiz', title: 'Treatment Coordinator', role: 'support', offices: [['bright', 'support']],
  },
  {
    email: 'tpa@demo.test', description: 'Third-party administrator at Lakeside Family Dental (cannot start applications)',
    firstName: 'Tara', lastName: 'Patel', title: 'Billing Partner', role: 'tpa', offices: [['lakeside', 'tpa']],
  },
  {
    email: 'sales@demo.test', description: 'Sales user at Bright Smiles Dental',
    firstName: 'Leo', lastName: 'Kim', title: 'Sales Representative', role: 'sales', offices: [['bright', 'sales']],
  },
  {
    email: 'pending@demo.test', description: 'Admin of Cedar Park Orthodontics: enrollment submitted, not yet approved',
    firstName: 'Priya', lastName: 'Shah', title: 'Office Manager', role: 'admin', offices: [['cedar', 'admin']],
  },
  {
    email: 'enrolling@demo.test', description: 'Admin of Sunrise Pediatric Dentistry: enrollment started, resumes at its first unfinished step',
    firstName: 'Elena', lastName: 'Marsh', title: 'Practice Owner', role: 'admin', offices: [['sunrise', 'admin']],
  },
  {
    email: 'onhold@demo.test', description: 'Admin of Coastal Vision Center: enrollment on hold, with the reason on Home',
    firstName: 'Owen', lastName: 'Hale', title: 'Office Manager', role: 'admin', offices: [['coastal', 'admin']],
  },
  {
    email: 'declined@demo.test', description: 'Admin of Pinecrest Chiropractic: enrollment declined, with the reason on Home',
    firstName: 'Dora', lastName: 'Price', title: 'Practice Owner', role: 'admin', offices: [['pinecrest', 'admin']],
  },
  {
    email: 'ny.office@demo.test', description: 'Office admin of Empire State Dental Care, New York: patients fill in their own applications',
    firstName: 'Grace', lastName: 'Okafor', title: 'Practice Manager', role: 'admin', offices: [['empire', 'admin']],
  },
  {
    email: 'newoffice@demo.test', description: 'Signed up, no office yet: lands on the enrollment wizard',
    firstName: 'Nora', lastName: 'Quinn', title: 'Owner', role: 'admin', offices: [],
  },
];

/** For `npm start` to print: every demo account signs in with DEMO_PASSWORD. */
export const DEMO_ACCOUNTS: readonly { email: string; description: string }[] = DEMO_USERS.map(({ email, description }) => ({
  email,
  description,
}));

/** The first demo account; its presence means the demo data is already there. */
const MARKER_EMAIL = DEMO_USERS[0]!.email;
const OFFICE_ADMIN_EMAIL = 'office.admin@demo.test';
/** 13 stages x 2 approved offices = 26, so ~40 gives every office every stage, some twice. */
const APPLICATION_COUNT = 40;
/** Serialises two seeders started at once against one PostgreSQL. */
const SEED_LOCK = 7_326_410_002;

export interface DemoSeedResult {
  /** False when the demo data was already present and nothing was written. */
  created: boolean;
}

/**
 * Reference data, offices in every enrollment status, the demo users, and applications in every
 * stage for the approved offices, in one transaction. Running it again changes nothing.
 */
export async function seedDemo(db: Db, settings: Pick<Settings, 'piiKey' | 'mode' | 'publicUrl' | 'lendersDir'>): Promise<DemoSeedResult> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK})`);
    await seedReferenceData(tx);
    // The lenders are the lender files' (their names and phones are written there only).
    const catalogue = lenderCatalogue(settings);
    await syncLenderRows(tx, catalogue);
    const existing = await tx.select({ id: users.id }).from(users).where(eq(users.email, MARKER_EMAIL));
    if (existing.length > 0) return { created: false };

    const lenderRows = await tx.select({ id: lenders.id, code: lenders.code, name: lenders.name }).from(lenders);
    const seededOffices = await seedDemoOffices(
      tx,
      settings.piiKey,
      new Map(lenderRows.map((l) => [l.code, l.id])),
      OFFICE_ADMIN_EMAIL,
    );
    const userIds = await seedDemoUsers(tx, seededOffices);

    await seedDemoApplications(tx, {
      piiKey: settings.piiKey,
      lenderSite: sandboxSiteUrl(settings),
      offices: seededOffices.filter((o) => o.hasApplications),
      lenders: new Map(lenderRows.map((l) => [l.code, { ...l, fundingDays: catalogue.get(l.code)?.descriptor.fundingDays }])),
      staffUserId: userIds.get(OFFICE_ADMIN_EMAIL)!,
      staffEmail: OFFICE_ADMIN_EMAIL,
      count: APPLICATION_COUNT,
    });
    await seedGivenUpJob(tx);
    return { created: true };
  });
}

/**
 * One funding request that gave up while its lender was down (a week-old outage), for the platform admins' Background
 * Jobs page to show and try again: the first loan submitted for funding, as the office's finalizing would have queued it.
 */
async function seedGivenUpJob(db: Db): Promise<void> {
  const [app] = await db.select({ id: applications.id }).from(applications).where(eq(applications.stage, 'SubmittedForFunding')).orderBy(applications.id).limit(1);
  if (!app) return;
  const weekAgo = new Date(Date.now() - 7 * 86_400_000);
  await db.insert(jobs).values({
    queue: 'lender-fund', key: String(app.id), payload: { appId: app.id }, state: 'Dead', attempts: 12, maxAttempts: 12,
    lastError: 'the lender answered 503 Service Unavailable', runAt: weekAgo, createdAt: weekAgo, finishedAt: weekAgo,
  });
}

async function seedDemoUsers(db: Db, seededOffices: readonly SeededOffice[]): Promise<Map<string, string>> {
  const officeIds = new Map(seededOffices.map((o) => [o.key, o.id]));
  const hashes = await Promise.all(DEMO_USERS.map(() => hashPassword(DEMO_PASSWORD)));
  const ids = new Map<string, string>();
  // One primary user per office (decision 0065): the first demo user of the office.
  const withPrimary = new Set<string>();
  for (const [index, user] of DEMO_USERS.entries()) {
    const lastLoginAt = user.email === 'newoffice@demo.test' ? null : new Date(Date.now() - (index + 1) * 3_600_000);
    const [row] = await db
      .insert(users)
      .values({
        email: user.email,
        firstName: user.firstName,
        lastName: user.lastName,
        role: user.role,
        userRole: user.userRole ?? null,
        title: user.title,
        timeZone: 'CT',
        provider: 'local',
        passwordHash: hashes[index]!,
        lastLoginAt,
      })
      .returning({ id: users.id });
    ids.set(user.email, row!.id);
    if (user.offices.length > 0) {
      await db.insert(userOffices).values(
        user.offices.map(([office, role]) => {
          const isPrimary = !withPrimary.has(office);
          withPrimary.add(office);
          return { userId: row!.id, officeId: officeIds.get(office)!, role, title: user.title, timeZone: 'CT' as const, isPrimary, lastLoginAt };
        }),
      );
    }
  }
  return ids;
}
