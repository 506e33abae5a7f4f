import type { Settings } from '../../config.ts';
import { DEMO_LENDER_SERVICE } from '../../../core/lenders/demo-service.ts';
import type { LenderEndpoint } from './client.ts';

/**
 * Where an HTTP lender is and the secrets its authentication needs, from the server's configuration (never the
 * lender file): LENDER_<CODE>_URL, _CLIENT_ID, _CLIENT_SECRET, _API_KEY, _SIGNING_SECRET. In demo mode a lender
 * without an address is the lender service beside the portal, with its demo secrets; in production it has none, and
 * every call to it is that lender being unavailable (logged), never a guess. The `test` environment
 * (LENDER_<CODE>_TEST_URL, _TEST_CLIENT_ID, …) is where the studio's 'Try it' sends a drafted file's calls: never with
 * the production address and secrets.
 */
export function lenderEndpointOf(settings: Pick<Settings, 'mode' | 'lenderEnv'>, code: string, environment: 'live' | 'test' = 'live'): LenderEndpoint | undefined {
  const prefix = `LENDER_${code.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_${environment === 'test' ? 'TEST_' : ''}`;
  const name = (suffix: string) => settings.lenderEnv[`${prefix}${suffix}`];
  const demo = settings.mode === 'demo';
  const baseUrl = name('URL') ?? (demo ? demoServiceUrl(settings) : undefined);
  if (!baseUrl) return undefined;
  const secret = (suffix: string, fallback: string | undefined) => name(suffix) ?? (demo ? fallback : undefined);
  const endpoint: LenderEndpoint = { baseUrl };
  const clientId = secret('CLIENT_ID', code);
  const clientSecret = secret('CLIENT_SECRET', DEMO_LENDER_SERVICE.clientSecret);
  const apiKey = secret('API_KEY', DEMO_LENDER_SERVICE.apiKey);
  const signingSecret = secret('SIGNING_SECRET', undefined);
  return { ...endpoint, ...(clientId ? { clientId } : {}), ...(clientSecret ? { clientSecret } : {}), ...(apiKey ? { apiKey } : {}), ...(signingSecret ? { signingSecret } : {}) };
}

/** The lender service of demo mode, on this machine (decision 0259). */
export const demoServiceUrl = (settings: Pick<Settings, 'lenderEnv'>): string => `http://127.0.0.1:${settings.lenderEnv.LENDER_SERVICE_PORT ?? DEMO_LENDER_SERVICE.port}`;
