import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrandDescriptor } from '../../codegen/generated/descriptors.ts';
import { serverBrand } from '../../server/descriptors/brands.ts';
import { DFI, OFFICE_ADMIN, PLATFORM, PRODUCT_OWNER } from '../support/demo-accounts.ts';
import { harness, type Harness } from '../support/harness.ts';
import { lenderCatalogue } from '../../server/lenders/registry.ts';
import { routePath } from '../../server/domain/journey/routing.ts';
import { applications, offices, users } from '../../server/db/schema.ts';
import { eq } from 'drizzle-orm';

/**
 * The studio's API (issue 18, decision 0228): only a product owner edits; a draft is checked as the build checks
 * screens/; only a set that passes goes live, with no restart, named by its hash on every answer; rollback restores;
 * every publication is in the history. The suite's server is shared: the last test puts the deployed files back.
 */
let h: Harness;
const call: Harness['request'] = (...args) => h.request(...args);

type Files = { hash: string; files: Array<{ path: string; kind: string; doc: Record<string, unknown>; published: boolean }> };
const files = async () => JSON.parse((await call(PRODUCT_OWNER, 'GET', '/api/Studio/GetFiles')).body) as Files;
const docOf = (all: Files, path: string) => structuredClone(all.files.find((f) => f.path === path)!.doc);

beforeAll(async () => {
  h = await harness();
  // Other files of the suite publish too (the contract's examples, the fuzzer): start from the deployed files.
  const reset = await call(PRODUCT_OWNER, 'POST', '/api/Studio/Rollback', { id: 0, note: 'The deployed files, for the studio tests.' });
  expect([200, 409]).toContain(reset.statusCode);
});

afterAll(async () => {
  // The deployed files again, for the other files of the suite.
  const back = await call(PRODUCT_OWNER, 'POST', '/api/Studio/Rollback', { id: 0, note: 'Back to the deployed files after the studio tests.' });
  expect([200, 409]).toContain(back.statusCode);
});

