import { describe, expect, it } from 'vitest';
import { changesOnly, diffLines, wordsDiffering } from '../../src/app/studio/diff.ts';
import { NEW_FILES, placeIn, setAt, renderVisits, previewVisitors, visitorFor, defaultBrand, draftFiles, firstPublicPath, errorsOf, samplePath, parseDraft, previewSet, resolve, schemaOfFile, shapeChoice, shapeOfValue, toShape, type MetaSchemas, type StudioFile } from '../../src/app/studio/model.ts';
import { metaSchemas } from '../../codegen/ui-generators.ts';
import { checkDescriptors, listDescriptorFiles } from '../../core/descriptors/screens.ts';

const metas: MetaSchemas = Object.fromEntries(metaSchemas().map((m) => [m.file, m.schema]));
const file = (path: string, kind: string, doc: Record<string, unknown>, published = false): StudioFile => ({ path, kind, doc, published, deployed: !published });

const VISITORS = previewVisitors({
  OfficeRole: { admin: 'Administrator', support: 'Support' },
  UserRole: { 'df.admin': 'Platform admin', 'product.owner': 'Product owner' },
});

describe('the studio model (decision 0228)', () => {
  it('diffs lines, and shows only the changes with their context', () => {
    expect(diffLines('a\nb\nc', 'a\nx\nc')).toEqual([
      { kind: 'same', text: 'a' },
      { kind: 'removed', text: 'b' },
      { kind: 'added', text: 'x' },
      { kind: 'same', text: 'c' },
    ]);
    const long = Array.from({ length: 20 }, (_, i) => `line ${i}`);
    const changed = [...long.slice(0, 10), 'new', ...long.slice(10)];
    expect(changesOnly(diffLines(long.join('\n'), changed.join('\n')), 1)).toEqual([
      { kind: 'gap', count: 9 },
      { kind: 'same', text: 'line 9' },
      { kind: 'added', text: 'new' },
      { kind: 'same', text: 'line 10' },
      { kind: 'gap', count: 9 },
    ]);
  });

  it("marks in a review's comparison the words only one page shows, each in its page's order", () => {
    expect(wordsDiffering(['Apply for financing', 'First Name', 'Continue'], ['Apply for care financing', 'First Name', 'Continue', 'New'])).toEqual({
      onlyBefore: ['Apply for financing'],
      onlyAfter: ['Apply for care financing', 'New'],
    });
    expect(wordsDiffering(['A', 'B'], ['B', 'A'])).toEqual({ onlyBefore: [], onlyAfter: [] });
  });

  it("tells a place of the file itself from one its shared parts fill in (Try it's 'Go to')", () => {
    const lender = { code: 'acme', http: { $use: 'lenderServiceOAuth' }, sandbox: { products: [{ code: 'P1' }] } };
    expect(placeIn(lender, '/sandbox/products/0/code')).toBe(true);
    expect(placeIn(lender, '/http')).toBe(true);
    expect(placeIn(lender, '/http/operations/prequalify/answer/status')).toBe(false);
    expect(placeIn(lender, '/sandbox/products/1')).toBe(false);
  });

  it('changes one value of a document by its path, keeping lists as lists (decision 0240)', () => {
    const doc = { routes: [{ path: '/a', title: 'A' }, { path: '/b' }], name: 'x' };
    expect(setAt(doc, ['routes', '1', 'title'], 'B')).toEqual({ routes: [{ path: '/a', title: 'A' }, { path: '/b', title: 'B' }], name: 'x' });
    expect(Array.isArray(setAt(doc, ['routes', '0', 'title'], undefined).routes)).toBe(true);
    expect(setAt(doc, ['routes', '0', 'title'], undefined).routes[0]).toEqual({ path: '/a' });
    expect(setAt(doc, ['routes', '0'], undefined).routes).toEqual([{ path: '/b' }]);
    expect(setAt({}, ['buttons', '0', 'label'], 'Go')).toEqual({ buttons: [{ label: 'Go' }] });
    expect(doc.routes).toHaveLength(2);
  });

  it('keeps a half-typed draft as typed, and sends only the drafts that are documents and differ', () => {
    expect(parseDraft('{"a":')).toMatchObject({ error: expect.stringMatching(/^Not valid JSON yet/) });
    expect(parseDraft('[1]')).toEqual({ error: 'A descriptor file is a JSON object: { … }.' });
    const files = [file('pages/a.json', 'screen', { title: 'A' }), file('pages/b.json', 'screen', { title: 'B' })];
    expect(draftFiles(files, { 'pages/a.json': '{"title":"A"}', 'pages/b.json': '{"title":"Bee"}', 'pages/c.json': '{"title":' })).toEqual({ 'pages/b.json': { title: 'Bee' } });
  });

  it('previews the published files and the drafts, expanded as the engine reads them', () => {
    const files = [
      file('fragments/actions.json', 'fragments', { format: 1, fragments: { cancel: { description: 'x', value: { id: 'cancel', label: 'Cancel' } } } }),
      file('pages/a.json', 'screen', { format: 1, kind: 'dialog', buttons: [{ $use: 'cancel' }] }, true),
      file('pages/b.json', 'screen', { format: 1, kind: 'dialog', text: 'B' }),
    ];
    const set = previewSet(files, { 'pages/b.json': { kind: 'dialog', text: 'Bee' }, 'pages/c.json': { format: 1, kind: 'dialog', buttons: [{ $use: 'nope' }] } });
    expect(set.files).toEqual({
      'pages/a.json': { format: 1, kind: 'dialog', buttons: [{ id: 'cancel', label: 'Cancel' }] },
      'pages/b.json': { format: 1, kind: 'dialog', text: 'Bee' },
    });
    // A draft of the shared parts: every file that uses them shows it (decision 0241).
    const renamed = { format: 1, fragments: { cancel: { description: 'x', value: { id: 'cancel', label: 'Close' } } } };
    const withParts = previewSet([...files, file('pages/d.json', 'screen', { format: 1, kind: 'dialog', buttons: [{ $use: 'cancel' }] })], { 'fragments/actions.json': renamed });
    expect(withParts.files['pages/a.json']).toEqual({ format: 1, kind: 'dialog', buttons: [{ id: 'cancel', label: 'Close' }] });
    expect(withParts.files['pages/d.json']).toEqual({ format: 1, kind: 'dialog', buttons: [{ id: 'cancel', label: 'Close' }] });
    expect(withParts.files).not.toHaveProperty(['fragments/actions.json']);
  });

  it('renders before publishing the routes a draft touches: its pages, the composites holding them, or all when shared parts change', () => {
    expect([samplePath('/app/:id'), samplePath('/landing/:code?'), samplePath('/landing/:code/start'), samplePath('/:state')]).toEqual(['/app/101', '/landing', '/landing/101/start', '/101']);
    const routes = {
      routes: [
        { path: '/error', screen: 'error', access: { anonymous: true } },
        { path: '/app/:id', screen: 'app-id', access: { borrower: true } },
        { path: '/home', screen: 'home', access: {} },
        { $use: 'x' },
        { path: '/', redirect: [] },
      ],
    };
    const files = [
      file('routes.json', 'routes', routes),
      file('pages/app-id.json', 'screen', { kind: 'composite', parts: [{ screen: 'summary' }] }),
      file('pages/summary.json', 'screen', { kind: 'detail' }),
      file('pages/tabs.json', 'screen', { kind: 'composite', parts: { $use: 'someParts' } }),
    ];
    const paths = (drafts: Record<string, Record<string, unknown>>, limit?: number) => renderVisits(files, drafts, VISITORS, limit).map((v) => `${v.path} as ${v.visitor.id}`);
    expect(paths({ 'pages/error.json': { kind: 'detail' } })).toEqual(['/error as anyone']);
    expect(paths({ 'pages/summary.json': { kind: 'detail', title: 'S' } })).toEqual(['/app/101 as patient']);
    expect(paths({ 'dialogs/x.json': { kind: 'dialog' } })).toEqual([]);
    expect(paths({ 'menus.json': {} })).toEqual(['/error as anyone', '/home as office admin', '/app/101 as patient']);
    expect(paths({ 'brands/x.json': {} }, 2)).toEqual(['/error as anyone', '/home as office admin']);
    // A route's access written once as a shared part is read written out: the staff page is drawn as staff.
    const shared = [
      file('routes.json', 'routes', { routes: [{ path: '/admin/offices', screen: 'admin-offices', access: { $use: 'internalAccess' } }] }),
      file('fragments/access.json', 'fragments', { fragments: { internalAccess: { value: { userRoles: ['df.admin'] } } } }),
    ];
    expect(renderVisits(shared, { 'pages/admin-offices.json': { kind: 'table' } }, VISITORS).map((v) => `${v.path} as ${v.visitor.id}`)).toEqual(['/admin/offices as platform df.admin']);
  });

  it('previews as anyone, a patient, and every office and platform role of the enumerations, each with its session', () => {
    expect(VISITORS.map((v) => v.label)).toEqual([
      'Anyone not signed in (live public pages)',
      'A patient signed in by passcode',
      'Office: Administrator',
      'Office: Support',
      'Platform: Platform admin',
      'Platform: Product owner',
    ]);
    expect(VISITORS[0]!.visitor).toBeUndefined();
    expect(VISITORS.find((v) => v.id === 'platform df.admin')!.visitor!.session).toMatchObject({ authenticated: true, role: 'admin', userRole: 'df.admin', officeId: 101 });
    // A route for platform admins only is checked as one; one for the product owner as the product owner.
    expect(visitorFor({ userRoles: ['df.admin'] }, '/admin', VISITORS)?.id).toBe('platform df.admin');
    expect(visitorFor({ userRoles: ['product.owner'] }, '/studio', VISITORS)?.id).toBe('platform product.owner');
    expect(visitorFor({ roles: ['support'] }, '/x', VISITORS)?.id).toBe('office support');
    // A borrower's page opens for the patient of the sample application its sample visit names.
    expect(visitorFor({ borrower: true }, '/app/:id', VISITORS)?.id).toBe('patient');
    expect(visitorFor({ roles: ['nobody'] }, '/x', VISITORS)).toBeUndefined();
  });

  it("starts a new brand and a new lender from neutral templates under their new names: no other's words, and the build's checks pass once a host is named (decision 0275)", async () => {
    const bright = { ...NEW_FILES.brand.start([], 'bright'), hosts: ['bright.example.com'] };
    const acme = NEW_FILES.lender.start([], 'acme');
    expect(bright).toMatchObject({ id: 'bright', logo: { text: 'bright' } });
    expect(bright).not.toHaveProperty('default');
    expect(acme).toMatchObject({ code: 'acme', name: 'ACME (new lender)' });
    const deployed = listDescriptorFiles();
    const otherWords = deployed.filter((f) => f.kind === 'brand' || f.kind === 'lender').flatMap((f) => {
      const doc = JSON.parse(f.text) as { names?: { primary: string }; name?: string };
      return [doc.names?.primary, doc.name].filter((w): w is string => !!w);
    });
    for (const word of otherWords) expect(JSON.stringify([bright, acme])).not.toContain(word);
    const added = [
      { file: 'screens/brands/bright.json', relative: 'brands/bright.json', kind: 'brand' as const, text: JSON.stringify(bright) },
      { file: 'screens/lenders/acme.json', relative: 'lenders/acme.json', kind: 'lender' as const, text: JSON.stringify(acme) },
    ];
    const { errors } = await checkDescriptors([...deployed, ...added]);
    expect(errors).toEqual([]);
  });

  it('starts a new language from a translation, never the source language, without its opt-out words (decision 0238)', () => {
    const files = [
      file('languages/en.json', 'language', { locale: 'en', name: 'English', tag: 'en-US', source: true }),
      file('languages/es.json', 'language', { locale: 'es', name: 'Español', tag: 'es-US', smsOptOut: ['ALTO'], texts: { Continue: 'Continuar' } }),
    ];
    expect(NEW_FILES.language.start(files, 'fr')).toEqual({ locale: 'fr', name: 'fr', tag: 'fr', texts: { Continue: 'Continuar' } });
  });

  it('opens and previews the default brand first, at the first address anyone may open', () => {
    const files = [
      file('brands/care.json', 'brand', { id: 'care' }),
      file('brands/smile.json', 'brand', { id: 'smile', default: true }),
      file('routes.json', 'routes', { routes: [{ path: '/:state', screen: 's', access: { anonymous: true } }, { path: '/home', screen: 'h', access: {} }, { path: '/locator', screen: 'l', access: { anonymous: true } }] }),
    ];
    expect(defaultBrand(files)).toBe('smile');
    expect(firstPublicPath(files)).toBe('/locator');
    expect([defaultBrand([]), firstPublicPath([])]).toEqual(['', '/']);
  });

  it('finds the meta-schema of a file, follows references, and marks what people read', () => {
    const brand = schemaOfFile('brands/x.json', {}, metas)!;
    expect(brand.file).toBe('brand.schema.json');
    expect(resolve((brand.schema.properties as Record<string, Record<string, unknown>>).format!, brand.file, metas).schema.title).toBe('FormatVersion');
    const detail = schemaOfFile('pages/x.json', { kind: 'detail' }, metas)!;
    expect(detail.schema.title).toBe('DetailScreen');
    expect(resolve((detail.schema.properties as Record<string, Record<string, unknown>>).title!, detail.file, metas).text).toBe(true);
    expect(schemaOfFile('pages/x.json', { kind: 'nope' }, metas)).toBeUndefined();
    expect(errorsOf(['screens/pages/a.json#/title: x', 'screens/pages/ab.json: y', 'screens/pages/a.json: z'], 'pages/a.json')).toEqual(['screens/pages/a.json#/title: x', 'screens/pages/a.json: z']);
  });

  it("helps with a field in its own words, else in its definition's: the rule of a link or an image shows beside it, and an address given by an expression is still edited as one (decision 0250)", () => {
    const common = metas['common.schema.json']!.$defs as Record<string, { description: string }>;
    const brand = schemaOfFile('brands/x.json', {}, metas)!;
    const footer = ((brand.schema.properties as Record<string, Record<string, unknown>>).footer!.properties ?? {}) as Record<string, Record<string, unknown>>;
    expect(resolve(footer.termsUrl!, brand.file, metas).description).toBe(common.link!.description);
    expect(resolve(footer.homeUrl!, brand.file, metas).description).toBe(footer.homeUrl!.description);
    const href = resolve({ $ref: 'common.schema.json#/$defs/target' }, 'common.schema.json', metas);
    const address = resolve((href.schema.properties as Record<string, Record<string, unknown>>).href!, href.file, metas);
    expect(address.description).toBe(common.linkExpression!.description);
    expect(address.schema.title).toBe('Expression');
  });

  it("tells the shapes of a choice apart by the property each fixes: an action is chosen by its type, then edited as that shape", () => {
    const action = resolve({ $ref: 'common.schema.json#/$defs/action' }, 'common.schema.json', metas);
    const choice = shapeChoice(action.schema, action.file, metas)!;
    expect(choice.key).toBe('type');
    expect(choice.shapes.flatMap((shape) => shape.values)).toEqual(expect.arrayContaining(['navigate', 'dialog', 'submit', 'toast', 'closeDialog', 'signOut']));
    expect(shapeOfValue(choice, { type: 'dialog', dialog: 'x' })?.schema.title).toBe('DialogAction');
    expect(shapeOfValue(choice, { type: 'reload' })?.schema.title).toBe('PlainAction');
    expect(shapeOfValue(choice, { type: 'nope' })).toBeUndefined();
    // To another shape: what both shapes have stays (when), what only the old one had goes (dialog, props).
    expect(toShape(choice, { type: 'dialog', dialog: 'x', props: {}, when: true }, 'navigate')).toEqual({ type: 'navigate', when: true });
    // An expression is a choice of kinds of value, not of object shapes: no choice of shapes.
    const expression = resolve({ $ref: 'common.schema.json#/$defs/expression' }, 'common.schema.json', metas);
    expect(shapeChoice(expression.schema, expression.file, metas)).toBeUndefined();
  });
});
