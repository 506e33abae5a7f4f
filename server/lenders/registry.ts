import type { Settings } from '../config.ts';
import type { Db } from '../db/index.ts';
import { lenders } from '../db/schema.ts';
import { resolve } from 'node:path';
import { loadLenderFiles, parseLenderFile, type LenderDescriptor } from '../../core/lenders/descriptor.ts';
import { perLiveSet } from '../descriptors/live.ts';
import { SCREENS } from '../../core/descriptors/screens.ts';
import { filesOf, withPublished } from '../../core/descriptors/overlay.ts';
import { sandboxAdapter, sandboxSiteUrl } from './sandbox.ts';
import type { LenderAdapter } from './types.ts';
import { httpAdapter, type LenderLog } from './http/adapter.ts';
import { lenderEndpointOf } from './http/endpoint.ts';
import { taughtFirst, teachesDemoService } from './http/demo-teaching.ts';
import { callbackUrlOf } from './portal-addresses.ts';

/**
 * The lenders of this process: one adapter per file of LENDERS_DIR (screens/lenders/ by default) and, when that is the
 * deployed screens/lenders/, per lender file of the live studio publication (decision 0231), which replaces or adds
 * to them: a lender published in the studio is asked on the next application, with no restart.
 */
export interface LenderCatalogue {
  dir: string;
  readonly descriptors: readonly LenderDescriptor[];
  get(code: string): LenderAdapter | undefined;
  codes(): string[];
}

type Built = Omit<LenderCatalogue, 'dir'>;

/** A lender's trouble, for whoever runs the portal: the lender, the call and why, never the applicant's data. */
const logLenderTrouble: LenderLog = (entry) => console.warn(JSON.stringify({ level: 40, time: Date.now(), msg: 'lender unavailable', ...entry }));

type CatalogueSettings = Pick<Settings, 'lendersDir' | 'mode' | 'publicUrl'> & Partial<Pick<Settings, 'lenderEnv' | 'lendersInProcess'>>;

/**
 * The adapter a lender file names: the lender's API as its `http` block describes it, or the sandbox in this process
 * (a file that says so, or every file with LENDERS_IN_PROCESS). `environment` is where its calls go: the lender's
 * live address, or its test environment (the studio's 'Try it'). `teach` gives the demo's lender service the file first
 * (server/lenders/http/demo-teaching.ts); 'Try it' gives it only a lender that is not live yet.
 */
export function lenderAdapter(
  descriptor: LenderDescriptor,
  settings: CatalogueSettings,
  { log = logLenderTrouble, environment = 'live', teach = true }: { log?: LenderLog; environment?: 'live' | 'test'; teach?: boolean } = {},
): LenderAdapter {
  if (descriptor.adapter !== 'http' || settings.lendersInProcess) return sandboxAdapter(descriptor, sandboxSiteUrl(settings));
  const endpointSettings = { mode: settings.mode, lenderEnv: settings.lenderEnv ?? {} };
  const endpoint = lenderEndpointOf(endpointSettings, descriptor.code, environment);
  const adapter = httpAdapter(descriptor, endpoint, { callbackUrl: settings.lenderEnv?.LENDER_CALLBACK_URL ?? callbackUrlOf(settings.publicUrl) }, log);
  return teach && endpoint && teachesDemoService(endpointSettings, endpoint) ? taughtFirst(adapter, descriptor, endpoint.baseUrl) : adapter;
}

function build(descriptors: readonly LenderDescriptor[], settings: CatalogueSettings): Built {
  const adapters = new Map<string, LenderAdapter>();
  for (const descriptor of descriptors) adapters.set(descriptor.code, lenderAdapter(descriptor, settings));
  return { descriptors, get: (code) => adapters.get(code), codes: () => [...adapters.keys()] };
}

/** The lender files a set serves in place of or beside the deployed ones (expanded), read and checked as those are. */
export function publishedLenders(served: Readonly<Record<string, unknown>>): LenderDescriptor[] {
  return filesOf(served, 'lenders').map(({ name, doc }) => parseLenderFile(`screens/lenders/${name}`, JSON.stringify(doc)));
}

const catalogues = new Map<string, LenderCatalogue>();

function liveCatalogue(dir: string, settings: CatalogueSettings): LenderCatalogue {
  const deployed = loadLenderFiles(dir);
  // The deployed folder follows the live set (at most LIVE_TTL_MS old, like the pages people see); a folder set
  // elsewhere by LENDERS_DIR is a deployment's own.
  const follows = resolve(dir) === resolve(SCREENS, 'lenders');
  const now = perLiveSet((live) => build(follows ? withPublished(deployed, publishedLenders(live.served), (lender) => lender.code) : deployed, settings));
  return {
    dir,
    get descriptors() {
      return now().descriptors;
    },
    get: (code) => now().get(code),
    codes: () => now().codes(),
  };
}

export function lenderCatalogue(settings: CatalogueSettings): LenderCatalogue {
  const key = JSON.stringify([settings.lendersDir, sandboxSiteUrl(settings), settings.mode, settings.lenderEnv ?? {}, settings.lendersInProcess ?? false]);
  let catalogue = catalogues.get(key);
  if (!catalogue) {
    catalogue = liveCatalogue(settings.lendersDir, settings);
    catalogues.set(key, catalogue);
  }
  return catalogue;
}

/**
 * A lender row for every lender file (insert-or-ignore by code, like the reference seed): a ninth
 * lender exists in the database as soon as its file does and the server starts, or its publication is live. Rows are never
 * changed or removed here, so a platform admin's edits (name, active flag) stay.
 */
export async function syncLenderRows(db: Db, catalogue: Pick<LenderCatalogue, 'descriptors'>): Promise<void> {
  if (catalogue.descriptors.length === 0) return;
  await db
    .insert(lenders)
    .values(catalogue.descriptors.map((d) => ({ code: d.code, name: d.name, phone: d.phone ?? null })))
    .onConflictDoNothing({ target: lenders.code });
}
