import { describe, expect, it, vi } from 'vitest';
import { createProgress, HIDE_DELAY_MS, THROTTLE_MS } from '../../src/app/ui/progress.ts';
import { isChunkError, RELOAD_GUARD_MS, reloadOnce } from '../../src/app/chunk-reload.ts';
import { brandContext, brandName, brandWording, chooseBrand, hostMatches } from '../../core/brand.ts';
import { lazyAuthPort, needsAuthAtStart } from '../../src/app/lazy-auth.ts';
import type { AuthPort } from '../../src/app/auth-port.ts';
import { signedOutAuthPort } from '../../src/app/auth-port.ts';
import { contentSecurityPolicy } from '../../server/http/security-headers.ts';
import { signInOrigins } from '../../server/http/web-app.ts';
import { appOriginAllowed } from '../../server/identity/provider.ts';
import { checkDescriptors, listDescriptorFiles } from '../../core/descriptors/screens.ts';
import type { DescriptorFile } from '../../core/descriptors/set.ts';
import { readDescriptor } from '../../core/descriptors/read.ts';
import type { BrandDescriptor } from '../../codegen/generated/descriptors.ts';
import { attach, toasts } from '../../src/app/ui/toasts.ts';

function fakeTimers() {
  let now = 0;
  const timers = new Map<number, { at: number; fn: () => void }>();
  let next = 1;
  return {
    setTimeout: (fn: () => void, ms: number) => {
      timers.set(next, { at: now + ms, fn });
      return next++;
    },
    clearTimeout: (h: unknown) => void timers.delete(h as number),
    advance(ms: number) {
      now += ms;
      for (const [id, t] of [...timers.entries()].sort((a, b) => a[1].at - b[1].at)) {
        if (t.at <= now) {
          timers.delete(id);
          t.fn();
        }
      }
    },
  };
}

describe('the progress overlay (spec §9)', () => {
  it('appears only after 200 ms of work and hides 500 ms after the last call', () => {
    const timers = fakeTimers();
    const progress = createProgress(timers);
    progress.start('read');
    timers.advance(THROTTLE_MS - 1);
    expect(progress.get().visible).toBe(false);
    timers.advance(1);
    expect(progress.get()).toEqual({ visible: true, overlay: false });
    progress.start('write');
    expect(progress.get().overlay).toBe(true);
    progress.end('read');
    progress.end('write');
    timers.advance(HIDE_DELAY_MS - 1);
    expect(progress.get().visible).toBe(true);
    timers.advance(1);
    expect(progress.get().visible).toBe(false);
  });

  it('never shows for quick calls, and a new call inside the hide delay keeps it up', () => {
    const timers = fakeTimers();
    const progress = createProgress(timers);
    progress.start('read');
    timers.advance(150);
    progress.end('read');
    timers.advance(1000);
    expect(progress.get().visible).toBe(false);
    progress.start('read');
    timers.advance(THROTTLE_MS);
    progress.end('read');
    timers.advance(300);
    progress.start('read');
    timers.advance(HIDE_DELAY_MS);
    expect(progress.get().visible).toBe(true);
    progress.hide();
    expect(progress.get().visible).toBe(false);
  });
});

describe('the failed-chunk reload (spec §8)', () => {
  it('reloads at most once per 60 s', () => {
    const store = new Map<string, string>();
    const storage = { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => void store.set(k, v) };
    const reload = vi.fn();
    expect(reloadOnce(storage, 1_000_000, reload)).toBe(true);
    expect(reloadOnce(storage, 1_000_000 + RELOAD_GUARD_MS - 1, reload)).toBe(false);
    expect(reloadOnce(storage, 1_000_000 + RELOAD_GUARD_MS, reload)).toBe(true);
    expect(reload).toHaveBeenCalledTimes(2);
    expect(isChunkError(new TypeError('Failed to fetch dynamically imported module: https://x/a.js'))).toBe(true);
    expect(isChunkError(new Error('boom'))).toBe(false);
  });
});

