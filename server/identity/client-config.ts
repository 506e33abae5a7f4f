/**
 * The web app's sign-in configuration (Auth_GetClientConfig, /auth-config.json): what MSAL needs, from the server's
 * settings alone, so that switching between the built-in provider and Entra External ID / Azure AD B2C is
 * configuration only (decisions 0064, 0068).
 */
import type { components } from '../../codegen/generated/api.ts';
import type { Handlers } from '../http/handler-types.ts';
import type { Settings } from '../config.ts';
import { API_SCOPES, appOrigins, issuerOf } from './provider.ts';
import { HAND_OVER_PATH } from './paths.ts';

export type ClientAuthConfig = components['schemas']['ClientAuthConfig'];

export function clientAuthConfig(settings: Settings): ClientAuthConfig {
  const { identity } = settings;
  if (identity.kind === 'external') {
    return {
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
  }
  const issuer = issuerOf(settings);
  return {
    kind: 'builtin',
    clientId: identity.clientId,
    authority: issuer,
    // The issuer's host and every host the app answers on: MSAL checks the authority against them.
    knownAuthorities: [...new Set([new URL(issuer).host, ...appOrigins(settings.publicUrl).map((origin) => new URL(origin).host)])],
    protocolMode: 'OIDC',
    scopes: [...API_SCOPES],
    passwordResetAuthority: null,
    companyHomeUrl: settings.companyHomeUrl,
    handOverPath: HAND_OVER_PATH,
  };
}

export const clientConfigHandlers: Pick<Handlers, 'Auth_GetClientConfig'> = {
  async Auth_GetClientConfig({ services }) {
    return { status: 200, body: clientAuthConfig(services.settings) };
  },
};
