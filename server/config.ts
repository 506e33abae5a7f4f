import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';

/** Settings come only from the environment; every variable is documented in the README. */
export interface Settings {
  mode: 'demo' | 'production';
  host: string;
  port: number;
  dataDir: string;
  databaseUrl: string | undefined;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** AES-256-GCM key for PII columns (32 bytes). */
  piiKey: Buffer;
  /** Accepted X-Api-Key values. */
  apiKeys: string[];
  /** The key the built web app sends; must be one of apiKeys. */
  webApiKey: string;
  /** Largest JSON request body, in bytes. */
  bodyLimit: number;
  /** Largest uploaded file, in bytes. */
  uploadLimit: number;
  /** HMAC key of borrower tokens (32 bytes). */
  borrowerTokenSecret: Buffer;
  /** The OpenID issuer whose access tokens the API accepts, and the audience they must carry. */
  oidcIssuer: string | undefined;
  oidcAudience: string;
}

export class SettingsError extends Error {
  constructor(readonly variable: string, problem: string) {
    super(`${variable}: ${problem}`);
  }
}

type Env = Record<string, string | undefined>;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const value = env[name] ?? fallback;
  if (!(allowed as readonly string[]).includes(value)) {
    throw new SettingsError(name, `must be one of ${allowed.join(', ')} (got '${value}')`);
  }
  return value as T;
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new SettingsError(name, `must be a whole number (got '${raw}')`);
  const value = Number(raw);
  if (value < min || value > max) throw new SettingsError(name, `must be between ${min} and ${max} (got ${value})`);
  return value;
}

function optionalUrl(env: Env, name: string): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  try {
    const url = new URL(raw);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error();
  } catch {
    throw new SettingsError(name, `must be an http(s) URL (got '${raw}')`);
  }
  return raw.replace(/\/$/, '');
}

function postgresUrl(env: Env): string | undefined {
  const raw = env.DATABASE_URL;
  if (raw === undefined || raw === '') return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new SettingsError('DATABASE_URL', 'must be a URL such as postgres://user:pass@127.0.0.1:5432/db');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new SettingsError('DATABASE_URL', `must use postgres:// or postgresql:// (got '${url.protocol}')`);
  }
  return raw;
}

/** In demo mode a secret that is not set is generated once and kept under the data folder. */
function secret(env: Env, name: string, mode: Settings['mode'], dataDir: string, bytes: number): Buffer {
  const raw = env[name];
  if (raw !== undefined && raw !== '') {
    const value = Buffer.from(raw, 'base64');
    if (value.length !== bytes) throw new SettingsError(name, `must be ${bytes} bytes in base64`);
    return value;
  }
  if (mode === 'production') throw new SettingsError(name, 'is required in production mode');
  const file = join(dataDir, 'secrets', `${name.toLowerCase()}.b64`);
  if (existsSync(file)) return Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  mkdirSync(join(dataDir, 'secrets'), { recursive: true, mode: 0o700 });
  const value = randomBytes(bytes);
  writeFileSync(file, value.toString('base64'), { mode: 0o600 });
  return value;
}

const DEMO_WEB_API_KEY = 'demo-web-key';

export function loadSettings(env: Env = process.env): Settings {
  const mode = oneOf(env, 'APP_MODE', ['demo', 'production'] as const, 'demo');
  const dataDir = resolve(env.DATA_DIR || './data');
  const apiKeys = (env.API_KEYS ?? (mode === 'demo' ? DEMO_WEB_API_KEY : ''))
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);
  if (apiKeys.length === 0) throw new SettingsError('API_KEYS', 'is required in production mode (comma-separated keys)');
  if (apiKeys.some((k) => k.length < 8)) throw new SettingsError('API_KEYS', 'each key must be at least 8 characters');
  const webApiKey = env.WEB_API_KEY || apiKeys[0]!;
  if (!apiKeys.includes(webApiKey)) throw new SettingsError('WEB_API_KEY', 'must be one of API_KEYS');
  return {
    mode,
    host: env.HOST || '127.0.0.1',
    port: integer(env, 'PORT', 3000, 1, 65535),
    dataDir,
    databaseUrl: postgresUrl(env),
    logLevel: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    piiKey: secret(env, 'PII_KEY', mode, dataDir, 32),
    apiKeys,
    webApiKey,
    bodyLimit: integer(env, 'BODY_LIMIT', 1_048_576, 1024, 104_857_600),
    uploadLimit: integer(env, 'UPLOAD_LIMIT', 10_485_760, 1024, 104_857_600),
    borrowerTokenSecret: secret(env, 'BORROWER_TOKEN_SECRET', mode, dataDir, 32),
    oidcIssuer: optionalUrl(env, 'OIDC_ISSUER'),
    oidcAudience: env.OIDC_AUDIENCE || 'api://pos-portal',
  };
}
