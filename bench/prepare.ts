/**
 * Child process of bench/run.ts: opens the database of DATA_DIR / DATABASE_URL with the project's
 * own functions, seeds the demo data and the bulk set once, makes sure the bench staff user exists,
 * picks the name filter and the application the load uses, prints the fixture and exits, which
 * closes the PGlite folder before the server opens it (one process at a time).
 *
 *   node --import tsx bench/prepare.ts --profile full|quick [--provider <issuer host>]
 */
import { parseArgs } from 'node:util';
import { and, eq, sql } from 'drizzle-orm';
import { loadSettings } from '../server/config.ts';
import { decryptPii } from '../server/crypto/pii.ts';
import { openDatabase, type Db } from '../server/db/index.ts';
import { userOffices, users } from '../server/db/schema.ts';
import { seedBulk } from '../server/seed/bulk.ts';
import { seedDemo } from '../server/seed/demo.ts';
import { ACTIVE_STAGES } from '../server/domain/applications/status.ts';
import { DECISION_POLL_QUEUE } from '../server/domain/journey/decision-polls.ts';
import { CALLBACK_QUEUE } from '../server/domain/journey/lender-news.ts';
import { FIXTURE_MARK, PROFILES, type Fixture, type Profile } from './profiles.ts';

/** A page of GetOfficeApps in the bench is this long, and the name filter should fill it. */
const PAGE_SIZE = 25;
/** Longest name prefix tried for the filter. */
const MAX_PREFIX = 8;

const log = (message: string) => process.stderr.write(`  [prepare] ${message}\n`);
const num = (value: unknown) => Number(value);

/** The office the bench user is linked to, when this profile's set was seeded before. */
async function existingOffice(db: Db, email: string): Promise<{ userId: string; officeId: number } | undefined> {
  const rows = await db
    .select({ userId: users.id, officeId: userOffices.officeId })
    .from(users)
    .innerJoin(userOffices, eq(userOffices.userId, users.id))
    .where(eq(users.email, email))
    .limit(1);
  return rows[0];
}

/**
 * Seeds the bulk set: one busy office with `busyOfficeApps` applications, the rest spread over the
 * other offices; links a new bench user (office admin) to the busy office.
 */
async function seedSet(db: Db, profile: Profile, piiKey: Buffer): Promise<{ userId: string; officeId: number }> {
  const before = await db.execute<{ max: number | null }>(sql`select max(id) max from offices`);
  const lastOfficeBefore = num(before.rows[0]?.max ?? 0);
  await seedBulk(db, { apps: profile.busyOfficeApps, offices: 1, piiKey });
  await seedBulk(db, { apps: profile.apps - profile.busyOfficeApps, offices: profile.offices - 1, piiKey });
  const first = await db.execute<{ id: number }>(sql`
    select id from offices where id > ${lastOfficeBefore} and name like 'Benchmark Dental %' order by id limit 1`);
  const officeId = num(first.rows[0]?.id);
  if (!officeId) throw new Error('seedBulk created no office');

  return db.transaction(async (tx) => {
    // A bench user without an office (its offices were deleted) is replaced.
    await tx.delete(users).where(eq(users.email, profile.email));
    const [user] = await tx
      .insert(users)
      .values({ email: profile.email, firstName: 'Bench', lastName: 'Runner', role: 'admin', title: 'Benchmark', timeZone: 'CT', provider: 'bench' })
      .returning({ id: users.id });
    await tx.insert(userOffices).values({ userId: user!.id, officeId, role: 'admin', title: 'Benchmark', timeZone: 'CT', isPrimary: true });
    return { userId: user!.id, officeId };
  });
}

const activeStages = sql.join(ACTIVE_STAGES.map((stage) => sql`${stage}`), sql`, `);

/**
 * The name filter: the longest prefix of lower('first last') (not ending in a space: the handler
 * trims) that still matches a full page of the office's active applications; ties go to the prefix
 * with more rows. Falls back to the most frequent first letter in a small office.
 */
async function nameFilter(db: Db, officeId: number): Promise<{ search: string; matches: number }> {
  const rows = await db.execute<{ prefix: string; n: number }>(sql`
    with names as (
      select search_name from applications where office_id = ${officeId} and stage::text in (${activeStages})
    ),
    prefixes as (
      select k, left(search_name, k) prefix, count(*)::int n
      from names, generate_series(1, ${MAX_PREFIX}) k
      where length(search_name) >= k
      group by k, left(search_name, k)
    )
    select prefix, n from prefixes
    where right(prefix, 1) <> ' '
    order by (n >= ${PAGE_SIZE}) desc, case when n >= ${PAGE_SIZE} then k else -k end desc, n desc
    limit 1`);
  const row = rows.rows[0];
  if (!row) throw new Error(`office ${officeId} has no active application to filter`);
  return { search: row.prefix, matches: num(row.n) };
}

async function counts(db: Db, officeId: number) {
  const rows = await db.execute<{ total: number; office: number; active: number }>(sql`
    select (select count(*)::int from applications) total,
           (select count(*)::int from applications where office_id = ${officeId}) office,
           (select count(*)::int from applications where office_id = ${officeId} and stage::text in (${activeStages})) active`);
  const row = rows.rows[0]!;
  return { total: num(row.total), office: num(row.office), active: num(row.active) };
}

