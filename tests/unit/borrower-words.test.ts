/**
 * Borrower pages speak to the borrower (issue 16): the end of the journey said 'Signed: ready to finalize', the
 * office's status sentence (statusText, written for the office's lists). The borrower's pages — the routes in the
 * office layout (spec §2: the pre-qualification header) and every lender flow's steps, with the parts and dialogs
 * they show — read an enumeration through its borrower words (`x-labels-borrower`, table `<Name>-borrower`) when it
 * has them, and never show statusText.
 */
import { describe, expect, it } from 'vitest';
import { listDescriptorFiles } from '../../core/descriptors/screens.ts';
import { enumerationLabels } from '../../core/contract/schema-files.ts';
import { labelNamesIn } from '../../core/labels.ts';
import { screensFile } from '../../core/descriptors/read.ts';

type Json = Record<string, unknown>;
const files = listDescriptorFiles();
const doc = (relative: string) => screensFile<Json>(relative);
const tables = new Set(enumerationLabels().keys());

/** The pages a borrower sees: office-layout routes and lender flow steps, then every part and dialog they show. */
function borrowerScreens(): Set<string> {
  const routes = [
    ...(doc('routes.json').routes as Json[]).filter((r) => r.layout === 'office'),
    ...files.filter((f) => f.kind === 'lender').flatMap((f) => doc(f.relative).routes as Json[]),
  ];
  const seen = new Set<string>();
  const visit = (relative: string) => {
    if (seen.has(relative)) return;
    seen.add(relative);
    (function walk(node: unknown) {
      if (Array.isArray(node)) return node.forEach(walk);
      if (!node || typeof node !== 'object') return;
      const o = node as Json;
      if (typeof o.screen === 'string') visit(`pages/${o.screen}.json`);
      if (o.type === 'dialog' && typeof o.dialog === 'string') visit(`dialogs/${o.dialog}.json`);
      Object.values(o).forEach(walk);
    })(doc(relative));
  };
  for (const route of routes) if (typeof route.screen === 'string') visit(`pages/${route.screen}.json`);
  return seen;
}

describe("the borrower's pages", () => {
  const screens = [...borrowerScreens()].sort();

  it('are the journey: the summary, the pre-qualification and the signing steps among them', () => {
    expect(screens).toEqual(expect.arrayContaining(['pages/app-borrower-id.json', 'pages/app-prequal-nomatch.json', 'pages/lender-cta.json', 'pages/lender-step-sign.json']));
  });

  it("never show the office's status sentence", () => {
    expect(screens.filter((s) => JSON.stringify(doc(s)).includes('"data.statusText"'))).toEqual([]);
  });

  it("name an enumeration's borrower words where it has them", () => {
    const officeWords = screens.flatMap((s) => [...labelNamesIn(doc(s))].filter((f) => f.startsWith('label:') && tables.has(`${f.slice('label:'.length)}-borrower`)).map((f) => `${s}: ${f}`));
    expect(officeWords).toEqual([]);
  });

  it('the stage has borrower words for every value', () => {
    expect(Object.keys(enumerationLabels().get('Stage-borrower') ?? {})).toEqual(Object.keys(enumerationLabels().get('Stage') ?? {}));
  });
});
