import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createHmac, randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hostPatternProblem } from '../core/hosts.ts';
import { DESCRIPTOR_PLACES, type DescriptorPlace } from '../core/descriptors/kinds.ts';

/** Settings come only from the environment; every variable is documented in the README. */
export interface Settings {
  mode: 'demo' | 'production';
  host: string;
  port: number;
  /** Server processes sharing the port (decision 0202); above 1 only on PostgreSQL. */
  workers: number;
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
  /** The https origin users reach (no path); the built-in issuer is `${publicUrl}/oidc`; e-mailed links use it. */
  publicUrl: string;
  /** How the process speaks TLS: its own self-signed certificate, given files, or behind a TLS-terminating proxy. */
  tls: { mode: 'self-signed' } | { mode: 'files'; certFile: string; keyFile: string } | { mode: 'proxy' };
  /** Sign-in: the built-in OpenID provider, or an external issuer (Entra External ID / Azure AD B2C / any OIDC). */
  identity: IdentitySettings;
  /** Where the session timeout sends someone who is neither staff nor a borrower (spec §4). */
  companyHomeUrl: string;
  /** An https origin the web app's pages may load images from besides their own (decision 0250); none by default. */
  assetOrigin: string | undefined;
  /** The lender files (screens/lenders/<code>.json): one file per lender (docs/decisions/0101). */
  lendersDir: string;
  /** How long the waterfall waits for each lender before it counts as TimedOut. */
  lenderTimeoutMs: number;
  /** Key each lender's callback HMAC key is derived from (server/lenders/registry.ts). */
  lenderCallbackSecret: Buffer;
  /** Where each HTTP lender is and its secrets (LENDER_<CODE>_URL, _CLIENT_ID, _CLIENT_SECRET, _API_KEY, _SIGNING_SECRET; issue 38). */
  lenderEnv: Readonly<Record<string, string>>;
  /**
   * LENDERS_IN_PROCESS=true: every lender file is served by the in-process sandbox, whatever its adapter — for the API
   * tests of the portal's own rules, which need no second process (decision 0261). Refused in production.
   */
  lendersInProcess: boolean;
  /** Lifetime of a single-use borrower link (SendApp, SendESignLink). */
  linkTokenTtlHours: number;
  /** Delivery of the outbox: SMTP and an HTTP SMS gateway when configured (docs/decisions/0104). */
  notify: NotifySettings;
  /**
   * STUDIO_APPROVALS: 'required' — a studio change goes live only once a second product owner approves it (four eyes,
   * decision 0288); 'optional' — an owner may publish alone or ask for a review. Required in production by default.
   */
  studioApprovals: 'required' | 'optional';
  /**
   * STUDIO_APPROVERS ('lenders=2,states=2'): where approvals are required, how many product owners other than the one
   * who asked approve a change to a file of a place before it goes live; a place not named needs one (decision 0291).
   */
  studioApprovers: Readonly<Partial<Record<DescriptorPlace, number>>>;
}

export interface NotifySettings {
  smtp: { url: string; from: string } | undefined;
  sms: { url: string; token: string | undefined; from: string | undefined } | undefined;
  /** Shared secret of the inbound SMS webhook (Notify_ReceiveSms); the webhook refuses every call without it. */
  smsWebhookSecret: string | undefined;
}