describe('brands (spec §1, §9)', () => {
  const brands = listDescriptorFiles()
    .filter((f) => f.kind === 'brand')
    .map((f) => readDescriptor<BrandDescriptor>('brand', f.file, f.text));

  it('are on the spec palette', () => {
    for (const b of brands) expect(b.palette).toEqual({ primary: '#286df6', success: '#1ace48', error: '#ea3a18', purple: '#643ec2' });
  });

  it('are chosen by host name, ?brand= for local use, else the default', () => {
    const byHost = (host: string) => chooseBrand(brands, host, null).id;
    const other = brands.find((b) => !b.default)!;
    const host = other.hosts[0]!.replace('*', 'office1');
    expect(byHost(host)).toBe(other.id);
    expect(byHost('unknown.example')).toBe(brands.find((b) => b.default)!.id);
    expect(chooseBrand(brands, 'unknown.example', other.id).id).toBe(other.id);
    expect(hostMatches('*.a.example', 'x.a.example')).toBe(true);
    expect(hostMatches('*.a.example', 'x.y.a.example')).toBe(false);
  });

  it('give the chosen name and the wording, in any words, to texts', () => {
    const b = brands[0]!;
    expect(brandName(b, {})).toBe(b.names.primary);
    expect(brandName(b, { altName: '1' })).toBe(b.names.alternate);
    const procedure: BrandDescriptor = { ...b, wording: { service: 'Procedure', plan: 'Care plan' }, translations: { es: { service: 'Procedimiento' } } };
    const english = { locale: 'en', tag: 'en-US', texts: {} };
    const spanish = { locale: 'es', tag: 'es-US', texts: { 'Care plan': 'Plan de atención', Procedure: 'Operación' } };
    expect(brandContext(procedure, 'Name', english)).toMatchObject({ name: 'Name', wording: { service: 'Procedure', serviceLower: 'procedure', plan: 'Care plan', planLower: 'care plan' } });
    // The brand's own translation wins over the language file's; a word it does not translate is the file's.
    expect(brandWording(procedure, spanish)).toEqual({ service: 'Procedimiento', serviceLower: 'procedimiento', plan: 'Plan de atención', planLower: 'plan de atención' });
  });
});

describe('a third brand is one JSON file, in its own words (decision 0226)', () => {
  const files = listDescriptorFiles();
  const smileFile = files.find((f) => f.relative === 'brands/smile.json')!;
  const smile = readDescriptor<BrandDescriptor>('brand', smileFile.file, smileFile.text);
  const withBrand = (doc: Record<string, unknown>): DescriptorFile[] => [...files, { file: 'screens/brands/bright.json', relative: 'brands/bright.json', kind: 'brand', text: JSON.stringify(doc) }];
  const bright = { ...smile, id: 'bright', default: undefined, hosts: ['bright.example'], names: { primary: 'Bright Care', alternate: 'Bright Care Credit' }, wording: { service: 'Procedure' }, translations: { es: { service: 'Procedimiento' } } };

  it('passes the checks with any wording and its own translation', async () => {
    expect((await checkDescriptors(withBrand(bright))).errors).toEqual([]);
  });

  it('is refused with a word that is only spaces, a key the Lower form would hide, or a translation of nothing into no language', async () => {
    const { errors } = await checkDescriptors(withBrand({ ...bright, wording: { service: ' ', serviceLower: 'x' }, translations: { fr: { service: 'Acte' }, es: { plan: 'Plan' } } }));
    expect(errors).toEqual(['screens/brands/bright.json#/wording/serviceLower: is not an allowed name here', 'screens/brands/bright.json#/wording/service: must have a character other than spaces']);
    const cross = (await checkDescriptors(withBrand({ ...bright, translations: { fr: { service: 'Acte' }, es: { plan: 'Plan' } } }))).errors;
    expect(cross).toEqual(["screens/brands/bright.json#/translations/fr: no language 'fr' in screens/languages/", "screens/brands/bright.json#/translations/es/plan: no word 'plan' in #/wording"]);
  });
});

