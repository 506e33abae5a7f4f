/**
 * The first paint (decision 0286): what core/first-paint.ts takes from the deployed descriptors, and how the server
 * puts it into the page. That the painted words stand where the app draws them is e2e/journey-first-paint.spec.ts.
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evaluate, truthy } from '../../core/expressions.ts';
import { firstPaintFor, withoutPublished } from '../../server/descriptors/first-paint.ts';
import { chunksOf, type RouteChunks } from '../../core/route-chunks.ts';
import { appPage, readFirstPaintCode, scriptSource } from '../../server/http/web-app.ts';
import { contentSecurityPolicy } from '../../server/http/security-headers.ts';
import { bundleOpenApi } from '../../core/contract/bundle.ts';
import { firstPaintOf, type FirstPaintInput } from '../../core/first-paint.ts';
import { builtExpanded } from '../../server/descriptors/live.ts';
import { liveBrands } from '../../server/descriptors/brands.ts';
import { offeredLanguages } from '../../server/descriptors/languages.ts';

const schemas = (bundleOpenApi().components as { schemas: FirstPaintInput['schemas'] }).schemas;
const paint = firstPaintFor('localhost', schemas);
const screenAt = (path: string) => paint.routes.find((route) => route.path === path)?.screen;
const holds = (when: unknown, params: Record<string, string>, query: Record<string, string> = {}) => truthy(evaluate(when, { route: { params, query } }));

describe('what the first paint takes from the descriptors', () => {
  it('paints the anonymous, translated form and detail pages whose words need no data, in every language', () => {
    const prequal = screenAt('/app/prequal/:id?')!;
    expect(prequal.layout).toBe('office');
    expect(prequal.title).toEqual({ en: 'Pre-qualify for financing', es: expect.stringMatching(/^Precalifique/) });
    expect(prequal.intro?.en).toMatch(/^Checking your offers/);
    expect(prequal.picker).toBe(true);
    // A word of the address is not painted as a text: the app would translate it ('Error').
    expect(screenAt('/error')).toBeUndefined();
    // A staff page, and a page that leaves on load whatever the address ('/:state' handles a sign-in or is not found).
    expect(screenAt('/auth')).toBeUndefined();
    expect(screenAt('/:state')).toBeUndefined();
  });

  it("keeps a detail page's opening texts with conditions on the address alone, for a visitor without a session", () => {
    const link = screenAt('/app/auth/:id?')!;
    const shown = (params: Record<string, string>, query: Record<string, string> = {}) =>
      link.sections.filter((section) => section.when === undefined || holds(section.when, params, query)).map((section) => ('text' in section ? section.text.en : 'stop'));
    expect(shown({ id: '7' }, { t: 'token' })).toEqual(['Opening your application…']);
    expect(shown({ id: '7' })).toEqual(['Open the link you received by text or e-mail to continue your application.']);
    expect(shown({ id: '7' }, { k: 'key' })).toEqual(['To continue your application, we send a one-time passcode to the mobile phone or e-mail address on file.']);
    // Its on-load navigation is for a signed-in borrower: for this visitor it never leaves.
    expect(link.away?.some((when) => holds(when, { id: '7' }))).toBe(false);
  });

  it("carries the routes that would take an address from a painted one, the app's most specific first", () => {
    const paths = paint.routes.map((route) => route.path);
    expect(paths.indexOf('/app/prequal/match')).toBeGreaterThanOrEqual(0);
    expect(paths.indexOf('/app/prequal/match')).toBeLessThan(paths.indexOf('/app/prequal/:id?'));
    expect(paths).not.toContain('/admin/offices');
    expect(paint.name).toBe('SmilePay Financing');
    expect(paint.alternate && holds(paint.alternate.when, {}, { altName: '1' })).toBe(true);
    expect(firstPaintFor('www.carefinancing.example', schemas).brand).toBe('care');
  });
});

describe('a page of data', () => {
  const landing = screenAt('/landing/:code?')!;

  it("reads its one public GET, its parameters from the address, and paints the composite's title over its first part", () => {
    expect(landing.source).toEqual({ path: '/api/Office/GetLandingPage/{code}', params: { code: { var: 'route.params.code' } }, key: true, when: { var: 'route.params.code' } });
    const context = { route: { params: { code: 'x' }, query: {} }, data: { office: { name: 'Bright Smiles' } } };
    expect(evaluate(landing.title.en, context)).toBe('Bright Smiles');
    expect(evaluate(landing.title.es, { ...context, data: {} })).toBe('Financiamiento para pacientes');
  });

  it('stops where a section it cannot draw shows (an image, the office card), and goes past one that does not', () => {
    const drawn = (data: Record<string, unknown>) => {
      const out: string[] = [];
      for (const section of landing.sections) {
        if (section.when !== undefined && !truthy(evaluate(section.when, { route: { params: {}, query: {} }, data }))) continue;
        if ('stop' in section) break;
        out.push(String(evaluate(section.text.en, { data })));
      }
      return out;
    };
    expect(drawn({ office: { name: 'B' }, description: 'Plans for all.' })).toEqual(['Plans for all.', expect.stringMatching(/^Apply here in about a minute, or ask \{data.office.name\}/)]);
    expect(drawn({ office: { name: 'B', logoUrl: '/logo.png' } })).toEqual([]);
    expect(drawn({ office: { name: 'B' }, pictureUrl: '/p.png' })).toEqual(['Apply for patient financing with the lenders of this office.']);
  });
});

describe("a form's leading fields", () => {
  const fieldsAt = (path: string, params: Record<string, string>) => {
    const form = screenAt(path)?.form;
    return form && (form.when === undefined || holds(form.when, params)) ? form.fields.map((field) => `${field.id}${field.required ? '*' : ''} ${field.type ?? 'text'}${field.half ? ' half' : ''}: ${String(field.label.es)}`) : [];
  };

  it('paints plain text and e-mail fields in the order @rjsf lays them out, up to the first it cannot draw', () => {
    // The phone that follows e-mail is masked by the app's widget: the painting ends there.
    expect(fieldsAt('/app/prequal/:id?', { id: '0' })).toEqual(['root_firstName* text half: Nombre', 'root_lastName* text half: Apellido', 'root_email email half: Correo electrónico']);
    expect(screenAt('/app/prequal/:id?')?.form?.columns).toBe(2);
    // A field that follows a channel choice is not reached.
    expect(fieldsAt('/landing/:code/start', { code: 'brightsmiles' })).toEqual(['root_firstName* text half: Nombre', 'root_lastName* text half: Apellido']);
  });

  it("draws no field the form's source would fill: a texted link's application brings the borrower's name", () => {
    expect(fieldsAt('/app/prequal/:id?', { id: '7' })).toEqual([]);
    expect(fieldsAt('/app/prequal/:id?', {})).toHaveLength(3);
  });

  it('stops at a field whose showing, value or words the address does not decide', () => {
    const doc = (path: string) => builtExpanded().get(path);
    const prequal = doc('pages/app-prequal-id.json') as { fields: Record<string, object>; values: object };
    /** The fields painted of the pre-qualification form with `changes` made to its descriptor. */
    const paintedWith = (changes: object) => {
      const page = { ...prequal, ...changes };
      const input = { doc: (path: string) => (path === 'pages/app-prequal-id.json' ? page : doc(path)), lenders: [], brand: liveBrands()[0]!, languages: offeredLanguages().list, source: 'en', schemas };
      return firstPaintOf(input).routes.find((route) => route.path === '/app/prequal/:id?')?.screen?.form?.fields.map((field) => field.id) ?? [];
    };
    const changed = (fields: Record<string, object>) => paintedWith({ fields: { ...prequal.fields, ...fields } });
    expect(changed({})).toEqual(['root_firstName', 'root_lastName', 'root_email']);
    expect(changed({ lastName: { label: 'Last Name', visible: { var: 'form.firstName' } } })).toEqual(['root_firstName']);
    expect(changed({ lastName: { label: 'Last Name {session.name}' } })).toEqual(['root_firstName']);
    expect(changed({ lastName: { label: 'Last Name', widget: 'textarea' } })).toEqual(['root_firstName']);
    expect(paintedWith({ values: { ...prequal.values, lastName: 'Bound' } })).toEqual(['root_firstName']);
    // A field hidden by its widget is passed, as @rjsf never shows it.
    expect(changed({ firstName: { widget: 'hidden' } })).toEqual(['root_lastName', 'root_email']);
    // An initial value of the source's answer starts empty where the source is not read; a default would not.
    expect(paintedWith({ initial: { lastName: { var: 'data.lastName' } } })).toEqual(['root_firstName', 'root_lastName', 'root_email']);
    expect(paintedWith({ initial: { lastName: { var: ['data.lastName', 'Doe'] } } })).toEqual(['root_firstName']);
    expect(paintedWith({ initial: { lastName: { var: 'route.query.last' } } })).toEqual(['root_firstName']);
  });
});

