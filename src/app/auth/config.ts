/**
 * What MSAL needs, read at start from the server (Auth_GetClientConfig, server/identity/client-config.ts), so that
 * switching between the built-in provider and Entra External ID / Azure AD B2C is configuration only.
 * Pure: no MSAL import at run time, unit-tested (tests/unit/auth-client.test.ts).
 */
import type { Configuration } from '@azure/msal-browser';
import type { components } from '../../../codegen/generated/api.ts';
import { operationIndex } from '../../../codegen/generated/operation-index.ts';

/** The contract's Auth_GetClientConfig answer. */
export type AuthConfig = components['schemas']['ClientAuthConfig'];

/** Where the server serves it. */
export const AUTH_CONFIG_PATH = operationIndex.Auth_GetClientConfig.path;

/** OpenID scopes MSAL adds to every sign-in; offline_access brings the refresh token renewal uses. */
export const OPENID_SCOPES = ['openid', 'profile', 'email', 'offline_access'];

export function parseAuthConfig(value: unknown): AuthConfig {
  const v = value as Partial<AuthConfig> | null;
  const strings = (list: unknown) => Array.isArray(list) && list.every((x) => typeof x === 'string');
  if (
    !v ||
    (v.kind !== 'builtin' && v.kind !== 'external') ||
    typeof v.clientId !== 'string' ||
    typeof v.authority !== 'string' ||
    !v.authority.startsWith('https://') ||
    !strings(v.knownAuthorities) ||
    (v.protocolMode !== 'AAD' && v.protocolMode !== 'OIDC') ||
    !strings(v.scopes) ||
    typeof v.companyHomeUrl !== 'string'
  ) {
    throw new Error(`The sign-in configuration from ${AUTH_CONFIG_PATH} is not valid.`);
  }
  return {
    kind: v.kind,
    clientId: v.clientId,
    authority: v.authority,
    knownAuthorities: v.knownAuthorities!,
    protocolMode: v.protocolMode,
    scopes: v.scopes!,
    passwordResetAuthority: typeof v.passwordResetAuthority === 'string' ? v.passwordResetAuthority : null,
    companyHomeUrl: v.companyHomeUrl!,
    // A path on this host only: '//host/…' would carry the staff token elsewhere.
    handOverPath: typeof v.handOverPath === 'string' && /^\/(?![/\\])/.test(v.handOverPath) ? v.handOverPath : null,
  };
}

/**
 * The MSAL configuration (STACK-NOTES "MSAL against the embedded OpenID provider"): https authority equal
 * to the issuer, knownAuthorities so MSAL never asks the Microsoft cloud, ProtocolMode.OIDC for the
 * built-in provider (left out for Entra/B2C), responseMode query (the app routes by hash), the cache in
 * sessionStorage (gone with the tab), redirect and post-logout URIs on the app's origin.
 */
export function msalConfiguration(config: AuthConfig, origin: string): Configuration {
  const oidc = config.protocolMode === 'OIDC';
  return {
    auth: {
      clientId: config.clientId,
      authority: config.authority,
      knownAuthorities: config.knownAuthorities,
      redirectUri: `${origin}/`,
      postLogoutRedirectUri: `${origin}/`,
      OIDCOptions: { responseMode: 'query', defaultScopes: OPENID_SCOPES },
    },
    cache: { cacheLocation: 'sessionStorage' },
    system: oidc ? { protocolMode: 'OIDC' } : {},
  } as Configuration;
}
