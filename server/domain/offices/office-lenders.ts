import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/index.ts';
import { applicationLenders, lenders, officeLenders } from '../../db/schema.ts';
import { HttpProblem } from '../../http/problem.ts';
import { lenderCatalogue, type LenderCatalogue } from '../../lenders/registry.ts';
import type { LenderAdapter } from '../../lenders/types.ts';
import type { WaterfallEntry } from '../../lenders/waterfall.ts';
import type { Services } from '../../services.ts';

/** The lender files this process serves (LENDERS_DIR). */
export const catalogueOf = (services: Services): LenderCatalogue => lenderCatalogue(services.settings);

/**
 * The lenders the office works with today: its link is Completed and enabled, the lender is active,
 * and a lender file serves it. Optionally only the codes named.
 */
export async function officeLenderEntries(db: Db, catalogue: LenderCatalogue, officeId: number, codes?: readonly string[]): Promise<WaterfallEntry[]> {
  const rows = await db
    .select({ id: lenders.id, code: lenders.code, discountRate: officeLenders.discountRate })
    .from(officeLenders)
    .innerJoin(lenders, eq(lenders.id, officeLenders.lenderId))
    .where(and(eq(officeLenders.officeId, officeId), eq(officeLenders.status, 'Completed'), eq(officeLenders.isEnabled, true), eq(lenders.isActive, true)))
    .orderBy(asc(officeLenders.numOrder), asc(lenders.code));
  const entries: WaterfallEntry[] = [];
  for (const row of rows) {
    if (codes && !codes.includes(row.code)) continue;
    const adapter = catalogue.get(row.code);
    if (adapter) entries.push({ adapter, lenderId: row.id, discountRate: row.discountRate });
  }
  return entries;
}

export async function discountRateOf(db: Db, officeId: number, lenderId: number): Promise<number | null> {
  const [row] = await db
    .select({ rate: officeLenders.discountRate })
    .from(officeLenders)
    .where(and(eq(officeLenders.officeId, officeId), eq(officeLenders.lenderId, lenderId)));
  return row?.rate ?? null;
}

export function adapterOf(catalogue: LenderCatalogue, code: string | null): LenderAdapter {
  const adapter = code ? catalogue.get(code) : undefined;
  if (!adapter) throw HttpProblem.conflict('No lender has been selected for this application yet.');
  return adapter;
}

/** The lender's own id of the application (its pre-qualification's answer); null when it gave none. */
export async function lenderAppIdOf(db: Db, appId: number, lenderId: number | null): Promise<string | null> {
  if (lenderId === null) return null;
  const [row] = await db.select({ id: applicationLenders.lenderAppId }).from(applicationLenders).where(and(eq(applicationLenders.appId, appId), eq(applicationLenders.lenderId, lenderId)));
  return row?.id ?? null;
}