describe('sign-in is loaded when it matters (decision 0044)', () => {
  it('at start only for a provider answer or a signed-in session', () => {
    expect(needsAuthAtStart('', false)).toBe(false);
    expect(needsAuthAtStart('?code=x&state=y', false)).toBe(true);
    expect(needsAuthAtStart('?state=y', false)).toBe(true);
    expect(needsAuthAtStart('', true)).toBe(true);
  });

  it('answers for signed-out visitors without loading, and delegates once loaded', async () => {
    const real: AuthPort = { ...signedOutAuthPort, acquireToken: async () => 'token', handleRedirect: async () => '/home' };
    const load = vi.fn(async () => real);
    let signedIn = false;
    const port = lazyAuthPort({ load, signedIn: () => signedIn });
    expect(await port.acquireToken()).toBeNull();
    expect(await port.handleRedirect()).toBeNull();
    expect(load).not.toHaveBeenCalled();
    signedIn = true;
    expect(await port.acquireToken()).toBe('token');
    expect(await port.handleRedirect()).toBe('/home');
    expect(load).toHaveBeenCalledTimes(1);
  });
});

describe('the web page headers and configuration', () => {
  it('has a CSP without unsafe-eval, with the issuer for sign-in', () => {
    const csp = contentSecurityPolicy(signInOrigins({ kind: 'external', authority: 'https://login.example/tenant/v2.0', knownAuthorities: ['login.example'], passwordResetAuthority: undefined, metadataUrl: 'https://login.example/tenant/v2.0/.well-known/openid-configuration' }, 'https://portal.example'));
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self' https://login.example;");
  });

  it("lets a page on a brand's own host sign in at the built-in provider on PUBLIC_URL (decision 0180)", () => {
    const csp = contentSecurityPolicy(signInOrigins({ kind: 'builtin' }, 'https://localhost:3000'));
    expect(csp).toContain("connect-src 'self' https://localhost:3000;");
    expect(csp).toContain("form-action 'self' https://localhost:3000;");
    const allowed = appOriginAllowed('https://localhost:3000', ['*.carefinancing.example', 'carefinancing.example']);
    expect(['https://localhost:3000', 'https://127.0.0.1:3000', 'https://carefinancing.example:3000', 'https://www.carefinancing.example:3000'].filter(allowed)).toHaveLength(4);
    expect(['https://carefinancing.example', 'http://carefinancing.example:3000', 'https://a.b.carefinancing.example:3000', 'https://evil.example:3000', 'https://carefinancing.example.evil:3000'].filter(allowed)).toEqual([]);
  });

  it("loads images only from the portal's own files and data: URLs, and from the asset host when one is set (decision 0250)", () => {
    const images = (csp: string) => csp.split('; ').find((directive) => directive.startsWith('img-src '));
    expect(images(contentSecurityPolicy(signInOrigins({ kind: 'builtin' }, 'https://localhost:3000')))).toBe("img-src 'self' data:");
    expect(images(contentSecurityPolicy(signInOrigins({ kind: 'builtin' }, 'https://localhost:3000'), 'https://assets.smilefinancing.example'))).toBe("img-src 'self' data: https://assets.smilefinancing.example");
  });
});

describe('toasts', () => {
  it('replace the toast of their kind on screen rather than pile up, also those raised before the toaster loaded (issue 37)', () => {
    const onScreen = new Map<string, string>();
    let next = 0;
    toasts.success('Invitation accepted.');
    toasts.success('Welcome to Bright Smiles Dental.');
    const detach = attach({
      show: (t) => {
        const id = `t${next++}`;
        onScreen.set(id, `${t.type}: ${t.title}`);
        return id;
      },
      dismiss: (id) => void onScreen.delete(id),
    });
    expect([...onScreen.values()]).toEqual(['success: Welcome to Bright Smiles Dental.']);
    toasts.error(new Error('The office could not be saved.'));
    toasts.success('Saved.');
    expect([...onScreen.values()]).toEqual([expect.stringMatching(/^error: /), 'success: Saved.']);
    detach();
  });
});
