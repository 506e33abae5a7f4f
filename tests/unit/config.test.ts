import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSettings, SettingsError } from '../../server/config.ts';
import { approvalsNeeded } from '../../server/domain/studio/reviews.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'pos-config-'));
const base = { DATA_DIR: dataDir };

function failure(env: Record<string, string>): SettingsError {
  try {
    loadSettings({ ...base, ...env });
  } catch (error) {
    if (error instanceof SettingsError) return error;
    throw error;
  }
  throw new Error('settings were accepted');
}

describe('settings from the environment', () => {
  it('has working defaults in demo mode', () => {
    const settings = loadSettings(base);
    expect(settings).toMatchObject({ mode: 'demo', host: '127.0.0.1', port: 3000, databaseUrl: undefined });
    expect(settings.piiKey).toHaveLength(32);
  });

  it('takes an asset host as an https origin, and none by default', () => {
    expect(loadSettings(base).assetOrigin).toBeUndefined();
    expect(loadSettings({ ...base, ASSET_HOST: 'https://assets.example/' }).assetOrigin).toBe('https://assets.example');
  });

  it('speaks to the lenders their files name unless told to play them in process (the API tests)', () => {
    expect(loadSettings(base).lendersInProcess).toBe(false);
    expect(loadSettings({ ...base, LENDERS_IN_PROCESS: 'true' }).lendersInProcess).toBe(true);
  });

  it("takes how many product owners approve a change to each place, and counts a change's by its files (decision 0291)", () => {
    expect(loadSettings(base).studioApprovers).toEqual({});
    const settings = loadSettings({ ...base, STUDIO_APPROVALS: 'required', STUDIO_APPROVERS: 'lenders=2, states=3' });
    expect(settings.studioApprovers).toEqual({ lenders: 2, states: 3 });
    expect(approvalsNeeded(settings, ['pages/home.json'])).toBe(1);
    expect(approvalsNeeded(settings, ['pages/home.json', 'lenders/ally.json'])).toBe(2);
    expect(approvalsNeeded(settings, ['states.json', 'lenders/ally.json'])).toBe(3);
    // Where one owner may publish alone, one approval publishes a review.
    expect(approvalsNeeded({ ...settings, studioApprovals: 'optional' }, ['states.json'])).toBe(1);
    expect(failure({ STUDIO_APPROVERS: 'lender=2' }).message).toMatch(/STUDIO_APPROVERS.*a place of routes, menus, .*lenders.*\(got 'lender=2'\)/);
    expect(failure({ STUDIO_APPROVERS: 'lenders=9' }).message).toMatch(/a count from 1 to 5 \(got 'lenders=9'\)/);
  });

  it('keeps the generated demo secrets across starts', () => {
    expect(loadSettings(base).piiKey.equals(loadSettings(base).piiKey)).toBe(true);
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ APP_MODE: 'staging' }, 'APP_MODE'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ DATABASE_URL: 'mysql://x@y/z' }, 'DATABASE_URL'],
    [{ DATABASE_URL: 'not a url' }, 'DATABASE_URL'],
    [{ PII_KEY: 'c2hvcnQ=' }, 'PII_KEY'],
    [{ OIDC_ISSUER: 'ftp://issuer' }, 'OIDC_ISSUER'],
    [{ API_KEYS: 'short' }, 'API_KEYS'],
    [{ API_KEYS: 'pk_looks-like-an-office-key' }, 'API_KEYS'],
    [{ API_KEYS: 'long-enough-key', WEB_API_KEY: 'another-key-1' }, 'WEB_API_KEY'],
    [{ ASSET_HOST: 'http://assets.example' }, 'ASSET_HOST'],
    [{ ASSET_HOST: 'https://assets.example/images' }, 'ASSET_HOST'],
    [{ ASSET_HOST: 'assets.example' }, 'ASSET_HOST'],
    [{ LENDERS_IN_PROCESS: 'yes' }, 'LENDERS_IN_PROCESS'],
    [{ APP_MODE: 'production', LENDERS_IN_PROCESS: 'true' }, 'LENDERS_IN_PROCESS'],
  ])('refuses %o and names %s', (env, variable) => {
    const error = failure(env);
    expect(error.variable).toBe(variable);
    expect(error.message).toContain(variable);
  });

  it('requires real secrets in production mode', () => {
    expect(failure({ APP_MODE: 'production', API_KEYS: 'prod-key-123456' }).variable).toBe('PII_KEY');
  });
});