export type IdentitySettings =
  | {
      kind: 'builtin';
      /** The SPA's client id at the built-in provider. */
      clientId: string;
      /**
       * Host patterns, beside PUBLIC_URL's, where the web app may sign staff in (redirect and CORS origins of the
       * provider): the operator's approval, never the published brands' (decision 0248). Unset: the deployed brand
       * files' hosts (server/identity/provider.ts signInHosts).
       */
      appHosts: string[] | undefined;
      /** AES-256-GCM key that encrypts the provider's signing and cookie keys in the database. */
      keysSecret: Buffer;
    }
  | {
      kind: 'external';
      /** MSAL `auth.authority` (for B2C the sign-up/sign-in user flow). */
      authority: string;
      clientId: string;
      /** MSAL `knownAuthorities`: host names (B2C and CIAM need them). */
      knownAuthorities: string[];
      /** The API scopes as the issuer names them (Entra: full URIs such as api://…/api.read). */
      scopes: string[];
      /** MSAL protocol mode: AAD for Entra ID / B2C / External ID, OIDC for any other issuer. */
      protocolMode: 'AAD' | 'OIDC';
      /** B2C password-reset user flow, started on AADB2C90118. */
      passwordResetAuthority: string | undefined;
      /** Where the issuer's metadata is; default `${authority}/v2.0/.well-known/openid-configuration` (AAD) or `${authority}/.well-known/openid-configuration`. */
      metadataUrl: string;
      /** `users.provider` for accounts of this issuer. */
      providerName: string;
    };

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

/**
 * STUDIO_APPROVERS: 'place=count' pairs. In production, a lender file (its API, pricing and credentials' use) and the
 * state rules (who may borrow where) take two approvers by default; elsewhere every place takes one.
 */