describe("the screen's code", () => {
  const file = (name: string) => [`${name}-hash.js`, 'shared-hash.js'];
  const chunks: RouteChunks = {
    kind: { form: file('FormScreen'), composite: file('CompositeScreen'), detail: file('DetailScreen') },
    layout: { office: file('OfficeLayout'), welcome: file('WelcomeLayout') },
    page: { 'app-prequal-id': file('app-prequal-id'), 'landing-code': file('landing-code'), 'landing-code-office': file('landing-code-office') },
    form: { SubmitApp: file('SubmitApp') },
    language: { en: ['en-hash.js'], es: ['es-hash.js'] },
  };
  const built = firstPaintFor('localhost', schemas, chunks);
  const preloadAt = (path: string) => built.routes.find((route) => route.path === path)?.screen?.preload;

  it("lists what the app loads for a painted screen: its layout, page, kind and form, each file once", () => {
    expect(preloadAt('/app/prequal/:id?')).toEqual(['OfficeLayout-hash.js', 'shared-hash.js', 'app-prequal-id-hash.js', 'FormScreen-hash.js', 'SubmitApp-hash.js']);
    // A composite loads its own page and kind, and its first part's.
    expect(preloadAt('/landing/:code?')).toEqual(['WelcomeLayout-hash.js', 'shared-hash.js', 'landing-code-hash.js', 'CompositeScreen-hash.js', 'landing-code-office-hash.js', 'DetailScreen-hash.js']);
  });

  it('lists the words of each language the app loads as a chunk: not the source language, which it holds', () => {
    expect(built.languages).toEqual([{ locale: 'en', name: 'English' }, { locale: 'es', name: 'Español', preload: ['es-hash.js'] }]);
  });

  it("leaves out the built chunk of a page or language the live set publishes: the app reads those from the set", () => {
    const live = withoutPublished(chunks, { 'pages/app-prequal-id.json': {}, 'languages/es.json': {}, 'brands/demo.json': {} });
    expect(live.page['app-prequal-id']).toBeUndefined();
    expect(live.page['landing-code']).toEqual(chunks.page['landing-code']);
    expect(live.language).toEqual({ en: ['en-hash.js'] });
    expect(chunksOf(live, { layout: 'office', page: 'app-prequal-id', kind: 'form', form: 'SubmitApp' })).toEqual(['OfficeLayout-hash.js', 'shared-hash.js', 'FormScreen-hash.js', 'SubmitApp-hash.js']);
  });

  it('lists nothing where the app is not built', () => {
    expect(paint.routes.some((route) => route.screen?.preload)).toBe(false);
    expect(chunksOf(chunks, { kind: 'table', page: 'nowhere' })).toEqual([]);
  });
});

