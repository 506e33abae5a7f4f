import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';

/** Where a request came from, for the e-sign audit trail. */
export function clientOf(request: FastifyRequest): { ip: string | null; userAgent: string | null } {
  const agent = request.headers['user-agent'];
  return { ip: request.ip ?? null, userAgent: typeof agent === 'string' ? agent.slice(0, 300) : null };
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
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return mapped as ClientNetwork;
  const [head = '', tail] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  // A dotted IPv4 ending holds two groups.
  const rightGroups = right.length + (right.at(-1)?.includes('.') ? 1 : 0);
  const groups = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - rightGroups).fill('0'), ...right];
  return `${groups.slice(0, 4).map((group) => parseInt(group, 16).toString(16)).join(':')}::/64` as ClientNetwork;
}

/** The request's address as limits count it (`networkOf`). */
export const clientNetwork = (request: FastifyRequest): ClientNetwork => networkOf(request.ip);