function approversPerPlace(env: Env, mode: Settings['mode']): Partial<Record<DescriptorPlace, number>> {
  const raw = env.STUDIO_APPROVERS ?? (mode === 'production' ? 'lenders=2,states=2' : '');
  const approvers: Partial<Record<DescriptorPlace, number>> = {};
  for (const pair of raw.split(',').map((p) => p.trim()).filter(Boolean)) {
    const [, place, count] = /^([a-z]+)=(\d)$/.exec(pair) ?? [];
    if (!place || !(DESCRIPTOR_PLACES as readonly string[]).includes(place) || Number(count) < 1 || Number(count) > 5) {
      throw new SettingsError('STUDIO_APPROVERS', `must be place=count pairs, a place of ${DESCRIPTOR_PLACES.join(', ')} and a count from 1 to 5 (got '${pair}')`);
    }
    approvers[place as DescriptorPlace] = Number(count);
  }
  return approvers;
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

export const DEMO_WEB_API_KEY = 'demo-web-key';

/** The repository root: default places of the files the server reads (screens/lenders). */
const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function httpsOrigin(env: Env, name: string, fallback: string): string {
  const raw = env[name] || fallback;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new SettingsError(name, `must be an https URL such as https://portal.example.com (got '${raw}')`);
  }
  // MSAL refuses an http authority, and the built-in issuer lives on this origin.
  if (url.protocol !== 'https:') throw new SettingsError(name, `must use https:// (got '${raw}')`);
  if (url.pathname !== '/' || url.search || url.hash) throw new SettingsError(name, `must be an origin without a path (got '${raw}')`);
  return url.origin;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** https, or http on loopback (a stand-in issuer in tests and benchmarks; browsers still need https for MSAL). */
function httpsUrl(env: Env, name: string): string | undefined {
  const value = optionalUrl(env, name);
  if (value && !value.startsWith('https://') && !LOOPBACK.has(new URL(value).hostname)) {
    throw new SettingsError(name, `must use https:// (got '${value}')`);
  }
  return value;
}

function tlsSettings(env: Env, mode: Settings['mode']): Settings['tls'] {
  const tlsMode = oneOf(env, 'TLS_MODE', ['self-signed', 'files', 'proxy'] as const, mode === 'demo' ? 'self-signed' : 'files');
  if (tlsMode !== 'files') {
    if (env.TLS_CERT_FILE || env.TLS_KEY_FILE) throw new SettingsError('TLS_MODE', `must be 'files' when TLS_CERT_FILE or TLS_KEY_FILE is set`);
    return { mode: tlsMode };
  }
  for (const name of ['TLS_CERT_FILE', 'TLS_KEY_FILE'] as const) {
    const file = env[name];
    if (!file) throw new SettingsError(name, `is required when TLS_MODE is 'files'${mode === 'production' ? ' (the default in production mode)' : ''}`);
    if (!existsSync(file)) throw new SettingsError(name, `no such file: ${file}`);
  }
  return { mode: 'files', certFile: resolve(env.TLS_CERT_FILE!), keyFile: resolve(env.TLS_KEY_FILE!) };
}

/** SIGN_IN_HOSTS: comma-separated host patterns; unset (undefined), the deployed brand files' hosts. */
function signInHostsSetting(env: Env): string[] | undefined {
  if (env.SIGN_IN_HOSTS === undefined) return undefined;
  const hosts = env.SIGN_IN_HOSTS.split(',').map((host) => host.trim().toLowerCase()).filter(Boolean);
  const problem = hosts.map(hostPatternProblem).find((text) => text !== undefined);
  if (problem) throw new SettingsError('SIGN_IN_HOSTS', problem);
  return hosts;
}

function identitySettings(env: Env, mode: Settings['mode'], dataDir: string): IdentitySettings {
  const authority = httpsUrl(env, 'OIDC_AUTHORITY');
  const externalOnly = ['OIDC_KNOWN_AUTHORITIES', 'OIDC_SCOPES', 'OIDC_PROTOCOL_MODE', 'OIDC_PASSWORD_RESET_AUTHORITY', 'OIDC_METADATA_URL'];
  if (!authority) {
    const stray = externalOnly.find((name) => env[name]);
    if (stray) throw new SettingsError(stray, 'only applies with OIDC_AUTHORITY (an external issuer)');
    if (env.OIDC_ISSUER) throw new SettingsError('OIDC_ISSUER', 'only applies with OIDC_AUTHORITY (set OIDC_AUTHORITY, OIDC_CLIENT_ID and OIDC_SCOPES for an external issuer); the built-in provider is its own issuer');
    return {
      kind: 'builtin',
      clientId: env.OIDC_CLIENT_ID || 'pos-portal-web',
      appHosts: signInHostsSetting(env),
      keysSecret: secret(env, 'IDENTITY_KEY', mode, dataDir, 32),
    };
  }
  if (env.SIGN_IN_HOSTS !== undefined) throw new SettingsError('SIGN_IN_HOSTS', "applies to the built-in provider only: an external issuer keeps the web app's addresses in its own registration");
  const clientId = env.OIDC_CLIENT_ID;
  if (!clientId) throw new SettingsError('OIDC_CLIENT_ID', 'is required with OIDC_AUTHORITY (the web app registration at the issuer)');
  const host = new URL(authority).host;
  const knownAuthorities = (env.OIDC_KNOWN_AUTHORITIES ?? host).split(',').map((h) => h.trim()).filter(Boolean);
  if (knownAuthorities.some((h) => !/^[a-z0-9.-]+(:\d+)?$/i.test(h))) {
    throw new SettingsError('OIDC_KNOWN_AUTHORITIES', 'must be comma-separated host names such as contoso.b2clogin.com');
  }
  if (!knownAuthorities.includes(host)) throw new SettingsError('OIDC_KNOWN_AUTHORITIES', `must include the authority host ${host}`);
  const scopes = (env.OIDC_SCOPES ?? '').split(/[\s,]+/).filter(Boolean);
  if (scopes.length === 0) throw new SettingsError('OIDC_SCOPES', 'is required with OIDC_AUTHORITY: the API read and write scopes as the issuer names them');
  const protocolMode = oneOf(env, 'OIDC_PROTOCOL_MODE', ['AAD', 'OIDC'] as const, 'AAD');
  const metadataUrl = httpsUrl(env, 'OIDC_METADATA_URL')
    ?? (protocolMode === 'AAD' ? `${authority}/v2.0/.well-known/openid-configuration` : `${authority}/.well-known/openid-configuration`);
  return {
    kind: 'external',
    authority,
    clientId,
    knownAuthorities,
    scopes,
    protocolMode,
    passwordResetAuthority: httpsUrl(env, 'OIDC_PASSWORD_RESET_AUTHORITY'),
    metadataUrl,
    providerName: host,
  };
}

export function loadSettings(env: Env = process.env): Settings {
  const mode = oneOf(env, 'APP_MODE', ['demo', 'production'] as const, 'demo');
  // Refused before the secrets production asks for: a deployment that plays its lenders is wrong whatever else it has.
  lendersInProcessSetting(env, mode);
  const dataDir = resolve(env.DATA_DIR || './data');
  const apiKeys = (env.API_KEYS ?? (mode === 'demo' ? DEMO_WEB_API_KEY : ''))
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);
  if (apiKeys.length === 0) throw new SettingsError('API_KEYS', 'is required in production mode (comma-separated keys)');
  if (apiKeys.some((k) => k.length < 8)) throw new SettingsError('API_KEYS', 'each key must be at least 8 characters');
  // An office's API keys begin with pk_ (decision 0268): a publishable key so named would be taken for one.
  if (apiKeys.some((k) => k.startsWith('pk_'))) throw new SettingsError('API_KEYS', "may not begin with pk_, which marks an office's API key");
  const webApiKey = env.WEB_API_KEY || apiKeys[0]!;
  if (!apiKeys.includes(webApiKey)) throw new SettingsError('WEB_API_KEY', 'must be one of API_KEYS');
  const port = integer(env, 'PORT', 3000, 1, 65535);
  const databaseUrl = postgresUrl(env);
  return {
    mode,
    host: env.HOST || '127.0.0.1',
    port,
    workers: workers(env, databaseUrl),
    dataDir,
    databaseUrl,
    logLevel: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    piiKey: secret(env, 'PII_KEY', mode, dataDir, 32),
    apiKeys,
    webApiKey,
    bodyLimit: integer(env, 'BODY_LIMIT', 1_048_576, 1024, 104_857_600),
    uploadLimit: integer(env, 'UPLOAD_LIMIT', 10_485_760, 1024, 104_857_600),
    borrowerTokenSecret: secret(env, 'BORROWER_TOKEN_SECRET', mode, dataDir, 32),
    oidcIssuer: optionalUrl(env, 'OIDC_ISSUER'),
    oidcAudience: env.OIDC_AUDIENCE || 'api://pos-portal',
    ...endpoints(env, mode, port, dataDir),
    lenderEnv: Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => /^LENDER_[A-Z0-9_]+$/.test(entry[0]) && typeof entry[1] === 'string')),
    ...journey(env, mode, dataDir),
    studioApprovals: oneOf(env, 'STUDIO_APPROVALS', ['required', 'optional'] as const, mode === 'production' ? 'required' : 'optional'),
    studioApprovers: approversPerPlace(env, mode),
  };
}

