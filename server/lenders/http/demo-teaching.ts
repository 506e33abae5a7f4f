import type { Settings } from '../../config.ts';
import type { LenderDescriptor } from '../../../core/lenders/descriptor.ts';
import type { LenderAdapter } from '../types.ts';
import type { LenderEndpoint } from './client.ts';
import { demoServiceUrl } from './endpoint.ts';

/**
 * Demo mode with the lender service started beside the portal (LENDER_SERVICE_BESIDE=true; decision 0264): the service
 * reads only the lender files of its folder, so a lender a product owner publishes in the studio — a new one, or
 * sandbox rules changed — would be unknown to it, or played as it was. Before the first call of each adapter the
 * portal builds for a live set, the service is given the file as the portal has it (PUT /admin/lenders/{code}); a
 * failed attempt is tried again at the next call. A lender with an address of its own (LENDER_<CODE>_URL) is never
 * told anything: it is a lender, not the demo's stand-in.
 */

/** The calls that reach the lender; `reprice` is the portal's own arithmetic. */
const CALLS = ['prequalify', 'select', 'kba', 'checkIdentity', 'esignDocuments', 'status', 'callback', 'finalize', 'fund', 'refund'] as const;

export function teachesDemoService(settings: Pick<Settings, 'mode' | 'lenderEnv'>, endpoint: LenderEndpoint | undefined): boolean {
  return settings.mode === 'demo' && settings.lenderEnv.LENDER_SERVICE_BESIDE === 'true' && endpoint?.baseUrl === demoServiceUrl(settings);
}

async function teach(baseUrl: string, descriptor: LenderDescriptor): Promise<void> {
  const response = await fetch(`${baseUrl}/admin/lenders/${encodeURIComponent(descriptor.code)}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(descriptor),
    signal: AbortSignal.timeout(5_000),
  });
  if (!response.ok) throw new Error(`the demo lender service refused ${descriptor.code}'s file: ${response.status} ${(await response.text()).slice(0, 500)}`);
}

/** The adapter, whose calls wait until the demo's lender service plays this descriptor. */
export function taughtFirst(adapter: LenderAdapter, descriptor: LenderDescriptor, baseUrl: string): LenderAdapter {
  let taught: Promise<void> | undefined;
  const ready = () =>
    (taught ??= teach(baseUrl, descriptor).catch((error: unknown) => {
      taught = undefined;
      throw error;
    }));
  const wrapped: Record<string, unknown> = { ...adapter };
  for (const name of CALLS) {
    const call = adapter[name] as ((...args: never[]) => Promise<unknown>) | undefined;
    if (call) wrapped[name] = async (...args: never[]) => (await ready(), call.apply(adapter, args));
  }
  return wrapped as unknown as LenderAdapter;
}
