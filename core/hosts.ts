/**
 * The rule every host name pattern follows: a brand's hosts (screens/brands/) and the hosts staff sign-in trusts
 * (SIGN_IN_HOSTS). A pattern names one registrable domain or a name under it, so that no pattern can reach every site
 * of a public suffix ('*.com', '*.co.uk', '*.github.io'); the public suffix list comes from tldts. Node only: the
 * browser matches patterns (core/brand.ts) but never judges them.
 */
import { getDomain } from 'tldts';
import { quoted } from './descriptors/errors.ts';

/** Names of this machine: a demo and the tests run on them, and no one else can own them. */
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);
const LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;
const IPV4 = /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/;

/** What is wrong with a host name pattern, in words a product owner or an operator understands; undefined when it is good. */
export function hostPatternProblem(pattern: string): string | undefined {
  if (LOOPBACK.has(pattern) || IPV4.test(pattern)) return undefined;
  const name = pattern.startsWith('*.') ? pattern.slice(2) : pattern;
  if (name.length > 253 || !name.split('.').every((label) => LABEL.test(label))) {
    return `${quoted(pattern)} is not a host name: lower-case letters, digits and hyphens between dots, with '*' only as a whole first label, as in '*.example.com'.`;
  }
  if (getDomain(name, { allowPrivateDomains: true }) === null) {
    return `${quoted(pattern)} would cover the sites of many owners: name your own domain, as in 'portal.example.com' or '*.example.com'.`;
  }
  return undefined;
}
