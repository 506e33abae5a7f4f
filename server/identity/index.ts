import type { FastifyInstance } from 'fastify';
import type Provider from 'oidc-provider';
import type { Settings } from '../config.ts';
import type { Database } from '../db/index.ts';
import type { TokenVerifiers } from '../http/access.ts';
import { PiiDecryptionError } from '../crypto/pii.ts';
import { purgeExpired } from './adapter.ts';
import { externalUserResolver } from './external.ts';
import { loadProviderKeys, publicJwks } from './keys.ts';
import { API_SCOPES, appOrigins, createProvider, issuerOf } from './provider.ts';
import { identityRoutes } from './routes.ts';
import { HAND_OVER_PATH } from './paths.ts';
import { builtInStaffTokens, createTokenVerifiers, discoveredStaffTokens } from './tokens.ts';

/** What the web app needs to configure MSAL; served at /auth-config.json (docs/decisions/0064). */
export interface ClientAuthConfig {
  kind: 'builtin' | 'external';
  clientId: string;
  authority: string;
  knownAuthorities: string[];
  protocolMode: 'AAD' | 'OIDC';
  /** The API scopes to ask tokens for. */
  scopes: string[];
  /** B2C: the password-reset user flow started on AADB2C90118. */
  passwordResetAuthority: string | null;
  /** Where the session timeout sends someone who is neither staff nor a borrower. */
  companyHomeUrl: string;
  /** Where the web app ends the provider's session of a device handed to a patient (decision 0232), on its own host. */
  handOverPath: string | null;
}

export interface Identity {
  verifiers: TokenVerifiers;
  client: ClientAuthConfig;
  /** The built-in provider, when it is the issuer. */
  provider: Provider | undefined;
  register(app: FastifyInstance): Promise<void>;
  close(): void;
}

const PURGE_EVERY_MS = 3_600_000;

export async function createIdentity(settings: Settings, database: Pick<Database, 'db'>): Promise<Identity> {
  const { identity } = settings;
  if (identity.kind === 'external') {
    const client: ClientAuthConfig = {
      kind: 'external',
      clientId: identity.clientId,
      authority: identity.authority,
      knownAuthorities: identity.knownAuthorities,
      protocolMode: identity.protocolMode,
      scopes: identity.scopes,
      passwordResetAuthority: identity.passwordResetAuthority ?? null,
      companyHomeUrl: settings.companyHomeUrl,
      handOverPath: null,
    };
    const staff = discoveredStaffTokens(settings, identity.metadataUrl, externalUserResolver(database.db, identity.providerName));
    return {
      verifiers: createTokenVerifiers(settings, staff),
      client,
      provider: undefined,
      register: async (app) => registerClientConfig(app, client),
      close: () => undefined,
    };
  }

  let keys;
  try {
    keys = await loadProviderKeys(database.db, identity.keysSecret);
  } catch (error) {
    if (error instanceof PiiDecryptionError) {
      throw new Error('IDENTITY_KEY cannot decrypt the identity provider keys stored in the database: set the IDENTITY_KEY they were made with.');
    }
    throw error;
  }
  const issuer = issuerOf(settings);
  const provider = createProvider({ settings: { ...settings, identity }, db: database.db, keys });
  const client: ClientAuthConfig = {
    kind: 'builtin',
    clientId: identity.clientId,
    authority: issuer,
    knownAuthorities: [...new Set([new URL(issuer).host, ...appOrigins(settings.publicUrl).map((origin) => new URL(origin).host)])],
    protocolMode: 'OIDC',
    scopes: [...API_SCOPES],
    passwordResetAuthority: null,
    companyHomeUrl: settings.companyHomeUrl,
    handOverPath: HAND_OVER_PATH,
  };
  const verifiers = createTokenVerifiers(settings, builtInStaffTokens(issuer, settings.oidcAudience, publicJwks(keys)));
  const purge = setInterval(() => void purgeExpired(database.db).catch(() => undefined), PURGE_EVERY_MS);
  purge.unref();
  return {
    verifiers,
    client,
    provider,
    register: async (app) => {
      await registerClientConfig(app, client);
      await identityRoutes(app, { provider, settings, db: database.db, audience: settings.oidcAudience, staffToken: verifiers.staff });
    },
    close: () => clearInterval(purge),
  };
}

async function registerClientConfig(app: FastifyInstance, client: ClientAuthConfig): Promise<void> {
  app.get('/auth-config.json', async (_request, reply) => reply.header('cache-control', 'no-cache').send(client));
}
