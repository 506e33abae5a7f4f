import { describe, expect, it } from 'vitest';
import { contractContext, listDescriptorFiles, loadValidators } from '../../core/descriptors/screens.ts';
import { checkSet, engineDocs, overlaid, setFragments, usersOfChangedParts } from '../../core/descriptors/set.ts';
import { publishedOr } from '../../core/descriptors/overlay.ts';
import { screensFile } from '../../core/descriptors/read.ts';
import { previewSet } from '../../src/app/studio/model.ts';
import { builtExpanded, servedFiles } from '../../server/descriptors/live.ts';

const deployed = listDescriptorFiles();
const docOf = (relative: string) => JSON.parse(deployed.find((f) => f.relative === relative)!.text) as Record<string, unknown>;
const checks = async (builtForms?: ReadonlySet<string>) => ({ validators: await loadValidators(), context: contractContext(), builtForms });

describe('the descriptor set, read in one place (core/descriptors/set.ts)', () => {
  it('reads each deployed file as the server, the build and the studio preview do', () => {
    const docs = engineDocs(deployed);
    expect(docs.get('pages/home.json')).toEqual(screensFile('pages/home.json'));
    expect(docs.get('lenders/powerpay.json')).toEqual(screensFile('lenders/powerpay.json'));
    expect(builtExpanded()).toEqual(docs);
    // The studio's preview of a draft is that draft as the set reads it.
    const home = docOf('pages/home.json');
    const preview = previewSet(deployed.map((f) => ({ path: f.relative, kind: f.kind ?? '', doc: JSON.parse(f.text), published: false, deployed: true })), { 'pages/home.json': { ...home, title: 'Today' } });
    expect(preview.files['pages/home.json']).toEqual({ ...(docs.get('pages/home.json') as object), title: 'Today' });
    expect(Object.keys(setFragments(deployed)).length).toBeGreaterThan(100);
  });

  it('lays an overlay over the deployed files, and serves only what differs from them', () => {
    const home = docOf('pages/home.json');
    const files = overlaid(deployed, { 'pages/home.json': { ...home, title: 'Today' }, 'pages/added.json': { ...home, title: 'Added' } });
    expect(files).toHaveLength(deployed.length + 1);
    expect(engineDocs(files).get('pages/home.json')).toMatchObject({ title: 'Today' });
    expect(Object.keys(servedFiles({ 'pages/home.json': { ...home, title: 'Today' }, 'routes.json': docOf('routes.json') }))).toEqual(['pages/home.json']);
    expect(publishedOr({ 'routes.json': { format: 1, routes: [] } }, 'routes.json', docOf('routes.json'), 'routes')).toEqual({ format: 1, routes: [] });
    expect(publishedOr({}, 'routes.json', { ...docOf('routes.json'), format: undefined }, 'routes')).toMatchObject({ format: 1 });
  });

  it("checks a set as its readers hold it: the deployed set passes; a lender's journey, a language's name and a form the web app lacks are refused where they are", async () => {
    expect((await checkSet(deployed, await checks())).errors).toEqual([]);
    const powerpay = engineDocs(deployed).get('lenders/powerpay.json') as { journey: { steps: string[] } };
    const lost = { ...powerpay, journey: { ...powerpay.journey, steps: [...powerpay.journey.steps, 'nowhere'] } };
    const spanish = { ...docOf('languages/es.json'), locale: 'fr' };
    const report = checkSet(overlaid(deployed, { 'lenders/powerpay.json': lost, 'languages/es.json': spanish }), await checks(new Set(['EnrollBank'])));
    expect(report.errors).toEqual(
      expect.arrayContaining([
        "screens/lenders/powerpay.json: journey step 'nowhere' has no route",
        "screens/languages/es.json#/locale: must equal the file name 'es'",
        "screens/pages/app-prequal-id.json#/schema: the web app has no form over 'SubmitApp' yet; a form over a new schema takes a deployment",
      ]),
    );
  });

  it("refuses a table of the borrower's side that would scroll sideways on a phone, and leaves the staff's tables as they are", async () => {
    const { narrow: _cards, ...scrolling } = docOf('pages/locator.json');
    const staffTable = docOf('pages/admin-users.json');
    expect(staffTable).toMatchObject({ kind: 'table' });
    expect(staffTable.narrow).toBeUndefined();
    const { errors } = checkSet(overlaid(deployed, { 'pages/locator.json': scrolling, 'pages/admin-users.json': { ...staffTable, title: 'Users' } }), await checks());
    expect(errors).toEqual([
      `screens/pages/locator.json#/narrow: the borrower's side shows this table, often on a phone: it needs "narrow": "cards", so that no column hides past the screen's edge`,
    ]);
  });

  it('names the file and the place of a file it cannot read, and goes on with the others', async () => {
    const broken = [...deployed.filter((f) => f.relative !== 'menus.json'), { file: 'screens/menus.json', relative: 'menus.json', kind: 'menus' as const, text: '{ "menus": [' }];
    const { errors } = checkSet(overlaid(broken, { 'pages/home.json': { ...docOf('pages/home.json'), format: 99 }, 'dialogs/confirm.json': { format: 1, $use: 'nothingOfThatName' } }), await checks());
    expect(errors).toEqual([
      'screens/pages/home.json#/format: format 99 is newer than this engine (1); update the application',
      expect.stringMatching(/^screens\/menus\.json: not valid JSON/),
      "screens/dialogs/confirm.json#: a use of 'nothingOfThatName' has only \"$use\" and \"with\" (found \"format\")",
      // The menus that use it could not be read.
      "screens/fragments/pages.json: 'logoutMenuItem' used by no descriptor",
    ]);
  });

  it('reads an overlay kept from when the shared parts were one file: each part in the file that holds it now', () => {
    const parts = setFragments(deployed);
    const { logoutMenuItem: _, ...kept } = parts;
    const one = { format: 1, fragments: { ...kept, cancelButton: { ...parts.cancelButton!, value: { ...(parts.cancelButton!.value as object), label: 'Close' } }, addedLater: { description: 'New', value: 1 } } };
    const files = overlaid(deployed, { 'fragments.json': one });
    expect(files.map((f) => f.relative)).not.toContain('fragments.json');
    const after = setFragments(files);
    expect(after.cancelButton!.value).toMatchObject({ label: 'Close' });
    expect(after).not.toHaveProperty('logoutMenuItem');
    expect(files.find((f) => f.relative === 'fragments/added.json')?.text).toContain('addedLater');
    expect(files.find((f) => f.relative === 'fragments/actions.json')?.text).toContain('"Close"');
  });

  it("names the files a change to a shared part changes, through other parts too: a lender's mapping is its lender's change", () => {
    const parts = JSON.parse(deployed.find((f) => f.relative === 'fragments/lenders.json')!.text) as { fragments: Record<string, { value: Record<string, unknown> }> };
    const changed = structuredClone(parts);
    changed.fragments.lenderServiceApplicationAnswer!.value.status = { var: 'response.body.state' };
    const users = usersOfChangedParts(deployed, overlaid(deployed, { 'fragments/lenders.json': changed }));
    expect(users.length).toBeGreaterThan(0);
    expect(users.every((path) => path.startsWith('lenders/'))).toBe(true);
    expect(usersOfChangedParts(deployed, overlaid(deployed, { 'fragments/lenders.json': parts }))).toEqual([]);
  });
});
