/**
 * The brand hosts of screens/brands/ for the e2e run: the crawl visits each brand on a host of its own, and Chromium
 * resolves every host the brand files list to the test server (playwright.config.ts).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');

interface BrandFile {
  id: string;
  hosts: string[];
}

const brandFiles = () =>
  readdirSync(join(ROOT, 'screens', 'brands'))
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(join(ROOT, 'screens', 'brands', f), 'utf8')) as BrandFile);

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** Each brand and the host the crawl reaches it on: its first host pattern, a `*` read as `www`. */
export function brandHosts(): Array<{ id: string; host: string }> {
  return brandFiles().map((b) => ({ id: b.id, host: b.hosts[0]!.replaceAll('*', 'www') }));
}

/** The host of the brand the studio test adds (e2e/studio.spec.ts): no file lists it before the test publishes it. */
export const STUDIO_BRAND_HOST = 'brightcare.test';

/** Chromium's --host-resolver-rules that send every brand host of the brand files, and the studio's, to the test server. */
export function hostResolverRules(): string {
  const hosts = [...brandFiles().flatMap((b) => b.hosts.filter((h) => !LOOPBACK.has(h))), STUDIO_BRAND_HOST];
  return hosts.map((h) => `MAP ${h} 127.0.0.1`).join(',');
}
