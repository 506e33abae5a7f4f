import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSettings, SettingsError } from '../../server/config.ts';
import { signInHosts } from '../../server/identity/provider.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'pos-identity-settings-'));
const base = { DATA_DIR: dataDir };
const external = { OIDC_AUTHORITY: 'https://contoso.b2clogin.com/contoso.onmicrosoft.com/B2C_1_signupsignin', OIDC_CLIENT_ID: '11111111-2222-3333-4444-555555555555', OIDC_SCOPES: 'https://contoso.onmicrosoft.com/pos-api/api.read https://contoso.onmicrosoft.com/pos-api/api.write' };

function failure(env: Record<string, string>): SettingsError {
  try {
    loadSettings({ ...base, ...env });
  } catch (error) {
    if (error instanceof SettingsError) return error;
    throw error;
  }
  throw new Error('settings were accepted');
}

describe('identity and https settings', () => {
  it("trusts for staff sign-in the deployed brands' hosts, or the operator's SIGN_IN_HOSTS, each naming one owner's domain (decision 0248)", () => {
    const hosts = (env: Record<string, string>) => {
      const { identity } = loadSettings({ ...base, ...env });
      return identity.kind === 'builtin' ? identity.appHosts : null;
    };
    expect(hosts({})).toBeUndefined();
    expect(signInHosts({ appHosts: undefined })).toEqual(expect.arrayContaining(['*.carefinancing.example', 'smilefinancing.example', 'localhost']));
    expect(hosts({ SIGN_IN_HOSTS: 'Portal.Example.com, *.clinic.example.co.uk' })).toEqual(['portal.example.com', '*.clinic.example.co.uk']);
    expect(hosts({ SIGN_IN_HOSTS: '' })).toEqual([]);
    for (const wide of ['*.*', '*', '*.com', '*.co.uk', 'a*.example.com', 'x.*.example.com', 'https://portal.example.com']) {
      expect(failure({ SIGN_IN_HOSTS: wide }).variable, wide).toBe('SIGN_IN_HOSTS');
    }
    expect(failure({ ...external, SIGN_IN_HOSTS: 'portal.example.com' }).message).toContain('built-in provider only');
  });

  it('defaults to the built-in provider on https://localhost:PORT with a self-signed certificate in demo mode', () => {
    const settings = loadSettings({ ...base, PORT: '3456' });
    expect(settings.publicUrl).toBe('https://localhost:3456');
    expect(settings.tls).toEqual({ mode: 'self-signed' });
    expect(settings.identity).toMatchObject({ kind: 'builtin', clientId: 'pos-portal-web' });
    expect(settings.identity.kind === 'builtin' && settings.identity.keysSecret).toHaveLength(32);
    expect(settings.companyHomeUrl).toBe('https://localhost:3456/');
  });

  it('switches to an external issuer by configuration, with B2C defaults', () => {
    const settings = loadSettings({ ...base, ...external, OIDC_PASSWORD_RESET_AUTHORITY: 'https://contoso.b2clogin.com/contoso.onmicrosoft.com/B2C_1_reset' });
    expect(settings.identity).toEqual({
      kind: 'external',
      authority: external.OIDC_AUTHORITY,
      clientId: external.OIDC_CLIENT_ID,
      knownAuthorities: ['contoso.b2clogin.com'],
      scopes: external.OIDC_SCOPES.split(' '),
      protocolMode: 'AAD',
      passwordResetAuthority: 'https://contoso.b2clogin.com/contoso.onmicrosoft.com/B2C_1_reset',
      metadataUrl: `${external.OIDC_AUTHORITY}/v2.0/.well-known/openid-configuration`,
      providerName: 'contoso.b2clogin.com',
    });
    const generic = loadSettings({ ...base, ...external, OIDC_PROTOCOL_MODE: 'OIDC' });
    expect(generic.identity.kind === 'external' && generic.identity.metadataUrl).toBe(`${external.OIDC_AUTHORITY}/.well-known/openid-configuration`);
  });

  it.each([
    [{ PUBLIC_URL: 'http://portal.example.com' }, 'PUBLIC_URL'],
    [{ PUBLIC_URL: 'https://portal.example.com/app' }, 'PUBLIC_URL'],
    [{ TLS_MODE: 'none' }, 'TLS_MODE'],
    [{ TLS_MODE: 'files' }, 'TLS_CERT_FILE'],
    [{ TLS_MODE: 'files', TLS_CERT_FILE: '/no/such.crt', TLS_KEY_FILE: '/no/such.key' }, 'TLS_CERT_FILE'],
    [{ TLS_CERT_FILE: '/etc/hostname' }, 'TLS_MODE'],
    [{ TLS_MODE: 'proxy' }, 'PUBLIC_URL'],
    [{ OIDC_ISSUER: 'https://issuer.example.com' }, 'OIDC_ISSUER'],
    [{ OIDC_SCOPES: 'api.read' }, 'OIDC_SCOPES'],
    [{ OIDC_AUTHORITY: 'http://login.example.com/tenant' }, 'OIDC_AUTHORITY'],
    [{ OIDC_AUTHORITY: external.OIDC_AUTHORITY }, 'OIDC_CLIENT_ID'],
    [{ OIDC_AUTHORITY: external.OIDC_AUTHORITY, OIDC_CLIENT_ID: 'web' }, 'OIDC_SCOPES'],
    [{ ...external, OIDC_PROTOCOL_MODE: 'SAML' }, 'OIDC_PROTOCOL_MODE'],
    [{ ...external, OIDC_KNOWN_AUTHORITIES: 'other.example.com' }, 'OIDC_KNOWN_AUTHORITIES'],
    [{ ...external, OIDC_KNOWN_AUTHORITIES: 'https://contoso.b2clogin.com' }, 'OIDC_KNOWN_AUTHORITIES'],
    [{ COMPANY_HOME_URL: 'javascript:alert(1)' }, 'COMPANY_HOME_URL'],
  ])('refuses %o and names %s', (env, variable) => {
    expect(failure(env as Record<string, string>).variable).toBe(variable);
  });

  it('accepts a loopback http issuer (a stand-in in tests and benchmarks)', () => {
    const settings = loadSettings({ ...base, OIDC_AUTHORITY: 'http://127.0.0.1:4555', OIDC_CLIENT_ID: 'bench', OIDC_SCOPES: 'api.read', OIDC_PROTOCOL_MODE: 'OIDC' });
    expect(settings.identity.kind === 'external' && settings.identity.metadataUrl).toBe('http://127.0.0.1:4555/.well-known/openid-configuration');
  });

  it('takes certificate files, and in production requires them (or a TLS proxy) and the identity key', () => {
    const cert = join(dataDir, 'given.crt');
    const key = join(dataDir, 'given.key');
    writeFileSync(cert, 'cert');
    writeFileSync(key, 'key');
    expect(loadSettings({ ...base, TLS_MODE: 'files', TLS_CERT_FILE: cert, TLS_KEY_FILE: key }).tls).toEqual({ mode: 'files', certFile: cert, keyFile: key });
    const production = { APP_MODE: 'production', API_KEYS: 'prod-key-123456', PII_KEY: Buffer.alloc(32, 1).toString('base64'), BORROWER_TOKEN_SECRET: Buffer.alloc(32, 2).toString('base64') };
    expect(failure(production).variable).toBe('TLS_CERT_FILE');
    expect(failure({ ...production, TLS_MODE: 'proxy', PUBLIC_URL: 'https://portal.example.com' }).variable).toBe('IDENTITY_KEY');
    const ok = loadSettings({ ...base, ...production, TLS_MODE: 'proxy', PUBLIC_URL: 'https://portal.example.com', IDENTITY_KEY: Buffer.alloc(32, 3).toString('base64') });
    expect(ok).toMatchObject({ mode: 'production', publicUrl: 'https://portal.example.com', tls: { mode: 'proxy' } });
    // With an external issuer production needs no identity key of its own.
    expect(loadSettings({ ...base, ...production, ...external, TLS_MODE: 'proxy', PUBLIC_URL: 'https://portal.example.com' }).identity.kind).toBe('external');
  });
});
