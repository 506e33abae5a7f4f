import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLenderService, type LenderService } from '../../lender-service/app.ts';
import { loadConfig } from '../../lender-service/config.ts';
import { loadSettings, type Settings } from '../../server/config.ts';
import { openDatabase, type Database } from '../../server/db/index.ts';
import { applicationLenders, applications } from '../../server/db/schema.ts';
import { seedDemo } from '../../server/seed/demo.ts';
import { reopenAtLenders } from '../../server/domain/journey/reopen.ts';
import { lenderCatalogue } from '../../server/lenders/registry.ts';

/**
 * The demo's lender service forgets on restart; the demo data's loans must still be finalized and refunded by the
 * office (decision 0264). After the portal opens them again, a signed loan finalizes at its lender and a funded one
 * refunds there; before, the lender has neither.
 */

const dataDir = mkdtempSync(join(tmpdir(), 'pos-demo-books-'));
let service: LenderService;
let database: Database;
let settings: Settings;

beforeAll(async () => {
  service = await startLenderService(loadConfig({ LENDER_SERVICE_PORT: '0', LENDER_SERVICE_CALLBACK_DELAY_MS: '20' }));
  const env = { ...process.env, DATA_DIR: dataDir, APP_MODE: 'demo', LOG_LEVEL: 'silent', DATABASE_URL: '', LENDER_SERVICE_PORT: new URL(service.origin).port, LENDER_SERVICE_BESIDE: 'true' };
  settings = loadSettings(env);
  database = await openDatabase(settings);
  await seedDemo(database.db, settings);
}, 120_000);
afterAll(async () => {
  await database?.close();
  await service?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The first demo application of a stage, with what the office's orders send its lender. */
async function first(stage: 'ReadyToFinalize' | 'Funded') {
  const [app] = await database.db
    .select({ id: applications.id, lenderCode: applications.lenderCode, contractId: applications.contractId, amount: applications.amount, lenderAppId: applicationLenders.lenderAppId })
    .from(applications)
    .innerJoin(applicationLenders, and(eq(applicationLenders.appId, applications.id), eq(applicationLenders.lenderId, applications.lenderId)))
    .where(and(eq(applications.stage, stage), inArray(applications.lenderCode, ['ally', 'gsky', 'lusa', 'covered', 'upg'])))
    .orderBy(applications.id)
    .limit(1);
  if (!app?.lenderCode || !app.contractId) throw new Error(`the demo data has no ${stage} application at a lender`);
  const adapter = lenderCatalogue(settings).get(app.lenderCode)!;
  return { app, order: { appId: app.id, lenderAppId: app.lenderAppId, contractId: app.contractId }, adapter };
}

describe("the demo data's loans at the lender service", () => {
  it('are finalized and refunded at their lenders once the portal opened them again', async () => {
    const signed = await first('ReadyToFinalize');
    const funded = await first('Funded');
    expect(await signed.adapter.finalize(signed.order)).toMatchObject({ accepted: false });
    expect(await funded.adapter.refund({ ...funded.order, amount: 100, idempotencyKey: 'demo-books-refund-0' })).toMatchObject({ accepted: false });

    const log = { info() {}, warn(obj: object, msg: string) { throw new Error(`${msg}: ${JSON.stringify(obj)}`); } };
    await reopenAtLenders(database.db, settings, log);
    const again = async (stage: 'ReadyToFinalize' | 'Funded') => {
      const found = await first(stage);
      expect(found.app.id).toBe(stage === 'Funded' ? funded.app.id : signed.app.id);
      return found;
    };
    const nowSigned = await again('ReadyToFinalize');
    const nowFunded = await again('Funded');
    expect(await nowSigned.adapter.finalize(nowSigned.order)).toMatchObject({ accepted: true, reference: nowSigned.app.contractId });
    expect(await nowFunded.adapter.refund({ ...nowFunded.order, amount: 100, idempotencyKey: 'demo-books-refund-1' })).toMatchObject({ accepted: true });
    expect(await nowFunded.adapter.refund({ ...nowFunded.order, amount: nowFunded.app.amount, idempotencyKey: 'demo-books-refund-2' })).toMatchObject({ accepted: false });
  }, 180_000);
});
