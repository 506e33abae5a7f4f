import { describe, expect, it } from 'vitest';
import { coverage } from '../../core/descriptors/translation-state.ts';
import { borrowerSide } from '../../core/descriptors/borrower-side.ts';

/** Issue 41, item 4: how much of the borrower side's texts a language translates, and which files lack translations. */
describe("a language's coverage", () => {
  const texts = new Map<string, string[]>([
    ['screens/pages/home.json#/title', ['Active Applications']],
    ['screens/pages/home.json#/intro', ['Your patients', '{row.firstName} {row.lastName}']],
    ['screens/pages/kanban.json#/title', ['Applications by stage']],
    ['screens/dialogs/send.json#/title', ['Send a link', 'Send the link again']],
    ['screens/brands/smile.json#/wording/service', ['Treatment']],
  ]);

  it('counts texts of words at each place, translated by the language or by the place itself, and names the files that lack some, most first', () => {
    const state = coverage(texts, { texts: { 'Active Applications': 'Solicitudes activas' }, ownAfter: new Map([['screens/brands/smile.json#/wording/service', 'Tratamiento']]) });
    expect(state).toEqual({
      translated: 2,
      total: 6,
      files: [
        { file: 'screens/dialogs/send.json', missing: 2 },
        { file: 'screens/pages/home.json', missing: 1 },
        { file: 'screens/pages/kanban.json', missing: 1 },
      ],
    });
  });

  it('is whole when every text is translated', () => {
    const all = Object.fromEntries([...texts.values()].flat().map((text) => [text, `es: ${text}`]));
    expect(coverage(texts, { texts: all, ownAfter: new Map() })).toEqual({ translated: 6, total: 6, files: [] });
  });

  it("reads the borrower side only: a translated route's page and the dialog it opens, not a staff page", () => {
    const docs = new Map<string, Record<string, unknown>>([
      ['routes.json', { routes: [
        { name: 'prequal', path: '/prequal', layout: 'office', screen: 'prequal', translated: true },
        { name: 'home', path: '/home', layout: 'office', screen: 'home' },
      ] }],
      ['layouts.json', { layouts: { office: {} } }],
      ['pages/prequal.json', { kind: 'detail', title: 'Check your rate', toolbar: [{ id: 'help', label: 'Help', actions: [{ type: 'dialog', dialog: 'help' }] }], sections: [] }],
      ['dialogs/help.json', { kind: 'detail', title: 'How it works', sections: [] }],
      ['pages/home.json', { kind: 'detail', title: 'Active Applications', sections: [] }],
    ]);
    const side = borrowerSide(docs);
    expect([...side.screens].sort()).toEqual(['dialogs/help.json', 'pages/prequal.json']);
    expect([...side.texts.values()].flat()).toEqual(expect.arrayContaining(['Check your rate', 'How it works']));
    expect([...side.texts.values()].flat()).not.toContain('Active Applications');
  });
});