describe('the page that carries it', () => {
  const root = mkdtempSync(join(tmpdir(), 'first-paint-'));
  writeFileSync(join(root, 'first-paint.css'), '/* why */\n#first-paint {\n  color: red;\n  /*\n   * why, at length\n   */\n}\n');
  // As the build leaves it (vite.config.ts minifies it): a line break inside a string stays.
  writeFileSync(join(root, 'first-paint.js'), '(function(){var x=`a\n  b`;})();\n');
  const code = readFirstPaintCode(root)!;
  const template = '<html><head></head><body><div id="root"></div><script type="module" src="/x.js"></script></body></html>';

  it('inlines the style without its comment lines and the script as built, and lets exactly that script run', () => {
    expect(code).toEqual({ style: '#first-paint {\ncolor: red;\n}', script: '(function(){var x=`a\n  b`;})();\n' });
    const csp = contentSecurityPolicy([], undefined, [scriptSource(code.script)]);
    expect(csp).toMatch(/script-src 'self' 'sha256-[\w+/]+=';/);
  });

  it('puts the words beside the root where no text can end their element', () => {
    const hostile = { ...paint, name: '</script><script>alert(1)</script>' };
    const html = appPage(template, { webApiKey: 'k' }, '', { code, paint: hostile }).identity.toString();
    expect(html).toContain('<div id="first-paint" hidden aria-hidden="true"');
    expect(html.indexOf('id="first-paint"')).toBeLessThan(html.indexOf('id="root"'));
    expect(html.match(/<\/script>/g)).toHaveLength(3);
    const words = /id="first-paint-data">(.*?)<\/script>/s.exec(html)![1]!;
    expect(JSON.parse(words).name).toBe(hostile.name);
  });
});
