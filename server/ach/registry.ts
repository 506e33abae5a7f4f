import type { AchProvider } from './types.ts';
import { sandboxAchProvider } from './sandbox.ts';

/** The provider new verifications use; a real one will be chosen here by configuration (decision 0152). */
export const DEFAULT_ACH_PROVIDER = 'sandbox';

/** The provider of this name, or undefined when this deployment has none by that name. */
export function achProvider(name: string, piiKey: Buffer): AchProvider | undefined {
  return name === 'sandbox' ? sandboxAchProvider(piiKey) : undefined;
}