/** WORKERS: a number, or 'auto' for one process per core on PostgreSQL. PGlite is one process's database. */
function workers(env: Env, databaseUrl: string | undefined): number {
  if (env.WORKERS === 'auto') return databaseUrl ? availableParallelism() : 1;
  const count = integer(env, 'WORKERS', 1, 1, 64);
  if (count > 1 && !databaseUrl) throw new SettingsError('WORKERS', 'above 1 needs DATABASE_URL: the embedded PGlite database belongs to one process');
  return count;
}

function lendersInProcessSetting(env: Env, mode: Settings['mode']): boolean {
  const inProcess = oneOf(env, 'LENDERS_IN_PROCESS', ['false', 'true'] as const, 'false') === 'true';
  if (inProcess && mode === 'production') throw new SettingsError('LENDERS_IN_PROCESS', 'plays the lenders inside the portal: for tests and demos, never in production');
  return inProcess;
}

/** Lenders, borrower links and message delivery (the borrower journey, docs/decisions/0100-0119). */
function journey(env: Env, mode: Settings['mode'], dataDir: string): Pick<Settings, 'lendersDir' | 'lendersInProcess' | 'lenderTimeoutMs' | 'lenderCallbackSecret' | 'linkTokenTtlHours' | 'notify'> {
  const lendersDir = resolve(env.LENDERS_DIR || join(REPO_ROOT, 'screens', 'lenders'));
  if (!existsSync(lendersDir)) throw new SettingsError('LENDERS_DIR', `no such folder: ${lendersDir}`);
  // Without its own secret, the callback key is derived from the borrower token secret (never the same bytes).
  const lenderCallbackSecret = env.LENDER_CALLBACK_SECRET
    ? secret(env, 'LENDER_CALLBACK_SECRET', mode, dataDir, 32)
    : createHmac('sha256', secret(env, 'BORROWER_TOKEN_SECRET', mode, dataDir, 32)).update('lender-callback-secret/v1').digest();
  return {
    lendersDir,
    lendersInProcess: lendersInProcessSetting(env, mode),
    lenderTimeoutMs: integer(env, 'LENDER_TIMEOUT_MS', 10_000, 50, 120_000),
    lenderCallbackSecret,
    linkTokenTtlHours: integer(env, 'LINK_TOKEN_TTL_HOURS', 72, 1, 720),
    notify: notifySettings(env),
  };
}

