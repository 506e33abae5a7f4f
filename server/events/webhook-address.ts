import { lookup as lookupCallback, type LookupAddress, type LookupAllOptions } from 'node:dns';
import { lookup } from 'node:dns/promises';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import type { Settings } from '../config.ts';
import { carriedIpv4 } from '../http/addresses.ts';

/**
 * Where a webhook may be sent (issue 39; decision 0266). An office admin names the address, so the portal must not be
 * made to call into its own network: outside demo mode only https to a public address — never loopback, private,
 * link-local (cloud metadata), carrier-grade NAT or unique-local — checked when the address is saved, again before
 * each delivery, and on the very addresses the delivery's connection then uses (`guardedLookup`): a name that
 * answers a public address to the check and a private one to the connection (DNS rebinding) gets no delivery. In demo
 * mode the address may also be http or https on this machine (the tests' and the demo's receivers).
 */

const INTERNAL = new BlockList();
for (const [network, prefix] of [['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4]] as const) {
  INTERNAL.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8]] as const) {
  INTERNAL.addSubnet(network, prefix, 'ipv6');
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

function internal(address: string): boolean {
  const ipv4 = carriedIpv4(address);
  if (ipv4) return INTERNAL.check(ipv4, 'ipv4');
  return INTERNAL.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
}

/** Why the address cannot receive webhooks, in words for the person who typed it; null when it can. */
export async function webhookAddressProblem(settings: Pick<Settings, 'mode'>, raw: string): Promise<string | null> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'Enter a full web address, starting with https://.';
  }
  if (url.username || url.password) return 'The address may not carry a user name or password: the signature proves the sender.';
  if (settings.mode === 'demo' && LOOPBACK.has(url.hostname) && (url.protocol === 'http:' || url.protocol === 'https:')) return null;
  if (url.protocol !== 'https:') return 'The address must start with https://.';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : (await lookup(host, { all: true })).map((a) => a.address);
  } catch {
    return `The name ${url.hostname} cannot be found.`;
  }
  if (addresses.length === 0 || addresses.some(internal)) return 'The address points into a private network; webhooks go to addresses on the internet only.';
  return null;
}

/**
 * The lookup a delivery's connection makes: the name resolved as it connects, refused when any address it answers is
 * internal (outside demo mode's own machine), so no other resolution than the one checked is used.
 */
export function guardedLookup(settings: Pick<Settings, 'mode'>): LookupFunction {
  return (hostname, options, callback) => {
    lookupCallback(hostname, { ...options, all: true } as LookupAllOptions, (error, addresses: LookupAddress[]) => {
      const answer = callback as (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
      if (error) return answer(error, []);
      const ownMachine = settings.mode === 'demo' && LOOPBACK.has(hostname);
      if (addresses.length === 0 || (!ownMachine && addresses.some((a) => internal(a.address)))) {
        return answer(Object.assign(new Error('the address points into a private network'), { code: 'EPRIVATE' }), []);
      }
      if (options.all) return answer(null, addresses);
      return answer(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}