describe('the studio (decision 0228)', () => {
  it('is for product owners only: the API refuses everyone else, as the route does', async () => {
    for (const who of [OFFICE_ADMIN, PLATFORM, DFI]) expect((await call(who, 'GET', '/api/Studio/GetFiles')).statusCode, who).toBe(403);
    expect((await call(undefined, 'GET', '/api/Studio/GetFiles')).statusCode).toBe(401);
    const all = await files();
    expect(all.hash).toBe('');
    expect(all.files.find((f) => f.path === 'brands/smile.json')).toMatchObject({ kind: 'brand', published: false });
    expect(all.files.find((f) => f.path === 'lenders/powerpay.json')).toMatchObject({ kind: 'lender' });
    expect(all.files.find((f) => f.path === 'states.json')).toMatchObject({ kind: 'states' });
    expect(all.files.filter((f) => f.kind === 'fragments').map((f) => f.path)).toEqual(expect.arrayContaining(['fragments/actions.json', 'fragments/fields.json', 'fragments/lenders.json']));
  });

  it('checks a draft as the build does, naming the file and the place', async () => {
    const all = await files();
    const brand = { ...docOf(all, 'brands/smile.json'), wording: { service: ' ' } };
    const check = async (draft: Record<string, unknown>) => (JSON.parse((await call(PRODUCT_OWNER, 'POST', '/api/Studio/CheckDraft', { files: draft })).body) as { errors: string[] }).errors;
    expect(await check({ 'brands/smile.json': brand })).toEqual(['screens/brands/smile.json#/wording/service: must have a character other than spaces']);
    expect(await check({ 'states.json': { ...docOf(all, 'states.json'), defaultMinimumAge: 17 } })).toEqual([expect.stringMatching(/^screens\/states\.json#\/defaultMinimumAge: /)]);
    const page = { ...docOf(all, 'pages/error.json'), buttons: [{ id: 'x', label: 'Go', actions: [{ type: 'navigate', to: { route: 'no-such-route' } }] }] };
    expect((await check({ 'pages/error.json': page })).join()).toMatch(/screens\/pages\/error\.json.*no-such-route/);
    expect(await check({ 'brands/smile.json': { ...brand, wording: { service: 'Procedure' } } })).toEqual([]);
  });

  it("refuses a brand whose logo or links would send every visitor's browser elsewhere, and publishes nothing (decision 0250)", async () => {
    const all = await files();
    const smile = docOf(all, 'brands/smile.json') as unknown as BrandDescriptor;
    const history = async () => (JSON.parse((await call(PRODUCT_OWNER, 'GET', '/api/Studio/GetHistory')).body) as { publications: unknown[] }).publications.length;
    const before = { set: (await call(undefined, 'GET', '/api/health')).headers['x-descriptor-set'], publications: await history() };
    const drafts: Array<[BrandDescriptor, string]> = [
      [{ ...smile, logo: { ...smile.logo, src: 'https://evil.example/x.png' } }, "screens/brands/smile.json#/logo/src: Images come only from the portal's own files (a path such as /logo.svg) or data:image/… URLs."],
      [{ ...smile, footer: { ...smile.footer, termsUrl: 'javascript:alert(1)' } }, 'screens/brands/smile.json#/footer/termsUrl: Links must start with https://, or lead to a page of the portal itself (#/… or /…).'],
    ];
    for (const [brand, problem] of drafts) {
      const refused = await call(PRODUCT_OWNER, 'POST', '/api/Studio/Publish', { files: { 'brands/smile.json': brand }, note: 'A logo and terms from elsewhere' });
      expect(refused.statusCode).toBe(400);
      expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(JSON.parse(refused.body).errors.files).toEqual([problem]);
    }
    expect({ set: (await call(undefined, 'GET', '/api/health')).headers['x-descriptor-set'], publications: await history() }).toEqual(before);
    expect((await files()).files.find((f) => f.path === 'brands/smile.json')).toMatchObject({ published: false, doc: smile });
    expect(serverBrand('localhost').logo).toEqual(smile.logo);
  });

  it('answers a check within its contract however long the names and however many the problems (decision 0249)', async () => {
    const page = docOf(await files(), 'pages/error.json');
    const long = 'x'.repeat(2_100);
    const check = async (doc: Record<string, unknown>) => {
      const answer = await call(PRODUCT_OWNER, 'POST', '/api/Studio/CheckDraft', { files: { 'pages/error.json': doc } });
      expect(answer.statusCode, answer.body.slice(0, 300)).toBe(200);
      const { errors } = JSON.parse(answer.body) as { errors: string[] };
      expect(errors.length).toBeGreaterThan(0);
      expect(errors.length).toBeLessThanOrEqual(500);
      for (const error of errors) expect(error.length).toBeLessThanOrEqual(2_000);
      return errors;
    };
    // A name is quoted shortened; the place, a JSON pointer, keeps its short keys whole.
    expect((await check({ ...page, title: { $use: long } }))[0]).toMatch(/^screens\/pages\/error\.json#\/title: there is no fragment 'x{40,80}…' in screens\/fragments\/$/);
    expect((await check({ ...page, [long]: true })).join()).toMatch(/^screens\/pages\/error\.json#\/x{40,80}…: is not an allowed property/);
    // A place nested deep under long keys is still a long pointer: the message is cut to the answer's length.
    const deep = Array.from({ length: 50 }, (_, i) => `${i}`.padEnd(60, 'k')).reduceRight<unknown>((inner, key) => ({ [key]: inner }), { $use: 'nope' });
    expect((await check({ ...page, title: deep }))[0]).toMatch(/^screens\/pages\/error\.json#\/title\/0k+\/1k+.*…$/);
    const many = await check({ ...page, ...Object.fromEntries(Array.from({ length: 600 }, (_, i) => [`unknown${i}`, true])) });
    expect(many[many.length - 1]).toMatch(/^… and \d+ more problems\.$/);
  });

  it("marks a changed source text's translations as out of date, shows each language's state, and publishes them so only when asked to (issue 37, decision 0255)", async () => {
    const all = await files();
    const smile = { ...docOf(all, 'brands/smile.json'), wording: { service: 'Procedure' } };
    type Coverage = { translated: number; total: number; files: Array<{ file: string; missing: number }> };
    const check = async (draft: Record<string, unknown>) => JSON.parse((await call(PRODUCT_OWNER, 'POST', '/api/Studio/CheckDraft', { files: draft })).body) as { errors: string[]; languages: Array<{ coverage: Coverage }> };
    // How much of the borrower side Spanish covers (issue 41, item 4): all of it as deployed (the unit test of the
    // language files holds it so); the brand's word changed is one text less, in its file.
    const live = (await check({})).languages[0]!.coverage;
    expect(live.total).toBeGreaterThan(250);
    expect(live).toMatchObject({ translated: live.total, files: [] });
    const drafted = (await check({ 'brands/smile.json': smile })).languages[0]!.coverage;
    expect(drafted).toEqual({ translated: live.total - 1, total: live.total, files: [{ file: 'screens/brands/smile.json', missing: 1 }] });
    const procedure = { place: 'screens/brands/smile.json#/wording/service', text: 'Procedure', was: 'Treatment', translation: 'Tratamiento' };
    expect(await check({ 'brands/smile.json': smile })).toMatchObject({ errors: [], languages: [{ locale: 'es', name: 'Español', outOfDate: [{ ...procedure, draft: true }] }] });
    // Nothing out of date: every language says so.
    expect((await check({ 'brands/smile.json': { ...smile, wording: { service: 'Treatment' }, names: { primary: 'SmilePay', alternate: 'SmilePay Patients' } } })).languages).toMatchObject([{ locale: 'es', name: 'Español', outOfDate: [] }]);

    const history = async () => (JSON.parse((await call(PRODUCT_OWNER, 'GET', '/api/Studio/GetHistory')).body) as { publications: unknown[] }).publications.length;
    const before = await history();
    const refused = await call(PRODUCT_OWNER, 'POST', '/api/Studio/Publish', { files: { 'brands/smile.json': smile }, note: 'Procedure' });
    expect(refused.statusCode).toBe(409);
    expect(JSON.parse(refused.body).detail).toContain("Español: 'Procedure' (was 'Treatment', 'Tratamiento')");
    expect(await history()).toBe(before);

    expect((await call(PRODUCT_OWNER, 'POST', '/api/Studio/Publish', { files: { 'brands/smile.json': smile }, note: 'Procedure, Spanish to follow', publishOutOfDate: true })).statusCode).toBe(200);
    // Still out of date once live, though no longer the draft's doing; then translated, up to date.
    expect((await check({ 'brands/smile.json': smile })).languages).toMatchObject([{ locale: 'es', name: 'Español', outOfDate: [{ ...procedure, draft: false }] }]);
    // With no draft at all the studio still shows it: the check of the live set alone.
    expect(await check({})).toMatchObject({ errors: [], notices: [], languages: [{ locale: 'es', name: 'Español', outOfDate: [{ ...procedure, draft: false }] }] });
    // A publication still changes something.
    expect((await call(PRODUCT_OWNER, 'POST', '/api/Studio/Publish', { files: {}, note: 'Nothing' })).statusCode).toBe(400);
    const spanish = docOf(all, 'languages/es.json') as { texts: Record<string, string> };
    const translated = { ...spanish, texts: { ...spanish.texts, Procedure: 'Procedimiento' } };
    expect((await check({ 'languages/es.json': translated })).languages).toMatchObject([{ locale: 'es', name: 'Español', outOfDate: [] }]);
    // A brand's own word for the language translates it too, when it changes with the word.
    expect((await check({ 'brands/smile.json': { ...smile, translations: { es: { service: 'Procedimiento' } } } })).languages).toMatchObject([{ locale: 'es', name: 'Español', outOfDate: [] }]);
    expect((await call(PRODUCT_OWNER, 'POST', '/api/Studio/Rollback', { id: 0, note: 'The deployed words' })).statusCode).toBe(200);
  });

  it('publishes a passing draft live at once, with no restart: every answer names the set, which the browser loads by its hash', async () => {
    const all = await files();
    const smile = { ...(docOf(all, 'brands/smile.json') as unknown as BrandDescriptor), wording: { service: 'Procedure' }, translations: { es: { service: 'Procedimiento' } } };
    const page = { ...docOf(all, 'pages/app-auth-id.json'), title: 'Welcome back' };
    const refused = await call(PRODUCT_OWNER, 'POST', '/api/Studio/Publish', { files: { 'brands/smile.json': { ...smile, palette: { ...smile.palette, primary: '#ffff00' } } }, note: 'Too pale' });
    expect(refused.statusCode).toBe(400);
    expect(JSON.parse(refused.body).errors.files.join()).toMatch(/screens\/brands\/smile\.json#\/palette/);
    expect((await call(PRODUCT_OWNER, 'POST', '/api/Studio/Publish', { files: { 'brands/smile.json': smile }, note: ' ' })).statusCode).toBe(400);

    // The title's Spanish is out of date with it, which the owner chooses to publish so (decision 0255).
    const published = await call(PRODUCT_OWNER, 'POST', '/api/Studio/Publish', { files: { 'brands/smile.json': smile, 'pages/app-auth-id.json': page }, note: 'Procedure, and a warmer title', publishOutOfDate: true });
    expect(published.statusCode).toBe(200);
    const publication = JSON.parse(published.body);
    expect(publication).toMatchObject({ note: 'Procedure, and a warmer title', changed: ['brands/smile.json', 'pages/app-auth-id.json'], restoredFrom: null, publishedBy: `Paula Novak (${PRODUCT_OWNER})` });
    expect(publication.hash).toMatch(/^[0-9a-f]{16}$/);
    // Any answer, to anyone, names the live set.
    const health = await call(undefined, 'GET', '/api/health');
    expect(health.headers['x-descriptor-set']).toBe(publication.hash);
    // The set holds the changed files, expanded (no fragment uses left), and never changes under its name.
    const set = await h.call({ method: 'GET', url: `/api/Descriptors/GetSet/${publication.hash}`, key: false });
    expect(set.statusCode).toBe(200);
    expect(set.headers['cache-control']).toContain('immutable');
    const served = JSON.parse(set.body) as { hash: string; files: Record<string, Record<string, unknown>> };
    expect(Object.keys(served.files).sort()).toEqual(['brands/smile.json', 'pages/app-auth-id.json']);
    expect(served.files['pages/app-auth-id.json']!.title).toBe('Welcome back');
    expect(JSON.stringify(served.files)).not.toContain('$use');
    // The server's own pages take the brand too.
    expect(serverBrand('localhost').name).toBe(smile.names.primary);
    expect((await files()).files.find((f) => f.path === 'brands/smile.json')).toMatchObject({ published: true, doc: smile });
    // The same again changes nothing.
    expect((await call(PRODUCT_OWNER, 'POST', '/api/Studio/Publish', { files: { 'brands/smile.json': smile }, note: 'Again' })).statusCode).toBe(409);
    // Only the product owner publishes.
    expect((await call(PLATFORM, 'POST', '/api/Studio/Publish', { files: { 'brands/smile.json': smile }, note: 'Me too' })).statusCode).toBe(403);
    expect((await h.call({ method: 'GET', url: '/api/Descriptors/GetSet/0000000000000000', key: false })).statusCode).toBe(404);
  });

  it('keeps every publication in its history, and rolls back in one call (an earlier set stays loadable for open tabs)', async () => {
    const history = JSON.parse((await call(PRODUCT_OWNER, 'GET', '/api/Studio/GetHistory')).body) as { publications: Array<{ id: number; hash: string; changed: string[] }> };
    expect(history.publications.length).toBeGreaterThanOrEqual(1);
    const newest = history.publications[0]!;
    const back = await call(PRODUCT_OWNER, 'POST', '/api/Studio/Rollback', { id: 0, note: 'Back to the deployed words' });
    expect(back.statusCode).toBe(200);
    expect(JSON.parse(back.body)).toMatchObject({ hash: '', restoredFrom: 0, changed: newest.changed });
    expect((await call(undefined, 'GET', '/api/health')).headers['x-descriptor-set']).toBe('');
    expect((await files()).files.every((f) => !f.published)).toBe(true);
    expect((await h.call({ method: 'GET', url: `/api/Descriptors/GetSet/${newest.hash}`, key: false })).statusCode).toBe(200);
    // …and forward again to the newest, then back.
    const again = await call(PRODUCT_OWNER, 'POST', '/api/Studio/Rollback', { id: newest.id, note: 'Forward again' });
    expect(JSON.parse(again.body)).toMatchObject({ hash: newest.hash, restoredFrom: newest.id });
    expect((await call(PRODUCT_OWNER, 'POST', '/api/Studio/Rollback', { id: 999_999, note: 'No such' })).statusCode).toBe(404);
    expect((await call(PRODUCT_OWNER, 'POST', '/api/Studio/Rollback', { id: 0, note: 'Done' })).statusCode).toBe(200);
  });

  it("keeps each owner's drafts as typed, JSON or not yet, and tells the other owners which files they are drafting (decision 0274)", async () => {
    const typed = { 'pages/error.json': '{ "title": "Something went', 'brands/smile.json': '{}' };
    const saved = JSON.parse((await call(PRODUCT_OWNER, 'PUT', '/api/Studio/SaveDraft', { files: typed })).body) as { mine: Record<string, string>; savedAtUtc: string | null };
    expect(saved.mine).toEqual(typed);
    expect(saved.savedAtUtc).not.toBeNull();
    // Read back after a reload, as they were.
    expect(JSON.parse((await call(PRODUCT_OWNER, 'GET', '/api/Studio/GetDrafts')).body)).toMatchObject({ mine: typed });
    // Another owner sees whose drafts touch which files, not their text.
    const other = `owner-${Date.now()}@demo.test`;
    await h.database.db.insert(users).values({ email: other, firstName: 'Sam', lastName: 'Second', role: 'admin', userRole: 'product.owner' });
    const seen = JSON.parse((await call(other, 'GET', '/api/Studio/GetDrafts')).body) as { mine: object; others: Array<{ owner: string; files: string[] }> };
    expect(seen.mine).toEqual({});
    expect(seen.others).toEqual([expect.objectContaining({ owner: expect.stringContaining('owner@demo.test'), files: ['brands/smile.json', 'pages/error.json'] })]);
    expect(JSON.stringify(seen)).not.toContain('Something went');
    // No files: no drafts.
    expect(JSON.parse((await call(PRODUCT_OWNER, 'PUT', '/api/Studio/SaveDraft', { files: {} })).body)).toMatchObject({ mine: {}, savedAtUtc: null });
    expect((await call(PLATFORM, 'GET', '/api/Studio/GetDrafts')).statusCode).toBe(403);
  });

  it('undoes one publication: its files go back to what they were before it, a later change of the same file is refused in words', async () => {
    const all = await files();
    const titled = (path: string, title: string) => ({ [path]: { ...docOf(all, path), title } });
    const publish = async (draft: object, note: string) => JSON.parse((await call(PRODUCT_OWNER, 'POST', '/api/Studio/Publish', { files: draft, note })).body) as { id: number };
    const first = await publish(titled('pages/admin-office-bank.json', 'Bank (first)'), 'First');
    const second = await publish(titled('pages/admin-office-profile.json', 'Profile (second)'), 'Second');
    const third = await publish(titled('pages/admin-office-profile.json', 'Profile (third)'), 'Third');
    const titleOf = async (path: string) => (docOf(await files(), path) as { title: string }).title;

    // The second's file was changed again by the third: refused, nothing published.
    const refused = await call(PRODUCT_OWNER, 'POST', '/api/Studio/Revert', { id: second.id, note: 'Not the profile' });
    expect([refused.statusCode, JSON.parse(refused.body).detail]).toEqual([409, `Changed again since: pages/admin-office-profile.json (publication ${third.id}). Undo the later publication first, or edit the file.`]);
    // The first alone is undone: its file as deployed, the others' as they are.
    const undone = await call(PRODUCT_OWNER, 'POST', '/api/Studio/Revert', { id: first.id, note: 'The bank page as before' });
    expect(undone.statusCode, undone.body).toBe(200);
    expect(JSON.parse(undone.body)).toMatchObject({ note: `Undid publication ${first.id}: The bank page as before`, changed: ['pages/admin-office-bank.json'] });
    expect(await titleOf('pages/admin-office-bank.json')).not.toBe('Bank (first)');
    expect(await titleOf('pages/admin-office-profile.json')).toBe('Profile (third)');
    // The third undone: the profile page as the second left it.
    expect((await call(PRODUCT_OWNER, 'POST', '/api/Studio/Revert', { id: third.id, note: 'One step back' })).statusCode).toBe(200);
    expect(await titleOf('pages/admin-office-profile.json')).toBe('Profile (second)');
    expect((await call(PRODUCT_OWNER, 'POST', '/api/Studio/Revert', { id: 999_999, note: 'No such' })).statusCode).toBe(404);
    expect((await call(PLATFORM, 'POST', '/api/Studio/Revert', { id: third.id, note: 'Me too' })).statusCode).toBe(403);
    expect((await call(PRODUCT_OWNER, 'POST', '/api/Studio/Rollback', { id: 0, note: 'Done' })).statusCode).toBe(200);
  });

  it('publishes a lender as data: a new lender file is a lender of the platform at once, checked as the server reads lender files (decision 0231)', async () => {
    const all = await files();
    const powerpay = docOf(all, 'lenders/powerpay.json');
    const acme = { ...powerpay, code: 'acme', name: 'Acme Care Credit' };
    // What the server checks of a lender file beyond its meta-schema holds for a published one too.
    const eligibility = { ...(powerpay.eligibility as Record<string, unknown>), amount: { min: 5_000, max: 1_000 } };
    const refused = await call(PRODUCT_OWNER, 'POST', '/api/Studio/Publish', { files: { 'lenders/acme.json': { ...acme, eligibility } }, note: 'A lender of no amount' });
    expect(refused.statusCode).toBe(400);
    expect(JSON.parse(refused.body).errors.files).toEqual([expect.stringMatching(/^screens\/lenders\/acme\.json: eligibility\.amount\.min is above eligibility\.amount\.max/)]);
    expect(lenderCatalogue(h.settings).get('acme')).toBeUndefined();

    expect((await call(PRODUCT_OWNER, 'POST', '/api/Studio/Publish', { files: { 'lenders/acme.json': acme }, note: 'Acme, a ninth lender' })).statusCode).toBe(200);
    // Offices are offered it, and the waterfall has its adapter: no restart.
    const offered = JSON.parse((await call(OFFICE_ADMIN, 'GET', '/api/Office/CheckNewLenders/101/newLenders')).body) as Array<{ code: string; name: string }>;
    expect(offered).toContainEqual(expect.objectContaining({ code: 'acme', name: 'Acme Care Credit' }));
    expect(lenderCatalogue(h.settings).get('acme')?.descriptor.name).toBe('Acme Care Credit');
    expect(lenderCatalogue(h.settings).codes()).toContain('powerpay');

    // A file the deployment does not have is removed by putting it back as deployed (null, decision 0239).
    expect((await call(PRODUCT_OWNER, 'POST', '/api/Studio/Publish', { files: { 'lenders/acme.json': null }, note: 'No Acme after all' })).statusCode).toBe(200);
    expect(lenderCatalogue(h.settings).get('acme')).toBeUndefined();
    expect((await files()).files.map((f) => f.path)).not.toContain('lenders/acme.json');
    // A deployed file as deployed is nothing to publish.
    expect((await call(PRODUCT_OWNER, 'POST', '/api/Studio/Publish', { files: { 'lenders/powerpay.json': null }, note: 'Nothing' })).statusCode).toBe(409);
    // Its row stays (its history would), but no office is offered it any more.
    const after = JSON.parse((await call(OFFICE_ADMIN, 'GET', '/api/Office/CheckNewLenders/101/newLenders')).body) as Array<{ code: string }>;
    expect(after.map((l) => l.code)).not.toContain('acme');
    expect(after.length).toBe(offered.length - 1);
  });

  it("publishes state rules, route paths and shared parts: the server's own rules follow them at once, and the browser gets every file a shared part changes (decision 0241)", async () => {
    const all = await files();
    const info = async () => JSON.parse((await call(OFFICE_ADMIN, 'POST', '/api/Users/GetUserInfo', {})).body) as { officeId: number; patientOnlyApplication: boolean };
    const { officeId, patientOnlyApplication: before } = await info();
    expect(before).toBe(false);
    const [office] = await h.database.db.select({ state: offices.state }).from(offices).where(eq(offices.id, officeId));
    const states = docOf(all, 'states.json') as { states: Record<string, unknown> };
    const rule = { patientOnlyApplication: true, source: 'A rule published for this test' };
    const routes = docOf(all, 'routes.json') as { routes: Array<{ name?: string; path?: string }> };
    const moved = { ...routes, routes: routes.routes.map((route) => (route.name === 'app-prequal-nomatch' ? { ...route, path: '/app/prequal/no-match' } : route)) };
    type Parts = { fragments: Record<string, { value: Record<string, unknown> }> };
    const actions = structuredClone(docOf(all, 'fragments/actions.json') as Parts);
    const lenderParts = structuredClone(docOf(all, 'fragments/lenders.json') as Parts);
    actions.fragments.cancelButton!.value.label = 'Close';
    lenderParts.fragments.sandboxCounterRule!.value.approvedAmount = 2_000;
    const published = await call(PRODUCT_OWNER, 'POST', '/api/Studio/Publish', {
      files: { 'states.json': { ...states, states: { ...states.states, [office!.state!]: rule } }, 'routes.json': moved, 'fragments/actions.json': actions, 'fragments/lenders.json': lenderParts },
      note: 'Patient-only here, a plainer address, Close and a larger counteroffer',
    });
    expect(published.statusCode, published.body).toBe(200);

    expect((await info()).patientOnlyApplication).toBe(true);
    expect(routePath('app-prequal-nomatch')).toBe('/app/prequal/no-match');
    const counter = lenderCatalogue(h.settings).get('powerpay')!.descriptor.sandbox!.rules.find((r) => r.reasonCode === 'SANDBOX-COUNTER');
    expect(counter?.approvedAmount).toBe(2_000);
    // The browser's set: every file a changed shared part is written out in, with it.
    const set = JSON.parse((await h.call({ method: 'GET', url: `/api/Descriptors/GetSet/${JSON.parse(published.body).hash}`, key: false })).body) as { files: Record<string, unknown> };
    const usingCancel = all.files.filter((f) => f.kind !== 'fragments' && JSON.stringify(f.doc).includes('"cancelButton"')).map((f) => f.path);
    expect(usingCancel.length).toBeGreaterThan(1);
    for (const path of usingCancel) expect(JSON.stringify(set.files[path]), path).toContain('"label":"Close"');
    expect(set.files).toHaveProperty(['lenders/powerpay.json']);
    // A visitor's browser gets the lender's pages, not how the server speaks to it or plays it.
    for (const part of ['sandbox', 'http', 'adapter', 'eligibility']) expect(set.files['lenders/powerpay.json']).not.toHaveProperty([part]);
    expect(Object.keys(set.files).filter((path) => path.startsWith('fragments/'))).toEqual([]);

    expect((await call(PRODUCT_OWNER, 'POST', '/api/Studio/Rollback', { id: 0, note: 'The deployed rules' })).statusCode).toBe(200);
    expect((await info()).patientOnlyApplication).toBe(false);
    expect(routePath('app-prequal-nomatch')).toBe('/app/prequal/nomatch');
    expect(lenderCatalogue(h.settings).get('powerpay')!.descriptor.sandbox!.rules.find((r) => r.reasonCode === 'SANDBOX-COUNTER')?.approvedAmount).toBe(1_500);
  });

  it('publishes a translation as data: the server writes in the published words at once, a link can be sent in a published language, and a language file must be named by its locale (decision 0238)', async () => {
    const all = await files();
    const spanish = docOf(all, 'languages/es.json') as { texts: Record<string, string> };
    const notFound = async () => JSON.parse((await call(undefined, 'GET', '/api/No/Such', undefined, { 'accept-language': 'es' })).body).detail as string;
    expect(await notFound()).toBe('No se encontró esta página');
    const misnamed = await call(PRODUCT_OWNER, 'POST', '/api/Studio/Publish', { files: { 'languages/fr.json': spanish }, note: 'French, misnamed' });
    expect(misnamed.statusCode).toBe(400);
    expect(JSON.parse(misnamed.body).errors.files).toEqual(["screens/languages/fr.json#/locale: must equal the file name 'fr'"]);

    // A language published today is one a link can be sent in at once; one that is not live is refused at its field.
    const send = (language: string) => call(OFFICE_ADMIN, 'POST', '/api/App/SendApp', { officeId: 101, firstName: 'Fleur', lastName: 'Studio', amount: 1200, email: `fleur.${language}@gmail.com`, language });
    const refused = await send('fr');
    expect(refused.statusCode).toBe(400);
    expect(JSON.parse(refused.body).errors).toEqual({ language: ['This field must be one of the allowed values.'] });
    const french = { ...spanish, locale: 'fr', name: 'Français' };
    expect((await call(PRODUCT_OWNER, 'POST', '/api/Studio/Publish', { files: { 'languages/fr.json': french }, note: 'French' })).statusCode).toBe(200);
    const sent = await send('fr');
    expect(sent.statusCode, sent.body).toBe(200);
    const [app] = await h.database.db.select({ language: applications.language }).from(applications).where(eq(applications.id, JSON.parse(sent.body).appId));
    expect(app!.language).toBe('fr');
    expect((await call(PRODUCT_OWNER, 'POST', '/api/Studio/Rollback', { id: 0, note: 'No French yet' })).statusCode).toBe(200);
    expect((await send('fr')).statusCode).toBe(400);

    const texts = { ...spanish.texts, 'This page could not be found': 'Esta página no existe' };
    expect((await call(PRODUCT_OWNER, 'POST', '/api/Studio/Publish', { files: { 'languages/es.json': { ...spanish, texts } }, note: 'Clearer Spanish' })).statusCode).toBe(200);
    expect(await notFound()).toBe('Esta página no existe');
    expect((await call(PRODUCT_OWNER, 'POST', '/api/Studio/Rollback', { id: 0, note: 'The deployed Spanish' })).statusCode).toBe(200);
    expect(await notFound()).toBe('No se encontró esta página');
  });
});
