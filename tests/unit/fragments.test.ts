import { describe, expect, it } from 'vitest';
import { expandFragments, FragmentError, fragmentsUsed, type Fragments } from '../../core/descriptors/fragments.ts';
import { checkDescriptors, listDescriptorFiles } from '../../core/descriptors/screens.ts';

const fragments: Fragments = {
  appId: { description: 'the id', value: { or: [{ var: 'route.params.id' }, { var: 'session.borrowerAppId' }] } },
  open: { description: 'open a dialog', params: ['id'], value: { type: 'dialog', dialog: 'app-detail', props: { appId: { $param: 'id' } } } },
  openOwn: { description: 'open for the id of the page', value: { $use: 'open', with: { id: { $use: 'appId' } } } },
  twice: { description: 'a parameter passed on', params: ['x'], value: [{ $use: 'open', with: { id: { $param: 'x' } } }] },
  loop: { description: 'uses itself', value: { not: { $use: 'loop' } } },
};

const failure = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (error instanceof FragmentError) return `${error.pointer}: ${error.message}`;
    throw error;
  }
  throw new Error('expanded without an error');
};

describe('fragments (core/descriptors/fragments.ts)', () => {
  it('replace a use by the fragment, with the values given for its parameters', () => {
    const doc = { source: { params: { id: { $use: 'appId' } } }, actions: [{ $use: 'open', with: { id: { var: 'row.id' } } }] };
    expect(expandFragments(doc, fragments)).toEqual({
      source: { params: { id: { or: [{ var: 'route.params.id' }, { var: 'session.borrowerAppId' }] } } },
      actions: [{ type: 'dialog', dialog: 'app-detail', props: { appId: { var: 'row.id' } } }],
    });
    expect(doc.actions[0]).toEqual({ $use: 'open', with: { id: { var: 'row.id' } } });
  });

  it('expand fragments that use fragments, and parameters passed on', () => {
    expect(expandFragments<Record<string, unknown>>({ a: { $use: 'openOwn' } }, fragments)).toEqual({ a: { type: 'dialog', dialog: 'app-detail', props: { appId: fragments.appId!.value } } });
    expect(expandFragments({ $use: 'twice', with: { x: 7 } }, fragments)).toEqual([{ type: 'dialog', dialog: 'app-detail', props: { appId: 7 } }]);
  });

  it('name the place and the mistake of a use that cannot be expanded', () => {
    expect(failure(() => expandFragments({ a: [{ $use: 'nope' }] }, fragments))).toBe("/a/0: there is no fragment 'nope' in screens/fragments/");
    expect(failure(() => expandFragments({ a: { $use: 'open' } }, fragments))).toBe(`/a: fragment 'open' needs 'id' in "with"`);
    expect(failure(() => expandFragments({ a: { $use: 'open', with: { id: 1, ids: 2 } } }, fragments))).toBe("/a/with: fragment 'open' has no parameter 'ids'");
    expect(failure(() => expandFragments({ a: { $use: 'appId', label: 'x' } }, fragments))).toBe(`/a: a use of 'appId' has only "$use" and "with" (found "label")`);
    expect(failure(() => expandFragments({ a: { $param: 'id' } }, fragments))).toBe("/a: $param 'id' is read outside a fragment");
    expect(failure(() => expandFragments({ a: { $use: 'loop' } }, fragments))).toBe("/a: in fragment 'loop' at /not: fragment 'loop' uses itself (loop → loop)");
  });

  it('list the fragments a document uses, through other fragments too', () => {
    expect([...fragmentsUsed({ a: { $use: 'openOwn' } }, fragments)].sort()).toEqual(['appId', 'open', 'openOwn']);
  });

  it('are checked with the descriptors: an unknown fragment names the file and the place, an unused one is refused', async () => {
    const files = listDescriptorFiles().map((f) => {
      if (f.relative === 'pages/home.json') return { ...f, text: JSON.stringify({ ...JSON.parse(f.text), source: { $use: 'noSuchFragment' } }) };
      if (f.relative !== 'fragments/sources.json') return f;
      const doc = JSON.parse(f.text) as { fragments: Fragments };
      doc.fragments.neverUsed = { description: 'nothing uses it', value: 1 };
      return { ...f, text: JSON.stringify(doc) };
    });
    const { errors } = await checkDescriptors(files);
    expect(errors).toContain("screens/pages/home.json#/source: there is no fragment 'noSuchFragment' in screens/fragments/");
    expect(errors).toContain("screens/fragments/sources.json: 'neverUsed' used by no descriptor");
  });
});
