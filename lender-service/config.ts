import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { ROOT } from '../core/contract/documents.ts';
import { parseFaults, type Faults } from './faults.ts';
import { DEMO_LENDER_SERVICE } from '../core/lenders/demo-service.ts';
import type { LenderDescriptor } from '../core/lenders/descriptor.ts';

/**
 * The lender service's settings, from the environment (lender-service/README.md). The defaults make `npm run
 * lender-service` work on a bare machine; the keys they give are demo keys, never used outside loopback.
 */

export const STYLES = ['json-oauth', 'async-callback', 'hosted-signing'] as const;
export type ApiStyle = (typeof STYLES)[number];

export interface LenderServiceConfig {
  /** Always loopback: the service stands in for lenders in demos, tests and benches, and its admin calls change how it behaves. */
  host: '127.0.0.1';
  /** 0: a free port, chosen by the system (tests). */
  port: number;
  lendersDir: string;
  /** The portal's LENDER_CALLBACK_SECRET, from which each lender's callback key is derived (decision 0110). */
  callbackSecret: Buffer;
  /** The OAuth 2.0 client secret of every json-oauth and hosted-signing lender (its client id is its code). */
  clientSecret: string;
  /** The X-Api-Key an async-callback lender's caller sends. */
  apiKey: string;
  /** The X-Api-Key sent with each callback: the portal asks lenders for one of its API_KEYS. */
  portalApiKey: string | null;
  /** PEM files trusted for https callbacks besides the system's (the portals' self-signed certificates in demo mode). */
  callbackCaFiles: string[];
  tokenTtlSeconds: number;
  /** How long an async-callback lender takes before it posts its decision. */
  callbackDelayMs: number;
  /** The first wait before a callback is sent again; it doubles each time. */
  retryBaseMs: number;
  retryAttempts: number;
  styleOverrides: Record<string, ApiStyle>;
  /** The faults the service starts with, by lender code. */
  faults: Map<string, Faults>;
}

export class LenderServiceConfigError extends Error {
  constructor(name: string, problem: string) {
    super(`${name} ${problem}`);
  }
}

type Env = Record<string, string | undefined>;

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) throw new LenderServiceConfigError(name, `must be a whole number from ${min} to ${max} (got '${raw}')`);
  return value;
}

function styleOverrides(raw: string | undefined): Record<string, ApiStyle> {
  const overrides: Record<string, ApiStyle> = {};
  for (const pair of (raw ?? '').split(',').map((item) => item.trim()).filter(Boolean)) {
    const [code, style] = pair.split('=').map((part) => part.trim());
    if (!code || !STYLES.includes(style as ApiStyle)) throw new LenderServiceConfigError('LENDER_SERVICE_STYLES', `must be code=style pairs, each style one of ${STYLES.join(', ')} (got '${pair}')`);
    overrides[code] = style as ApiStyle;
  }
  return overrides;
}

/** LENDER_SERVICE_FAULTS: a JSON object of faults by lender code ({"ally": {"delayMs": 2000}}). */
function faultsFromEnv(raw: string | undefined): Map<string, Faults> {
  const byLender = new Map<string, Faults>();
  if (!raw) return byLender;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new LenderServiceConfigError('LENDER_SERVICE_FAULTS', 'must be a JSON object of faults by lender code');
  }
  for (const [code, body] of Object.entries(parsed as Record<string, unknown>)) {
    const faults = parseFaults(body);
    if (typeof faults === 'string') throw new LenderServiceConfigError('LENDER_SERVICE_FAULTS', `${code}: ${faults}`);
    byLender.set(code, faults);
  }
  return byLender;
}

export function loadConfig(env: Env = process.env): LenderServiceConfig {
  const lendersDir = resolve(env.LENDERS_DIR || join(ROOT, 'screens', 'lenders'));
  if (!existsSync(lendersDir)) throw new LenderServiceConfigError('LENDERS_DIR', `no such folder: ${lendersDir}`);
  const secret = env.LENDER_CALLBACK_SECRET ? Buffer.from(env.LENDER_CALLBACK_SECRET, 'base64') : null;
  if (secret && secret.length !== 32) throw new LenderServiceConfigError('LENDER_CALLBACK_SECRET', 'must be 32 bytes in base64, as the portal has it');
  // Several portals may share one service (the end-to-end tests' three): their certificates, separated as in PATH.
  const callbackCaFiles = (env.LENDER_SERVICE_CALLBACK_CA ?? '').split(delimiter).filter(Boolean);
  return {
    host: '127.0.0.1',
    port: integer(env, 'LENDER_SERVICE_PORT', DEMO_LENDER_SERVICE.port, 0, 65535),
    lendersDir,
    // Without the portal's secret no portal can verify the callbacks; that is still a service a test can drive.
    callbackSecret: secret ?? randomBytes(32),
    clientSecret: env.LENDER_SERVICE_CLIENT_SECRET || DEMO_LENDER_SERVICE.clientSecret,
    apiKey: env.LENDER_SERVICE_API_KEY || DEMO_LENDER_SERVICE.apiKey,
    portalApiKey: env.LENDER_SERVICE_PORTAL_API_KEY || null,
    callbackCaFiles,
    tokenTtlSeconds: integer(env, 'LENDER_SERVICE_TOKEN_TTL_SECONDS', 3600, 1, 86_400),
    callbackDelayMs: integer(env, 'LENDER_SERVICE_CALLBACK_DELAY_MS', 1000, 0, 60_000),
    retryBaseMs: integer(env, 'LENDER_SERVICE_RETRY_BASE_MS', 1000, 1, 60_000),
    retryAttempts: integer(env, 'LENDER_SERVICE_RETRY_ATTEMPTS', 8, 1, 20),
    styleOverrides: styleOverrides(env.LENDER_SERVICE_STYLES),
    faults: faultsFromEnv(env.LENDER_SERVICE_FAULTS),
  };
}

/** A lender's style: the override (LENDER_SERVICE_STYLES), else its file's `sandbox.serviceStyle`, else json-oauth. */
export function styleOf(config: Pick<LenderServiceConfig, 'styleOverrides'>, descriptor: LenderDescriptor): ApiStyle {
  return config.styleOverrides[descriptor.code] ?? descriptor.sandbox.serviceStyle ?? 'json-oauth';
}
