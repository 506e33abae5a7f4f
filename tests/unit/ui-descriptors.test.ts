import { describe, expect, it } from 'vitest';
import { checkDescriptors, listDescriptorFiles } from '../../core/descriptors/screens.ts';
import type { DescriptorFile } from '../../core/descriptors/set.ts';
import { CURRENT_FORMAT, migrate, MigrationError, type MigrationSteps } from '../../core/descriptors/migrations.ts';
import { kindOfPath } from '../../core/descriptors/kinds.ts';

const files = listDescriptorFiles();

function edited(relative: string, change: (doc: Record<string, unknown>) => void): DescriptorFile[] {
  return files.map((f) => {
    if (f.relative !== relative) return f;
    const doc = JSON.parse(f.text) as Record<string, unknown>;
    change(doc);
    return { ...f, text: JSON.stringify(doc) };
  });
}

describe('UI descriptors (screens/)', () => {
  it('are all valid against their meta-schemas and refer to things that exist', async () => {
    const report = await checkDescriptors(files);
    expect(report.errors).toEqual([]);
    expect(report.migrated).toEqual([]);
    expect(report.descriptors.length).toBe(files.length);
  });

  it('refuse a page that holds itself through its parts, which would never finish rendering', async () => {
    const report = await checkDescriptors(edited('pages/error.json', (doc) => Object.assign(doc, { kind: 'composite', parts: [{ screen: 'app-detail-logs' }], title: undefined, sections: undefined, buttons: undefined })).map((f) =>
      f.relative === 'pages/app-detail-logs.json' ? { ...f, text: JSON.stringify({ format: 1, kind: 'composite', parts: [{ screen: 'error' }] }) } : f,
    ));
    expect(report.errors).toEqual(expect.arrayContaining(['screens/pages/error.json: the page holds itself (error → app-detail-logs → error); it would never finish rendering']));
  });

  it("refuse a kanban card that names a field its lanes' answer does not carry", async () => {
    const report = await checkDescriptors(
      edited('pages/kanban.json', (doc) => {
        const card = doc.card as { title: string; lines: unknown[] };
        card.title = '{row.firstName} {row.referenceCode}';
        card.lines.push({ label: 'Office', value: { var: 'row.officeName' } });
      }),
    );
    expect(report.errors).toEqual([
      expect.stringMatching(/^screens\/pages\/kanban\.json#\/card\/title: a card has no field 'referenceCode' \(the cards of App_GetOfficeAppsByStage carry id, firstName, .*updatedAtUtc\)$/),
      expect.stringMatching(/^screens\/pages\/kanban\.json#\/card\/lines\/4\/value: a card has no field 'officeName' /),
    ]);
  });

  it('are all in the current format', () => {
    for (const f of files) expect((JSON.parse(f.text) as { format?: number }).format, f.file).toBe(CURRENT_FORMAT);
  });

  it('name the file and the JSON pointer of an error', async () => {
    const report = await checkDescriptors(
      edited('pages/admin-apps-funded.json', (doc) => {
        (doc.columns as Array<Record<string, unknown>>)[2]!.format = 'money';
        (doc.columns as Array<Record<string, unknown>>)[2]!.value = { eval: 'x' };
        doc.extra = true;
      }),
    );
    expect(report.errors).toContain(
      'screens/pages/admin-apps-funded.json#/columns/2/format: must be one of "text", "currency", "apr", "date", "datetime", "phone", "tel", "ein", "number", "percent", "bytes", "chip", "yesno", "relative"',
    );
    expect(report.errors).toContain('screens/pages/admin-apps-funded.json#/columns/2/value/eval: is not an allowed name here');
    expect(report.errors).toContain('screens/pages/admin-apps-funded.json#/extra: is not an allowed property');
  });

  it('report an action of the wrong shape at its own place', async () => {
    const report = await checkDescriptors(
      edited('dialogs/how-to-apply.json', (doc) => {
        (doc.choices as Array<{ actions: unknown[] }>)[0]!.actions = [{ type: 'navigate' }, { type: 'explode' }];
      }),
    );
    expect(report.errors).toEqual([
      "screens/dialogs/how-to-apply.json#/choices/0/actions/0: must have the property 'to'",
      expect.stringContaining('screens/dialogs/how-to-apply.json#/choices/0/actions/1/type: must be one of "navigate"'),
    ]);
  });

  it('check names across files: routes, layouts, pages, dialogs and operations', async () => {
    const report = await checkDescriptors(
      edited('routes.json', (doc) => {
        const routes = doc.routes as Array<Record<string, unknown>>;
        routes[0]!.layout = 'nowhere';
        routes[2]!.screen = 'no-such-page';
        routes.push({ ...routes[3], name: routes[3]!.name });
      }),
    );
    expect(report.errors).toEqual(
      expect.arrayContaining([
        "screens/routes.json#/routes/0/layout: no layout 'nowhere' in screens/layouts.json",
        'screens/routes.json#/routes/2/screen: no page screens/pages/no-such-page.json',
        expect.stringMatching(/^screens\/routes\.json#\/routes\/\d+\/name: the route name '[a-z-]+' is already used by screens\/routes\.json#\/routes\/3$/),
      ]),
    );
    const menus = await checkDescriptors(edited('menus.json', (doc) => ((doc.menus as Array<{ items: Array<Record<string, unknown>> }>)[0]!.items[0]!.to = { route: 'nope' })));
    expect(menus.errors).toEqual(["screens/menus.json#/menus/0/items/0/to/route: no route named 'nope'"]);
    const ops = await checkDescriptors(edited('pages/home.json', (doc) => ((doc.source as Record<string, unknown>).operation = 'App_Nothing')));
    expect(ops.errors).toEqual(["screens/pages/home.json#/source/operation: no operation 'App_Nothing' in openapi/openapi.yaml"]);
    const chart = await checkDescriptors(
      edited('pages/reports.json', (doc) => {
        const funnel = (doc.sections as Array<{ chart: { x: string; series: string[] } }>)[0]!;
        funnel.chart = { ...funnel.chart, x: 'stage', series: ['count', 'total'] };
      }),
    );
    expect(chart.errors).toEqual([
      "screens/pages/reports.json#/sections/0/chart/x: no column 'stage' in this section",
      "screens/pages/reports.json#/sections/0/chart/series/1: no column 'total' in this section",
    ]);
  });

  it('accept the words of an enumeration or of config items as a format, and refuse a table that does not exist', async () => {
    const known = await checkDescriptors(edited('pages/admin-apps-funded.json', (doc) => ((doc.columns as Array<Record<string, unknown>>)[2]!.format = 'label:Stage')));
    expect(known.errors).toEqual([]);
    const unknown = await checkDescriptors(
      edited('pages/admin-apps-funded.json', (doc) => {
        (doc.columns as Array<Record<string, unknown>>)[2]!.format = 'label:Nothing';
        doc.title = 'Stage {row.stage|label:Stages} of {row.x|config:Colors} in {row.state|config:States}';
      }),
    );
    expect([...unknown.errors].sort()).toEqual([
      'screens/pages/admin-apps-funded.json: config:Colors names neither an enumeration of schemas/enums/ with x-labels nor a config item type',
      'screens/pages/admin-apps-funded.json: label:Nothing names neither an enumeration of schemas/enums/ with x-labels nor a config item type',
      'screens/pages/admin-apps-funded.json: label:Stages names neither an enumeration of schemas/enums/ with x-labels nor a config item type',
    ]);
  });

  it('migrate a file without a format (format 0) and refuse a format newer than the engine', async () => {
    const report = await checkDescriptors(edited('pages/kanban.json', (doc) => delete doc.format));
    expect(report.errors).toEqual([]);
    expect(report.migrated).toEqual([{ file: 'screens/pages/kanban.json', from: 0, to: CURRENT_FORMAT }]);
    const newer = await checkDescriptors(edited('conditions.json', (doc) => (doc.format = CURRENT_FORMAT + 1)));
    expect(newer.errors).toEqual([`screens/conditions.json#/format: format ${CURRENT_FORMAT + 1} is newer than this engine (${CURRENT_FORMAT}); update the application`]);
  });

  it('migrate step by step, one function per version', () => {
    const rename = (doc: Record<string, unknown>) => {
      const { label, ...rest } = doc;
      return { ...rest, title: label, format: 2 };
    };
    const steps = { screen: [(d: Record<string, unknown>) => ({ ...d, format: 1 }), rename] } as unknown as MigrationSteps;
    expect(migrate('screen', { kind: 'detail', label: 'Old' }, steps, 2)).toEqual({ doc: { kind: 'detail', title: 'Old', format: 2 }, from: 0, to: 2 });
    expect(() => migrate('screen', { format: 1 }, { screen: [] } as unknown as MigrationSteps, 2)).toThrow(MigrationError);
    expect(() => migrate('screen', [], steps, 2)).toThrow(MigrationError);
  });

  it('know each file by its place', () => {
    expect(kindOfPath('routes.json')).toBe('routes');
    expect(kindOfPath('pages/a.json')).toBe('screen');
    expect(kindOfPath('dialogs/a.json')).toBe('screen');
    expect(kindOfPath('lenders/a.json')).toBe('lender');
    expect(kindOfPath('brands/a.json')).toBe('brand');
    expect(kindOfPath('pages/deeper/a.json')).toBeUndefined();
    expect(kindOfPath('_meta/common.schema.json')).toBeUndefined();
  });

  it('cover the whole route table of spec §2', async () => {
    const { descriptors } = await checkDescriptors(files);
    const routes = descriptors.find((d) => d.kind === 'routes')!.doc.routes as Array<{ path: string }>;
    const paths = new Set(routes.map((r) => r.path));
    for (const path of [
      '/enroll', '/home', '/kanban', '/lenders', '/locator', '/logout', '/offices', '/settings', '/signup', '/users', '/', '/:state',
      '/admin/apps', '/admin/apps/funded', '/admin/apps/funding', '/admin/apps/inactive', '/admin/apps/kanban', '/admin/apps/office',
      '/admin/apps/refunds', '/admin/offices', '/admin/offices/landing', '/admin/offices/lenders', '/admin/offices/owners',
      '/admin/offices/users', '/admin/offices/:id', '/admin/users', '/admin/users/:id', '/logs/funded', '/logs/inactive', '/logs/refunds',
      '/logs/sendapp', '/settings/landingbanner', '/lenders/apply', '/lenders/esign/:id?', '/users/invite/:id?', '/offices/:id', '/search/:id?',
      '/landing/:code?', '/landing/multi/:code?', '/auth', '/app/:id?', '/app/auth/:id?', '/app/borrower/:id?', '/app/prequal/:id?',
      '/app/prequal/match', '/app/prequal/nomatch',
    ]) {
      expect(paths.has(path), path).toBe(true);
    }
    const lenders = descriptors.filter((d) => d.kind === 'lender').map((d) => d.name).sort();
    expect(lenders).toEqual(['ally', 'cleargage', 'covered', 'gsky', 'lpoint', 'lusa', 'powerpay', 'upg']);
  });
});
