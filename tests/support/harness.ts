import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { exportJWK, generateKeyPair, SignJWT, createLocalJWKSet } from 'jose';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { loadSettings, type Settings } from '../../server/config.ts';
import { openDatabase, type Database } from '../../server/db/index.ts';
import { seedDemo } from '../../server/seed/demo.ts';
import { buildServer } from '../../server/app.ts';
import { createTokenVerifiers, issueBorrowerToken } from '../../server/identity/tokens.ts';
import type { TokenVerifiers } from '../../server/http/access.ts';
import { operationIndex } from '../../codegen/generated/operation-index.ts';
import { operationMatcher } from '../../src/app/api/pipeline.ts';

/** A request for `call`: as staff `as` or the borrower of `borrowerOf`, with the API key unless `key` is false. */
export type CallOptions = InjectOptions & { as?: string; borrowerOf?: number; key?: boolean; idempotencyKey?: string | false };

/**
 * One seeded database and one server for the whole API suite (vitest runs the API files in one
 * process). PGlite by default; PostgreSQL when DATABASE_URL is set, on a schema reset for the run.
 * Staff tokens are real JWTs, signed by a key made for the run and verified by the server's own
 * verifier, exactly as tokens of the identity provider are.
 */
export interface Harness {
  app: FastifyInstance;
  database: Database;
  settings: Settings;
  /** The token verifiers the server checks with: a second server built on the same database (a test's own) shares them. */
  verifiers: TokenVerifiers;
  /** A staff access token signed by the run's issuer; `expires: false` leaves out its `exp` (which the server refuses). */
  staffToken(email: string, options?: { expires?: boolean }): Promise<string>;
  borrowerToken(appId: number): Promise<string>;
  /**
   * Injects a request: as staff `as` or the borrower of `borrowerOf`, with the API key unless `key` is false. A write
   * gets a fresh Idempotency-Key per call, as the web app sends one per user intent, unless `idempotencyKey` names one
   * (repeats of one intent) or is false (a call without one).
   */
  call(options: CallOptions): Promise<LightMyRequestResponse>;
  /** The headers `call` sends with these options: for the same request over a real connection. */
  headersFor(options: CallOptions): Promise<Record<string, string>>;
  /** `call` as staff `as` (or anonymous), with the API key, a JSON payload and extra headers. */
  request(as: string | undefined, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  userId(email: string): Promise<string>;
}

const ISSUER = 'https://issuer.test';
const operationOf = operationMatcher(operationIndex);
/** Is the request a write of the contract (by method and path, as the web app's client finds it)? */
const write = (options: InjectOptions) => operationOf(String(options.method ?? 'GET'), String(options.url ?? '').split('?')[0]!)?.write ?? false;
let pending: Promise<Harness> | undefined;

async function resetPostgres(url: string): Promise<void> {
  const pg = (await import('pg')).default;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('drop schema if exists public cascade; drop schema if exists drizzle cascade; create schema public;');
  await client.end();
}

async function start(): Promise<Harness> {
  const dataDir = mkdtempSync(join(tmpdir(), 'pos-api-'));
  const settings = loadSettings({ ...process.env, DATA_DIR: dataDir, LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent', APP_MODE: 'demo', API_KEYS: 'test-api-key-1,demo-web-key', LENDERS_IN_PROCESS: 'true' });
  if (settings.databaseUrl) await resetPostgres(settings.databaseUrl);
  const database = await openDatabase(settings);
  await seedDemo(database.db, settings);
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'test', alg: 'RS256' };
  const verifiers = createTokenVerifiers(settings, { issuer: ISSUER, audience: settings.oidcAudience, keys: createLocalJWKSet({ keys: [jwk] }) });
  const app = await buildServer({ settings, database, verifiers });
  await app.ready();

  const ids = new Map<string, string>();
  const userId = async (email: string) => {
    if (!ids.has(email)) {
      const rows = await database.db.execute<{ id: string }>(sql`select id from users where email = ${email}`);
      if (!rows.rows[0]) throw new Error(`no user ${email}`);
      ids.set(email, rows.rows[0].id);
    }
    return ids.get(email)!;
  };
  const staffToken = async (email: string, { expires = true } = {}) => {
    const token = new SignJWT({ scp: 'api.read api.write', email })
      .setProtectedHeader({ alg: 'RS256', kid: 'test' })
      .setIssuer(ISSUER)
      .setAudience(settings.oidcAudience)
      .setSubject(await userId(email))
      .setIssuedAt();
    return (expires ? token.setExpirationTime('10m') : token).sign(privateKey);
  };
  const borrowerToken = (appId: number) => issueBorrowerToken(settings.borrowerTokenSecret, appId, 600);

  const headersFor: Harness['headersFor'] = async ({ as, borrowerOf, key = true, idempotencyKey, headers, ...options }) => ({
    ...(key ? { 'x-api-key': 'test-api-key-1' } : {}),
    ...(idempotencyKey === false ? {} : idempotencyKey ? { 'idempotency-key': idempotencyKey } : write(options) ? { 'idempotency-key': randomUUID() } : {}),
    ...(as ? { authorization: `Bearer ${await staffToken(as)}` } : {}),
    ...(borrowerOf ? { 'x-borrower-token': await borrowerToken(borrowerOf) } : {}),
    ...(headers as Record<string, string> | undefined),
  });
  const call: Harness['call'] = async (options) => {
    const { as: _as, borrowerOf: _borrowerOf, key: _key, idempotencyKey: _idempotencyKey, ...request } = options;
    return app.inject({ ...request, headers: await headersFor(options) });
  };

  const request: Harness['request'] = (as, method, url, payload, headers = {}) =>
    call({ method, url, as, headers, ...(payload === undefined ? {} : { payload: payload as object }) });

  process.once('beforeExit', () => {
    void app.close().then(() => database.close()).finally(() => rmSync(dataDir, { recursive: true, force: true }));
  });
  return { app, database, settings, verifiers, staffToken, borrowerToken, call, headersFor, request, userId };
}

export function harness(): Promise<Harness> {
  pending ??= start();
  return pending;
}