function notifySettings(env: Env): NotifySettings {
  let smtp: NotifySettings['smtp'];
  if (env.SMTP_URL) {
    let url: URL;
    try {
      url = new URL(env.SMTP_URL);
    } catch {
      throw new SettingsError('SMTP_URL', 'must be a URL such as smtps://user:pass@smtp.example.com:465');
    }
    if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') throw new SettingsError('SMTP_URL', `must use smtp:// or smtps:// (got '${url.protocol}')`);
    smtp = { url: env.SMTP_URL, from: env.SMTP_FROM || `Patient Financing Portal <no-reply@${url.hostname}>` };
  } else if (env.SMTP_FROM) {
    throw new SettingsError('SMTP_FROM', 'only applies with SMTP_URL');
  }
  const gateway = httpsUrl(env, 'SMS_GATEWAY_URL');
  if (!gateway && (env.SMS_GATEWAY_TOKEN || env.SMS_FROM)) throw new SettingsError(env.SMS_GATEWAY_TOKEN ? 'SMS_GATEWAY_TOKEN' : 'SMS_FROM', 'only applies with SMS_GATEWAY_URL');
  const sms = gateway ? { url: gateway, token: env.SMS_GATEWAY_TOKEN || undefined, from: env.SMS_FROM || undefined } : undefined;
  const smsWebhookSecret = env.SMS_WEBHOOK_SECRET || undefined;
  if (smsWebhookSecret !== undefined && smsWebhookSecret.length < 16) throw new SettingsError('SMS_WEBHOOK_SECRET', 'must be at least 16 characters');
  return { smtp, sms, smsWebhookSecret };
}

function endpoints(env: Env, mode: Settings['mode'], port: number, dataDir: string): Pick<Settings, 'publicUrl' | 'tls' | 'identity' | 'companyHomeUrl' | 'assetOrigin'> {
  const tls = tlsSettings(env, mode);
  if (tls.mode === 'proxy' && !env.PUBLIC_URL) throw new SettingsError('PUBLIC_URL', `is required when TLS_MODE is 'proxy' (the https address the proxy serves)`);
  const publicUrl = httpsOrigin(env, 'PUBLIC_URL', `https://localhost:${port}`);
  const identity = identitySettings(env, mode, dataDir);
  const companyHomeUrl = optionalUrl(env, 'COMPANY_HOME_URL') ?? `${publicUrl}/`;
  const assetOrigin = env.ASSET_HOST ? httpsOrigin(env, 'ASSET_HOST', '') : undefined;
  return { publicUrl, tls, identity, companyHomeUrl, assetOrigin };
}
