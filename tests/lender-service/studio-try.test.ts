import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLenderService, type LenderService } from '../../lender-service/app.ts';
import { loadConfig } from '../../lender-service/config.ts';
import { loadSettings } from '../../server/config.ts';
import { openDatabase, type Database } from '../../server/db/index.ts';
import { tryLender } from '../../server/domain/studio/try-lender.ts';
import { runNow, type Services } from '../../server/services.ts';

/**
 * The studio's 'Try it' over HTTP (issue 38 item 5): the product owner's draft of the lender service's shared mapping
 * is tried against the lender service before it is published; a mapping that reads the answer wrongly shows its
 * problem at its place in the lender file, and the lender is that application's 'Error', as it would be for a patient.
 */

const dataDir = mkdtempSync(join(tmpdir(), 'pos-studio-try-'));
let service: LenderService;
let database: Database;
let services: Services;

beforeAll(async () => {
  service = await startLenderService(loadConfig({ LENDER_SERVICE_PORT: '0' }));
  const settings = loadSettings({ ...process.env, DATA_DIR: dataDir, APP_MODE: 'demo', LOG_LEVEL: 'silent', DATABASE_URL: '', LENDER_SERVICE_PORT: new URL(service.origin).port });
  database = await openDatabase(settings);
  services = { settings, db: database.db, database, log: { warn() {}, error() {}, info() {} } as never, afterCommit: runNow };
});
afterAll(async () => {
  await database?.close();
  await service?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const fragments = () => JSON.parse(readFileSync(new URL('../../screens/fragments/lenders.json', import.meta.url), 'utf8')) as { fragments: Record<string, { value: Record<string, unknown> }> };

describe("the studio's Try it, against the lender service", () => {
  it('sends the sample applicant to the lender over HTTP and answers the mapped offers', async () => {
    const result = await tryLender(services, { files: {}, code: 'ally', sample: 'Approve', amount: 4500 });
    expect(result).toMatchObject({ decision: 'Approved', sentTo: service.origin, problems: [] });
    expect(result.offers.length).toBeGreaterThan(0);
  });

  it("sends a drafted file only to the lender's test environment, never its live address", async () => {
    const live = { LENDER_ALLY_URL: 'http://127.0.0.1:9', LENDER_ALLY_CLIENT_SECRET: 'live-secret' };
    const production = (lenderEnv: Record<string, string>): Services => ({ ...services, settings: { ...services.settings, mode: 'production', lenderEnv } });
    await expect(tryLender(production(live), { files: {}, code: 'ally', sample: 'Approve', amount: 4500 })).rejects.toMatchObject({
      status: 409,
      detail: 'Ally Lending has no test environment configured (LENDER_ALLY_TEST_URL): a lender is tried there, never at its live address.',
    });
    const secrets = loadConfig({ LENDER_SERVICE_PORT: '0' });
    const tested = await tryLender(production({ ...live, LENDER_ALLY_TEST_URL: service.origin, LENDER_ALLY_TEST_CLIENT_ID: 'ally', LENDER_ALLY_TEST_CLIENT_SECRET: secrets.clientSecret }), { files: {}, code: 'ally', sample: 'Approve', amount: 4500 });
    expect(tested).toMatchObject({ decision: 'Approved', sentTo: service.origin, problems: [] });
  });

  it("teaches a new lender's draft to the demo's lender service beside the portal, and only there", async () => {
    const acme = { ...JSON.parse(readFileSync(new URL('../../screens/lenders/ally.json', import.meta.url), 'utf8')), code: 'acme', name: 'Acme Credit' };
    const files = { 'lenders/acme.json': acme };
    const beside = (value: string | undefined): Services => ({ ...services, settings: { ...services.settings, lenderEnv: { ...services.settings.lenderEnv, LENDER_SERVICE_BESIDE: value } } as Services['settings'] });
    // A lender service that was not started by this portal is not the portal's to teach: it knows no Acme.
    const untaught = await tryLender(beside(undefined), { files, code: 'acme', sample: 'Approve', amount: 4500 });
    expect(untaught.decision).toBe('Error');
    expect(untaught.problems).toEqual([expect.objectContaining({ operation: 'prequalify', reason: 'the token endpoint answered 401' })]);
    const taught = await tryLender(beside('true'), { files, code: 'acme', sample: 'Approve', amount: 4500 });
    expect(taught).toMatchObject({ decision: 'Approved', sentTo: service.origin, problems: [] });
    expect(taught.offers.length).toBeGreaterThan(0);
  });

  it("shows a drafted mapping's problem at its place, and the lender as unavailable for that patient", async () => {
    const draft = fragments();
    draft.fragments.lenderServiceApplicationAnswer!.value.status = { var: 'response.body.state' };
    const result = await tryLender(services, { files: { 'fragments/lenders.json': draft }, code: 'ally', sample: 'Approve', amount: 4500 });
    expect(result.decision).toBe('Error');
    expect(result.offers).toEqual([]);
    expect(result.problems).toEqual([{ operation: 'prequalify', place: '/http/operations/prequalify/answer/status', reason: expect.stringMatching(/^expected one of .*Approved/) }]);
  });
});
