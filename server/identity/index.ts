import type { FastifyInstance } from 'fastify';
import type Provider from 'oidc-provider';
import type { Settings } from '../config.ts';
import type { Database } from '../db/index.ts';
import type { TokenVerifiers } from '../http/access.ts';
import { PiiDecryptionError } from '../crypto/pii.ts';
import { purgeExpired } from './adapter.ts';
import { externalUserResolver } from './external.ts';
import { loadProviderKeys, publicJwks } from './keys.ts';
import { createProvider, issuerOf } from './provider.ts';
import { identityRoutes } from './routes.ts';
import { clientAuthConfig, type ClientAuthConfig } from './client-config.ts';
import { builtInStaffTokens, createTokenVerifiers, discoveredStaffTokens } from './tokens.ts';

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
    const client = clientAuthConfig(settings);
    const staff = discoveredStaffTokens(settings, identity.metadataUrl, externalUserResolver(database.db, identity.providerName));
    return {
      verifiers: createTokenVerifiers(settings, staff),
      client,
      provider: undefined,
      register: async () => undefined,
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
  const client = clientAuthConfig(settings);
  const verifiers = createTokenVerifiers(settings, builtInStaffTokens(issuer, settings.oidcAudience, publicJwks(keys)));
  const purge = setInterval(() => void purgeExpired(database.db).catch(() => undefined), PURGE_EVERY_MS);
  purge.unref();
  return {
    verifiers,
    client,
    provider,
    register: async (app) => {
      await identityRoutes(app, { provider, settings, db: database.db, audience: settings.oidcAudience, staffToken: verifiers.staff });
    },
    close: () => clearInterval(purge),
  };
}
