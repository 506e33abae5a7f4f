import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package root: every child process runs here and every data folder is under it. */
export const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));

export type DatabaseKind = 'pglite' | 'postgres';

/** The size of the data set and of each measurement. */
export interface Profile {
  name: 'full' | 'quick' | 'scale';
  apps: number;
  offices: number;
  /** Of `apps`, how many belong to the one office the load runs as (its Home list and kanban). */
  busyOfficeApps: number;
  /** Seconds of load per scenario. */
  seconds: number;
  /** Requests per scenario before measuring (JIT, caches, pool). */
  warmupRequests: number;
  connections: number;
  /** The staff user the load runs as; its link to a bench office marks the set as seeded. */
  email: string;
}

export const PROFILES: Record<Profile['name'], Profile> = {
  full: { name: 'full', apps: 100_000, offices: 200, busyOfficeApps: 5_000, seconds: 10, warmupRequests: 400, connections: 16, email: 'bench.full.v2@bench.test' },
  // Issue 17 item 5: a million applications (PostgreSQL only), the busy office as in the full set.
  scale: { name: 'scale', apps: 1_000_000, offices: 2_000, busyOfficeApps: 5_000, seconds: 10, warmupRequests: 400, connections: 16, email: 'bench.scale.v1@bench.test' },
  quick: { name: 'quick', apps: 10_000, offices: 20, busyOfficeApps: 1_000, seconds: 3, warmupRequests: 200, connections: 16, email: 'bench.quick.v2@bench.test' },
};

/**
 * Each profile and database gets its own DATA_DIR, apart from the demo `./data`. For PGlite it
 * holds the database; for PostgreSQL only the generated secrets, the PII key above all: the
 * application rows are encrypted with it at seed time, so the server must run with the same one.
 */
export function dataDir(profile: Profile, kind: DatabaseKind): string {
  const base = profile.name === 'full' ? 'bench' : `bench-${profile.name}`;
  return join(ROOT, 'data', kind === 'pglite' ? base : `${base}-postgres`);
}

/** What the load needs to know about the prepared set; bench/prepare.ts prints it. */
export interface Fixture {
  kind: DatabaseKind;
  /** True when this run seeded the set, false when it was already there. */
  seeded: boolean;
  seedSeconds: number;
  totalApps: number;
  userId: string;
  email: string;
  officeId: number;
  officeApps: number;
  /** Applications in the office's active stages: what GetOfficeApps lists. */
  activeApps: number;
  /** The name filter, and how many active applications of the office have a 'first last' starting with it. */
  search: string;
  searchMatches: number;
  /** An application of the office, for GetApp. */
  appId: number;
  /** A product owner of the demo data: the phone bench publishes a studio change as them (issue 18). */
  owner: { userId: string; email: string };
  /** A platform admin of the demo data: the reports over every office (issue 40). */
  platform: { userId: string; email: string };
}

/** The line prefix that marks the fixture in the output of bench/prepare.ts. */
export const FIXTURE_MARK = 'BENCH_FIXTURE ';
