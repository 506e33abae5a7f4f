import { isIP } from 'node:net';

/** An IPv4 address written as IPv6 (::ffff:10.0.0.1, which URLs write ::ffff:a00:1) is the IPv4 address it carries. */
export function carriedIpv4(address: string): string | undefined {
  const dotted = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (dotted) return dotted;
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!hex) return undefined;
  const [high, low] = [Number.parseInt(hex[1]!, 16), Number.parseInt(hex[2]!, 16)];
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** The address that limits count requests by and security events keep: made only by `networkOf`. */
export type ClientNetwork = string & { readonly clientNetwork: unique symbol };

/**
 * An IPv4 address as it is (also when written as IPv6, ::ffff:192.0.2.1); an IPv6 address as its /64 network, written
 * `2001:db8:1:2::/64` (decision 0308). One subscriber holds a whole /64 — a phone on a mobile network, a home router —
 * and picks any address in it at will, so a limit per IPv6 address limits nobody.
 */
export function networkOf(ip: string): ClientNetwork {
  const address = ip.replace(/%.*$/, '');
  if (isIP(address) !== 6) return ip as ClientNetwork;
  const ipv4 = carriedIpv4(address);
  if (ipv4) return ipv4 as ClientNetwork;
  const [head = '', tail] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  // A dotted IPv4 ending holds two groups.
  const rightGroups = right.length + (right.at(-1)?.includes('.') ? 1 : 0);
  const groups = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - rightGroups).fill('0'), ...right];
  return `${groups.slice(0, 4).map((group) => parseInt(group, 16).toString(16)).join(':')}::/64` as ClientNetwork;
}
