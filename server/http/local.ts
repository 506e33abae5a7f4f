import type { FastifyRequest } from 'fastify';

/** 127.0.0.0/8 and ::1, also as IPv4-mapped IPv6 (::ffff:127.0.0.1). */
const LOOPBACK = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3})$/i;

/** The addresses a forwarding proxy names: every hop of X-Forwarded-For and each `for=` of Forwarded (RFC 7239). */
function forwardedFor(request: FastifyRequest): string[] {
  const header = (name: string) => [request.headers[name]].flat().filter((value): value is string => typeof value === 'string');
  const hops = header('x-forwarded-for').flatMap((value) => value.split(','));
  const forwarded = header('forwarded').flatMap((value) => [...value.matchAll(/for=("?)\[?([^\]";,]+)\]?\1/gi)].map((match) => match[2]!));
  return [...hops, ...forwarded].map((address) => address.trim()).filter(Boolean);
}

/**
 * Did the request come from this machine? The connection's own peer must be loopback and no proxy may name another
 * client: behind a local proxy (TLS_MODE=proxy) every request arrives over loopback, and a client elsewhere is named
 * in the forwarding headers the proxy adds, whatever it sent itself.
 */
export function fromThisMachine(request: FastifyRequest): boolean {
  const peer = request.raw.socket?.remoteAddress ?? '';
  return LOOPBACK.test(peer) && forwardedFor(request).every((address) => LOOPBACK.test(address));
}
