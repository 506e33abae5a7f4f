import { rolePermissions } from '../../core/permissions.ts';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { createLocalJWKSet } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLenderService, type LenderService } from '../../lender-service/app.ts';
import { loadConfig } from '../../lender-service/config.ts';
import { buildServer } from '../../server/app.ts';
import { loadSettings } from '../../server/config.ts';
import { openDatabase, type Database } from '../../server/db/index.ts';
import { seedDemo } from '../../server/seed/demo.ts';
import { submitApplication } from '../../server/domain/journey/prequal.ts';
import type { Caller } from '../../server/http/caller.ts';
import { createTokenVerifiers } from '../../server/identity/tokens.ts';
import { runNow, type Services } from '../../server/services.ts';
import { OFFICE_ADMIN } from '../support/demo-accounts.ts';
import { prequalForm } from '../api/journey-fixtures.ts';

/**
 * A decision that a lender sends by callback while the portal is down is applied once the portal is back, once
 * (issue 38, decision 0262): the portal, on the embedded database in a folder, asks the lender service's lenders over
 * HTTP; the two that decide later (lpoint and powerpay, the async-callback style) are still deciding when the
 * waterfall's deadline comes, and the portal stops before their callbacks arrive. The lender service keeps sending
 * them; a new portal on the same folder and port takes each once.
 */

const OFFICE = 100; // Bright Smiles: ally, gsky, lpoint, lusa, powerpay, upg
const LATER = ['lpoint', 'powerpay'];
const apiKey = 'restart-test-key';
const secret = randomBytes(32).toString('base64');
const dataDir = mkdtempSync(join(tmpdir(), 'pos-restart-'));
let service: LenderService;
let portalPort: number;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

async function startPortal(seed: boolean, lenderTimeoutMs = 1_500): Promise<{ app: FastifyInstance; database: Database; services: Services }> {
  const settings = loadSettings({
    ...process.env, DATA_DIR: dataDir, APP_MODE: 'demo', LOG_LEVEL: 'silent', API_KEYS: apiKey, DATABASE_URL: '',
    LENDER_SERVICE_PORT: String(new URL(service.origin).port), LENDER_CALLBACK_SECRET: secret, LENDER_TIMEOUT_MS: String(lenderTimeoutMs),
    LENDER_CALLBACK_URL: `http://127.0.0.1:${portalPort}/api/App/ProcessLenderCallback`,
  });
  const database = await openDatabase(settings);
  if (seed) await seedDemo(database.db, settings);
  const verifiers = createTokenVerifiers(settings, { issuer: 'https://issuer.test', audience: settings.oidcAudience, keys: createLocalJWKSet({ keys: [] }) });
  const app = await buildServer({ settings, database, verifiers });
  await app.listen({ host: '127.0.0.1', port: portalPort });
  return { app, database, services: { settings, db: database.db, database, log: app.log, afterCommit: runNow } };
}