/** The newest application of the office; refuses one this run's PII key cannot read (GetApp decrypts). */
async function pickApplication(db: Db, officeId: number, piiKey: Buffer, email: string): Promise<number> {
  const rows = await db.execute<{ id: number; dob_enc: string | null }>(sql`
    select id, dob_enc from applications where office_id = ${officeId} order by created_at desc, id desc limit 1`);
  const row = rows.rows[0];
  if (!row) throw new Error(`office ${officeId} has no application`);
  if (row.dob_enc) {
    try {
      decryptPii(piiKey, row.dob_enc);
    } catch {
      throw new Error(
        `application ${row.id} was encrypted with another PII key than ${process.env.DATA_DIR}/secrets/pii_key.b64 ` +
          `(the secrets folder was replaced after seeding). Use a fresh database, or delete the user ${email} ` +
          'so that the set is seeded again, and run again.',
      );
    }
  }
  return num(row.id);
}

/**
 * A staff member of the platform with this internal role, named by the stand-in issuer the same way as the bench user:
 * the demo data's first, else (a set seeded before the demo data had one) a bench user made now.
 */
async function internalUser(db: Db, profile: Profile, provider: string | undefined, role: 'product.owner' | 'df.admin'): Promise<Fixture['owner']> {
  const found = await db.select({ userId: users.id, email: users.email }).from(users).where(eq(users.userRole, role)).orderBy(users.email).limit(1);
  const [user] = found.length
    ? found
    : await db
        .insert(users)
        .values({ email: `${role}.${profile.email}`, firstName: 'Bench', lastName: role, role: 'admin', userRole: role, title: 'Benchmark', provider: 'bench' })
        .returning({ userId: users.id, email: users.email });
  if (provider) await db.update(users).set({ provider, providerId: user!.userId }).where(eq(users.id, user!.userId));
  return user!;
}

const { values } = parseArgs({ options: { profile: { type: 'string', default: 'full' }, provider: { type: 'string' } } });
const profile = PROFILES[values.profile as Profile['name']];
if (!profile) throw new Error(`--profile must be one of ${Object.keys(PROFILES).join(', ')}`);

const settings = loadSettings();
const database = await openDatabase(settings);
try {
  const { db } = database;
  const demo = await seedDemo(db, settings);
  if (demo.created) log('demo data created');

  let seeded = false;
  let seedSeconds = 0;
  let link = await existingOffice(db, profile.email);
  if (link) {
    log(`bench set found (${profile.email} → office ${link.officeId}); not seeding again`);
  } else {
    log(`seeding ${profile.apps.toLocaleString('en-US')} applications over ${profile.offices} offices in ${database.kind} (once) …`);
    const started = performance.now();
    link = await seedSet(db, profile, settings.piiKey);
    seedSeconds = (performance.now() - started) / 1000;
    seeded = true;
    log(`seeded in ${seedSeconds.toFixed(1)} s`);
  }

  const { officeId, userId } = link;
  // Earlier runs' waterfalls left lender jobs waiting (callbacks kept as a backstop, decision polls), addressed to a
  // lender service that ended with its run: each would fail and be retried through this run's measurements.
  await db.execute(sql`delete from jobs where state in ('Queued', 'Running') and queue in (${CALLBACK_QUEUE}, ${DECISION_POLL_QUEUE})`);
  // The waterfall asks every lender its office offers: the bench's office offers them all (issue 38's eight at 1 s),
  // where the set's other offices offer five.
  await db.execute(sql`
    insert into office_lenders (office_id, lender_id, lender_office_id, status, num_order, is_enrollment_completed, is_reviewed, discount_rate)
    select ${officeId}, l.id, upper(l.code) || '-' || ${officeId}, 'Completed', l.n, true, true, 3.5 + l.n
    from (select id, code, row_number() over (order by id)::int n from lenders) l
    on conflict (office_id, lender_id) do nothing`);
  // The stand-in issuer of this run names the user by subject = users.id; a server that maps an
  // external issuer's subjects through users.provider / provider_id finds the user that way too.
  if (values.provider) await db.update(users).set({ provider: values.provider, providerId: userId }).where(eq(users.id, userId));
  const owner = await internalUser(db, profile, values.provider, 'product.owner');
  const platform = await internalUser(db, profile, values.provider, 'df.admin');
  const found = await counts(db, officeId);
  const filter = await nameFilter(db, officeId);
  const appId = await pickApplication(db, officeId, settings.piiKey, profile.email);
  const linked = await db
    .select({ role: userOffices.role })
    .from(userOffices)
    .where(and(eq(userOffices.userId, userId), eq(userOffices.officeId, officeId), eq(userOffices.isDisabled, false)));
  if (linked[0]?.role !== 'admin') throw new Error(`${profile.email} is not an enabled admin of office ${officeId}`);

  const fixture: Fixture = {
    kind: database.kind,
    seeded,
    seedSeconds,
    totalApps: found.total,
    userId,
    email: profile.email,
    officeId,
    officeApps: found.office,
    activeApps: found.active,
    search: filter.search,
    searchMatches: filter.matches,
    appId,
    owner,
    platform,
  };
  process.stdout.write(`${FIXTURE_MARK}${JSON.stringify(fixture)}\n`);
} finally {
  await database.close();
}
