import { createHmac } from 'node:crypto';
import type { Settings } from '../config.ts';
import type { Db } from '../db/index.ts';
import { lenders } from '../db/schema.ts';
import { loadLenderFiles, type LenderDescriptor } from './descriptor.ts';
import { sandboxAdapter, sandboxSiteUrl } from './sandbox.ts';
import type { LenderAdapter } from './types.ts';

/**
 * The lenders of this process: one adapter per file of LENDERS_DIR (screens/lenders/ by default).
 * Read once per folder and kept: the files are part of the deployment, like the code.
 */
export interface LenderCatalogue {
  dir: string;
  descriptors: readonly LenderDescriptor[];
  get(code: string): LenderAdapter | undefined;
  codes(): string[];
}

const catalogues = new Map<string, LenderCatalogue>();

function build(dir: string, site: string | null): LenderCatalogue {
  const descriptors = loadLenderFiles(dir);
  const adapters = new Map<string, LenderAdapter>();
  for (const descriptor of descriptors) {
    // Only the sandbox implementation exists; a real lender's adapter would be chosen here by `adapter`.
    adapters.set(descriptor.code, sandboxAdapter(descriptor, site));
  }
  return { dir, descriptors, get: (code) => adapters.get(code), codes: () => [...adapters.keys()] };
}

export function lenderCatalogue(settings: Pick<Settings, 'lendersDir' | 'mode' | 'publicUrl'>): LenderCatalogue {
  const site = sandboxSiteUrl(settings);
  const key = `${settings.lendersDir}\n${site}`;
  let catalogue = catalogues.get(key);
  if (!catalogue) {
    catalogue = build(settings.lendersDir, site);
    catalogues.set(key, catalogue);
  }
  return catalogue;
}

/**
 * A lender row for every lender file (insert-or-ignore by code, like the reference seed): a ninth
 * lender exists in the database as soon as its file does and the server starts. Rows are never
 * changed or removed here, so a platform admin's edits (name, active flag) stay.
 */
export async function syncLenderRows(db: Db, catalogue: LenderCatalogue): Promise<void> {
  if (catalogue.descriptors.length === 0) return;
  await db
    .insert(lenders)
    .values(catalogue.descriptors.map((d) => ({ code: d.code, name: d.name, phone: d.phone ?? null })))
    .onConflictDoNothing({ target: lenders.code });
}

/**
 * The HMAC key a lender signs its callbacks with: HMAC-SHA256(LENDER_CALLBACK_SECRET, "lender-callback/v1/<code>"),
 * so each lender holds its own key and one lender's key says nothing about another's.
 */
export function lenderCallbackKey(settings: Pick<Settings, 'lenderCallbackSecret'>, code: string): Buffer {
  return createHmac('sha256', settings.lenderCallbackSecret).update(`lender-callback/v1/${code}`).digest();
}

/** `sha256=<hex>` over `<timestamp>.<raw body>`, as a lender sends it in X-Lender-Signature. */
export function signLenderCallback(key: Buffer, timestamp: string, rawBody: Buffer | string): string {
  return `sha256=${createHmac('sha256', key).update(`${timestamp}.`).update(rawBody).digest('hex')}`;
}