beforeAll(async () => {
  portalPort = await freePort();
  service = await startLenderService(loadConfig({
    LENDER_SERVICE_PORT: '0', LENDER_CALLBACK_SECRET: secret, LENDER_SERVICE_PORTAL_API_KEY: apiKey,
    LENDER_SERVICE_CALLBACK_DELAY_MS: '3000', LENDER_SERVICE_RETRY_BASE_MS: '300', LENDER_SERVICE_RETRY_ATTEMPTS: '12',
  }));
});
afterAll(async () => {
  await service?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('a portal restarted while lenders decide', () => {
  it('applies each decision that came by callback while it was down, once', async () => {
    const first = await startPortal(true);
    const [admin] = (await first.database.db.execute<{ id: string }>(sql`select id from users where email = ${OFFICE_ADMIN}`)).rows;
    const staff: Caller = { kind: 'staff', userId: admin!.id, email: OFFICE_ADMIN, role: 'admin', userRole: null, offices: new Map([[OFFICE, 'admin']]), permissions: new Map([[OFFICE, rolePermissions('admin')]]), disabledOffices: new Set() };
    const app = await submitApplication(first.services, staff, prequalForm(OFFICE) as never);
    const answers = async (db: Database['db']) =>
      (await db.execute<{ code: string; status: string; lender_app_id: string | null }>(sql`select l.code, al.status, al.lender_app_id from application_lenders al join lenders l on l.id = al.lender_id where al.app_id = ${app.id} order by l.code`)).rows;
    const waiting = (await answers(first.database.db)).filter((a) => LATER.includes(a.code));
    expect(waiting.map((a) => [a.code, a.status])).toEqual([['lpoint', 'PendingReview'], ['powerpay', 'PendingReview']]);
    expect(waiting.every((a) => a.lender_app_id)).toBe(true);
    await first.app.close();
    await first.database.close();

    // The lenders decide and call back now, and find no portal: they keep trying.
    const deliveries = async () => ((await (await fetch(`${service.origin}/admin/callbacks`)).json()) as { lenderCode: string; body: string; attempts: number; acknowledged: boolean }[])
      .filter((d) => JSON.parse(d.body).appId === app.id);
    const deadline = Date.now() + 20_000;
    while ((await deliveries()).filter((d) => d.attempts > 1).length < LATER.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    expect((await deliveries()).filter((d) => !d.acknowledged).map((d) => d.lenderCode).sort()).toEqual(LATER);

    const second = await startPortal(false);
    try {
      const until = Date.now() + 30_000;
      while ((await answers(second.database.db)).some((a) => LATER.includes(a.code) && a.status === 'PendingReview') && Date.now() < until) await new Promise((r) => setTimeout(r, 200));
      expect((await answers(second.database.db)).filter((a) => LATER.includes(a.code)).map((a) => [a.code, a.status])).toEqual([['lpoint', 'Approved'], ['powerpay', 'Approved']]);
      expect((await deliveries()).every((d) => d.acknowledged)).toBe(true);
      const applied = await second.database.db.execute<{ n: number }>(sql`select count(*)::int as n from app_logs where app_id = ${app.id} and message = 'Lender callback: Decision'`);
      expect(applied.rows[0]!.n).toBe(LATER.length);
      const jobs = await second.database.db.execute<{ state: string; n: number }>(sql`select state, count(*)::int as n from jobs where queue = 'lender-callback' and payload -> 'callback' ->> 'appId' = ${String(app.id)} group by state`);
      expect(jobs.rows).toEqual([{ state: 'Done', n: LATER.length }]);
    } finally {
      await second.app.close();
      await second.database.close();
    }
  }, 90_000);

  it('keeps the callbacks a waterfall waits for until its answers are recorded, then stores each as a backstop', async () => {
    // The lenders' callbacks now come within the waterfall's time: it waits for them and records their decisions.
    const portal = await startPortal(false, 8_000);
    try {
      const [admin] = (await portal.database.db.execute<{ id: string }>(sql`select id from users where email = ${OFFICE_ADMIN}`)).rows;
      const staff: Caller = { kind: 'staff', userId: admin!.id, email: OFFICE_ADMIN, role: 'admin', userRole: null, offices: new Map([[OFFICE, 'admin']]), permissions: new Map([[OFFICE, rolePermissions('admin')]]), disabledOffices: new Set() };
      const app = await submitApplication(portal.services, staff, prequalForm(OFFICE) as never);
      expect(app.lenders.filter((l) => LATER.includes(l.code)).map((l) => [l.code, l.status])).toEqual([['lpoint', 'Approved'], ['powerpay', 'Approved']]);
      const deliveries = ((await (await fetch(`${service.origin}/admin/callbacks`)).json()) as { lenderCode: string; body: string; lastOutcome: unknown; acknowledged: boolean }[])
        .filter((d) => JSON.parse(d.body).appId === app.id);
      expect(deliveries.map((d) => [d.lenderCode, d.lastOutcome, d.acknowledged]).sort()).toEqual([['lpoint', 202, true], ['powerpay', 202, true]]);
      // Each backstop was written after the transaction that recorded the lenders' answers began, not beside the waterfall.
      const order = await portal.database.db.execute<{ after: boolean }>(sql`
        select j.created_at > l.created_at as after from jobs j, app_logs l
        where j.queue = 'lender-callback' and j.payload -> 'callback' ->> 'appId' = ${String(app.id)}
          and l.app_id = ${app.id} and l.message like 'Lenders answered:%'`);
      expect(order.rows).toEqual([{ after: true }, { after: true }]);
    } finally {
      await portal.app.close();
      await portal.database.close();
    }
  }, 60_000);
});
