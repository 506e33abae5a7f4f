/**
 * The studio (issue 18, decision 0228): a product owner picks a file (route table, menus, layouts, conditions, a page,
 * a dialog, a brand), edits it in a form generated from its meta-schema or as JSON, sees the build's own checks as
 * they type, compares it with what is live, previews it in the real engine (a frame of the app fed the draft) as a
 * phone or a desktop in any brand, and publishes it with a note — live for everyone on their next navigation, with no
 * build or restart. The history lists every publication; any one can be made live again in one click. A lender file
 * can be tried before it is published: a sample patient sent to the lender as the drafts describe it (TryLender.tsx).
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Badge, Box, Button, chakra, Flex, Heading, Input, NativeSelect, Stack, Tabs, Text, Textarea } from '@chakra-ui/react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callOperation } from '../api/client.ts';
import type { StudioCheck, StudioFiles, StudioHistory, StudioPublication, StudioReviews } from '../../../codegen/generated/schemas.ts';
import { BUILT_SET, type DescriptorSet } from '../live-descriptors.ts';
import { toasts } from '../ui/toasts.ts';
import { Changes } from './Changes.tsx';
import { SchemaForm } from './SchemaForm.tsx';
import { Preview } from './Preview.tsx';
import { renderVisits, setAt, sharedParts, defaultBrand, previewVisitors, draftFiles, errorsOf, NEW_FILES, parseDraft, pretty, previewSet, schemaOfFile, wizardSteps, type MetaSchemas, type NewKind, type Place, filesOfPage, partAt, type Doc } from './model.ts';
import { placeId } from './SchemaForm.tsx';
import { Languages, madeOutOfDate, type LanguageStates } from './Languages.tsx';
import { kindOfPath } from '../../../core/descriptors/kinds.ts';
import { renderProblems } from './render-check.ts';
import { TryLender } from './TryLender.tsx';
import { labels } from '../../../codegen/generated/labels.ts';
import { History, type HistoryStep } from './History.tsx';
import { useSavedDrafts } from './saved-drafts.ts';
import { Find, type Search } from './Find.tsx';
import { Reviews } from './Reviews.tsx';
import { findTexts, pointerPath, placeWords, usesOf } from './find.ts';

const metaFiles = import.meta.glob<Record<string, unknown>>('../../../screens/_meta/*.schema.json', { eager: true, import: 'default' });
const METAS: MetaSchemas = Object.fromEntries(Object.entries(metaFiles).map(([path, schema]) => [path.replace(/^.*\//, ''), schema]));


/** Who the preview and the render check show pages to: anyone, a patient, each role of the enumerations. */
const VISITORS = previewVisitors(labels);

const FILES = ['Studio_GetFiles'];
const HISTORY = ['Studio_GetHistory'];
const REVIEWS = ['Studio_GetReviews'];
const CHECK_DELAY_MS = 400;
/**
 * A draft state's check, kept this long: the studio mounted again meanwhile (the route settling, the live set swapped
 * in) reads it instead of asking the server twice; a publication or a rollback forgets it.
 */
const CHECK_FRESH_MS = 10_000;
const CHECK = 'Studio_CheckDraft';

const KIND_WORDS: Record<string, string> = {
  routes: 'Routes', menus: 'Menus', layouts: 'Layouts', conditions: 'Conditions', fragments: 'Shared parts', screen: 'Pages and dialogs', brand: 'Brands', lender: 'Lenders', language: 'Languages', states: 'State rules',
};

export default function Studio() {
  const queryClient = useQueryClient();
  const files = useQuery({ queryKey: FILES, queryFn: async () => (await callOperation('Studio_GetFiles')) as StudioFiles });
  const history = useQuery({ queryKey: HISTORY, queryFn: async () => ((await callOperation('Studio_GetHistory')) as StudioHistory).publications });
  const reviews = useQuery({ queryKey: REVIEWS, queryFn: async () => (await callOperation('Studio_GetReviews')) as StudioReviews });
  const approvalsRequired = reviews.data?.approvalsRequired ?? true;
  const waitingReviews = (reviews.data?.reviews ?? []).filter((r) => r.state === 'Pending').length;
  const { drafts, edit: editDrafts, reset: resetDrafts, undo, redo, loaded, state: draftState, others } = useSavedDrafts();
  const [chosen, setSelected] = useState<string>();
  const [filter, setFilter] = useState('');
  // The checks' answer and the drafts it is for: drafts changed since are not checked yet, so not publishable.
  const [check, setCheck] = useState<{ of: unknown; errors: string[]; notices: string[]; languages: LanguageStates }>({ of: undefined, errors: [], notices: [], languages: [] });
  // The owner's choice to publish texts the drafts make out of date in a language (decision 0255).
  const [outOfDateChosen, setOutOfDateChosen] = useState(false);
  const [note, setNote] = useState('');
  // When a change asked for review is to go live once approved (empty: as soon as it is approved).
  const [publishAt, setPublishAt] = useState('');
  const [newId, setNewId] = useState('');
  const [newKind, setNewKind] = useState<NewKind>('brand');

  const all = files.data?.files ?? [];
  const shared = useMemo(() => sharedParts(all), [all]);
  const brandId = defaultBrand(all);
  const selected = chosen ?? `brands/${brandId}.json`;
  const known = useMemo(() => {
    const byPath = new Map(all.map((f) => [f.path, f]));
    for (const path of Object.keys(drafts)) if (!byPath.has(path)) byPath.set(path, { path, kind: kindOfPath(path) ?? 'brand', doc: {}, published: false, deployed: false });
    return byPath;
  }, [all, drafts]);
  const file = known.get(selected);
  const liveFile = all.find((f) => f.path === selected);
  const text = drafts[selected] ?? (file ? pretty(file.doc) : '');
  const parsed = parseDraft(text);
  const changed = useMemo(() => draftFiles(all, drafts), [all, drafts]);
  const changedCount = Object.keys(changed).length;
  // The drafts by their content: the files reloading (the live set, the list) make a new object of the same drafts,
  // which is not a new draft to check.
  const changedKey = useMemo(() => JSON.stringify(changed), [changed]);
  const steps = useMemo(() => wizardSteps(all, changed), [all, changed]);

  // 'Go to' a place (a field that cannot take effect names the part that shows instead): its file, then the place.
  const [goingTo, setGoingTo] = useState<Place>();
  const [tab, setTab] = useState('form');
  // The part of the file the form shows alone, once gone to (one part at a time); none: the whole file.
  const [focus, setFocus] = useState<string[]>();
  const open = (path: string | undefined) => {
    setSelected(path);
    setFocus(undefined);
  };
  const goTo = (place: Place) => {
    setSelected(place.path);
    setTab('form');
    setFocus(pointerPath(place.pointer));
    setGoingTo(place);
  };
  useEffect(() => {
    if (!goingTo || goingTo.path !== selected) return;
    // The place itself, or the part that holds it (an expression, a shared part's use).
    const steps = pointerPath(goingTo.pointer);
    const target = steps.map((_, i) => document.getElementById(placeId(steps.slice(0, steps.length - i)))).find(Boolean);
    target?.scrollIntoView({ block: 'center' });
    target?.querySelector<HTMLElement>('input, select, textarea, button')?.focus();
    setGoingTo(undefined);
  }, [goingTo, selected]);
  const [search, setSearch] = useState<Search>({ query: '' });
  // Every file as the drafts have it (a draft that is not JSON yet: as live), which the search reads.
  const docs = useMemo(() => {
    const byPath = new Map<string, Doc>();
    for (const [path, f] of known) {
      const draft = drafts[path] === undefined ? undefined : parseDraft(drafts[path]);
      byPath.set(path, draft && 'doc' in draft ? draft.doc : f.doc);
    }
    return byPath;
  }, [known, drafts]);
  const onPick = useCallback(
    ({ text, path, brand }: { text: string; path: string; brand: string }) => {
      const search = { seen: text, near: filesOfPage(docs, path, brand) };
      setSearch(search);
      const [best] = findTexts(docs, search, search.near);
      if (best) goTo(best.place);
    },
    [docs],
  );

  // The build's checks over the live set with the drafts in it, a moment after the last keystroke.
  const checking = changedCount > 0 && check.of !== changedKey;
  const errors = changedCount > 0 ? check.errors : [];
  const needsChoice = changedCount > 0 && madeOutOfDate(check.languages).length > 0;
  // Without drafts it runs too: each language's state (texts published out of date) shows whenever the studio is open.
  useEffect(() => {
    let current = true;
    const timer = setTimeout(() => {
      queryClient
        .fetchQuery({ queryKey: [CHECK, changedKey], queryFn: () => callOperation('Studio_CheckDraft', { body: { files: changed } }), staleTime: CHECK_FRESH_MS })
        .then((answer) => {
          if (current) setCheck({ of: changedKey, ...(answer as StudioCheck) });
        })
        // Publishing is still held to the same checks by the API.
        .catch((error: unknown) => {
          toasts.error(error, 'The draft could not be checked.');
          if (current) setCheck((last) => ({ ...last, of: changedKey }));
        });
    }, CHECK_DELAY_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [changedKey]);

  const edit = (next: string) => editDrafts((current) => ({ ...current, [selected]: next }));
  const editAt = (path: readonly string[], value: unknown) => {
    if ('doc' in parsed) edit(pretty(setAt(parsed.doc, path, value)));
  };

  const refresh = async () => {
    queryClient.removeQueries({ queryKey: [CHECK] });
    await Promise.all([queryClient.invalidateQueries({ queryKey: FILES }), queryClient.invalidateQueries({ queryKey: HISTORY }), queryClient.invalidateQueries({ queryKey: REVIEWS })]);
  };
  const [renderErrors, setRenderErrors] = useState<string[]>([]);
  // Every route the drafts touch must still render, in the real app (the build's checks cannot see that): before they
  // are published, or asked for review.
  const rendered = async () => {
    const brand = Object.keys(changed).find((p) => p.startsWith('brands/'))?.slice('brands/'.length, -'.json'.length) ?? brandId;
    const problems = await renderProblems(previewSet(all, changed), renderVisits(all, changed, VISITORS), brand);
    setRenderErrors(problems);
    if (problems.length) throw new Error(`${problems.length} page(s) do not render: ${problems.join('; ')}`);
  };
  const publish = useMutation({
    mutationFn: async () => {
      await rendered();
      return callOperation('Studio_Publish', { body: { files: changed, note, ...(needsChoice ? { publishOutOfDate: true } : {}) } });
    },
    onSuccess: async () => {
      toasts.success(`Published: ${Object.keys(changed).length} file(s) are live. People see them on their next page.`);
      resetDrafts({});
      setNote('');
      setOutOfDateChosen(false);
      await refresh();
    },
    onError: (error) => toasts.error(error, 'Nothing was published.'),
  });
  const askReview = useMutation({
    mutationFn: async () => {
      await rendered();
      return callOperation('Studio_AskReview', { body: { files: changed, note, ...(needsChoice ? { publishOutOfDate: true } : {}), ...(publishAt ? { publishAt: new Date(publishAt).toISOString() } : {}) } });
    },
    onSuccess: async () => {
      toasts.success(`Asked for review: ${Object.keys(changed).length} file(s) wait for a second product owner under Reviews.`);
      resetDrafts({});
      setNote('');
      setPublishAt('');
      setOutOfDateChosen(false);
      setTab('reviews');
      await refresh();
    },
    onError: (error) => toasts.error(error, 'Nothing was asked.'),
  });
  // A publication's set as the browser loads it (its hash; none for the files as deployed), shown in the preview.
  const [asItWas, setAsItWas] = useState<{ id: number; set: DescriptorSet }>();
  const seeAsItWas = useMutation({
    mutationFn: async (p: StudioPublication) => ({ id: p.id, set: p.hash ? ((await callOperation('Descriptors_GetSet', { params: { hash: p.hash } })) as DescriptorSet) : BUILT_SET }),
    onSuccess: setAsItWas,
    onError: (error) => toasts.error(error, 'That publication could not be read.'),
  });
  const restore = useMutation({
    mutationFn: ({ kind, id }: HistoryStep) => callOperation(kind === 'restore' ? 'Studio_Rollback' : 'Studio_Revert', { body: { id, note } }),
    onSuccess: async (_published, { kind }) => {
      toasts.success(kind === 'restore' ? 'Rolled back: those files are live again.' : 'Undone: its files are as they were before it.');
      resetDrafts({});
      setNote('');
      await refresh();
    },
    onError: (error) => toasts.error(error, 'Nothing was rolled back.'),
  });

  // A published file back as deployed; one the deployment lacks (a new brand, lender or language) is removed (decision 0239).
  const putBack = useMutation({
    mutationFn: () => callOperation('Studio_Publish', { body: { files: { [selected]: null }, note } }),
    onSuccess: async () => {
      toasts.success(file?.deployed ? `${selected} is as deployed again.` : `${selected} is removed.`);
      resetDrafts(Object.fromEntries(Object.entries(drafts).filter(([path]) => path !== selected)));
      setNote('');
      open(undefined);
      await refresh();
    },
    onError: (error) => toasts.error(error, 'Nothing was published.'),
  });

  const fileErrors = errorsOf(errors, selected);
  const problems = useMemo(() => {
    const byPointer: Record<string, string[]> = {};
    for (const error of fileErrors) {
      const match = /^screens\/[^#:]+(#[^:]*)?: (.*)$/.exec(error);
      const pointer = match?.[1] ?? '#/';
      (byPointer[pointer] ??= []).push(match?.[2] ?? error);
    }
    return byPointer;
  }, [fileErrors]);
  const schema = file && 'doc' in parsed ? schemaOfFile(selected, parsed.doc, METAS) : undefined;
  const part = schema && focus && 'doc' in parsed ? partAt(schema, parsed.doc, focus, METAS) : undefined;
  const brands = [...known.values()].filter((f) => f.path.startsWith('brands/')).map((f) => f.path.slice('brands/'.length, -'.json'.length));
  const groups = Object.entries(KIND_WORDS).map(([kind, label]) => ({ label, files: [...known.values()].filter((f) => f.kind === kind && f.path.includes(filter.trim())) }));
  const canPublish = changedCount > 0 && errors.length === 0 && !checking && note.trim().length > 0 && (!needsChoice || outOfDateChosen) && Object.values(drafts).every((t) => 'doc' in parseDraft(t));

  if (files.isLoading || reviews.isLoading || !loaded) return <Text>Loading…</Text>;
  if (files.isError) return <Text role="alert">The files could not be read.</Text>;

  return (
    <Stack gap="4">
      <Heading as="h1" size="lg">
        Studio
      </Heading>
      <Flex gap="4" align="flex-start" wrap={{ base: 'wrap', xl: 'nowrap' }}>
        <Stack as="nav" aria-label="Files" w={{ base: 'full', xl: '64' }} flexShrink={0} gap="3">
          <Find docs={docs} search={search} onSearch={setSearch} onGoTo={goTo} />
          <Input size="sm" aria-label="Find a file" placeholder="Find a file" value={filter} onChange={(e) => setFilter(e.target.value)} />
          <Box maxH="60vh" overflowY="auto">
            {groups.map((group) => (
              <Box key={group.label} mb="2">
                <Text fontSize="xs" fontWeight="bold" color="fg.muted" textTransform="uppercase">
                  {group.label}
                </Text>
                {group.files.map((f) => (
                  <Button
                    key={f.path}
                    size="xs"
                    variant={f.path === selected ? 'solid' : 'ghost'}
                    w="full"
                    justifyContent="flex-start"
                    // A file that says what it holds (the shared parts' files) says it on the pointer.
                    title={typeof f.doc.description === 'string' ? f.doc.description : undefined}
                    onClick={() => open(f.path)}
                    aria-current={f.path === selected ? 'true' : undefined}
                  >
                    {f.path}
                    {drafts[f.path] !== undefined && changed[f.path] ? ' •' : ''}
                    {f.published ? ' (published)' : ''}
                  </Button>
                ))}
              </Box>
            ))}
          </Box>
          <Stack gap="1">
            <chakra.label htmlFor="studio-new-file" fontSize="sm">
              New {NEW_FILES[newKind].words}
            </chakra.label>
            <Flex gap="2">
              <NativeSelect.Root size="sm" width="7rem">
                <NativeSelect.Field aria-label="New file's kind" value={newKind} onChange={(e) => setNewKind(e.target.value as NewKind)}>
                  {Object.entries(NEW_FILES).map(([kind, { label }]) => (
                    <option key={kind} value={kind}>
                      {label}
                    </option>
                  ))}
                </NativeSelect.Field>
                <NativeSelect.Indicator />
              </NativeSelect.Root>
              <Input id="studio-new-file" size="sm" placeholder={NEW_FILES[newKind].example} value={newId} onChange={(e) => setNewId(e.target.value.toLowerCase())} />
              <Button
                size="sm"
                disabled={!/^[a-z][a-z0-9-]{1,30}$/.test(newId) || known.has(`${NEW_FILES[newKind].place}/${newId}.json`)}
                onClick={() => {
                  const { place, start } = NEW_FILES[newKind];
                  const path = `${place}/${newId}.json`;
                  editDrafts((current) => ({ ...current, [path]: pretty(start(all, newId)) }));
                  open(path);
                  setNewId('');
                }}
              >
                Add
              </Button>
            </Flex>
          </Stack>
        </Stack>

        <Stack flex="1" minW="0" gap="3">
          <Flex align="center" gap="2" wrap="wrap">
            <Heading as="h2" size="md">
              {selected}
            </Heading>
            {changed[selected] ? <Badge colorPalette="orange">Draft</Badge> : null}
            {file?.published ? <Badge colorPalette="blue">Published</Badge> : null}
            {checking ? <Text fontSize="sm">Checking…</Text> : null}
          </Flex>
          {'error' in parsed ? (
            <Text color="fg.error" role="alert">
              {parsed.error}
            </Text>
          ) : null}
          <Problems title={`${fileErrors.length} problem(s) in this file; it cannot be published until they are fixed:`} lines={fileErrors} />
          {errors.length > fileErrors.length ? (
            <Text fontSize="sm" color="fg.error">
              Other drafts have {errors.length - fileErrors.length} problem(s): {[...new Set(errors.filter((e) => !fileErrors.includes(e)).map((e) => e.split(/[#:]/)[0]))].join(', ')}
            </Text>
          ) : null}
          <Tabs.Root value={tab === 'try' && file?.kind !== 'lender' ? 'form' : tab} onValueChange={(e) => setTab(e.value)} lazyMount variant="line">
            <Tabs.List>
              <Tabs.Trigger value="form">Form</Tabs.Trigger>
              <Tabs.Trigger value="json">JSON</Tabs.Trigger>
              <Tabs.Trigger value="diff">Changes</Tabs.Trigger>
              <Tabs.Trigger value="history">History</Tabs.Trigger>
              <Tabs.Trigger value="reviews">Reviews{waitingReviews ? ` (${waitingReviews} waiting)` : ''}</Tabs.Trigger>
              {file?.kind === 'lender' ? <Tabs.Trigger value="try">Try it</Tabs.Trigger> : null}
            </Tabs.List>
            <Tabs.Content value="form">
              {part ? (
                <Flex gap="2" align="center" mb="2" wrap="wrap">
                  <Text fontSize="sm">Only {placeWords(part.path)}.</Text>
                  <Button size="xs" variant="outline" onClick={() => setFocus(undefined)}>
                    Show the whole file
                  </Button>
                </Flex>
              ) : null}
              {schema && 'doc' in parsed ? (
                <SchemaForm shown={part} onFocus={(path) => setFocus([...path])} usesOf={(name) => usesOf(docs, name)} schema={schema.schema} file={schema.file} metas={METAS} value={parsed.doc} onChange={editAt} problems={problems} shared={shared} path={selected} step={steps.get(selected)} onGoTo={goTo} />
              ) : (
                <Text>Fix the JSON first, or edit it in the JSON tab.</Text>
              )}
            </Tabs.Content>
            <Tabs.Content value="json">
              <Textarea aria-label={`${selected} as JSON`} fontFamily="mono" fontSize="sm" rows={28} spellCheck={false} value={text} onChange={(e) => edit(e.target.value)} />
            </Tabs.Content>
            <Tabs.Content value="diff">
              <Changes before={liveFile ? pretty(liveFile.doc) : ''} after={text} />
            </Tabs.Content>
            <Tabs.Content value="history">
              <History publications={history.data ?? []} note={note} onConfirm={(step) => restore.mutate(step)} onSee={(p) => seeAsItWas.mutate(p)} busy={restore.isPending} />
            </Tabs.Content>
            <Tabs.Content value="reviews">
              <Reviews reviews={reviews.data?.reviews ?? []} approvalsRequired={approvalsRequired} files={all} brands={brands} brand={brandId} visitors={VISITORS} onChanged={refresh} />
            </Tabs.Content>
            {file?.kind === 'lender' ? (
              <Tabs.Content value="try">
                {'doc' in parsed ? (
                  <TryLender
                    path={selected}
                    doc={parsed.doc}
                    drafts={changed}
                    blocked={checking ? 'Checking the drafts…' : errors.length ? 'Fix the problems of the drafts first: a lender is tried as its file would be published.' : undefined}
                    onGoTo={goTo}
                  />
                ) : (
                  <Text>Fix the JSON first.</Text>
                )}
              </Tabs.Content>
            ) : null}
          </Tabs.Root>
          <Problems title="Not published: these pages do not render with the drafts." lines={renderErrors} />
          <Problems title="Good to know before you publish:" lines={changedCount > 0 ? check.notices : []} tone="info" />
          <Languages languages={check.languages} chosen={outOfDateChosen} onChoose={setOutOfDateChosen} onGoTo={goTo} />
          <Stack gap="2" borderTopWidth="1px" pt="3">
            <chakra.label htmlFor="studio-note" fontWeight="medium" fontSize="sm">
              What changes, and why (kept in the history)
            </chakra.label>
            <Input id="studio-note" size="sm" value={note} maxLength={500} onChange={(e) => setNote(e.target.value)} />
            <Flex gap="2" align="center" wrap="wrap">
              <chakra.label htmlFor="studio-publish-at" fontSize="sm">
                Publish at (once approved; empty: at once)
              </chakra.label>
              <Input id="studio-publish-at" size="sm" type="datetime-local" width="auto" value={publishAt} onChange={(e) => setPublishAt(e.target.value)} />
            </Flex>
            <Flex gap="2" align="center" wrap="wrap">
              {approvalsRequired ? null : (
                <Button colorPalette="brand" disabled={!canPublish || publish.isPending || publishAt !== ''} onClick={() => publish.mutate()}>
                  Publish {changedCount ? `${changedCount} file(s)` : ''}
                </Button>
              )}
              <Button colorPalette="brand" variant={approvalsRequired ? 'solid' : 'outline'} disabled={!canPublish || askReview.isPending} onClick={() => askReview.mutate()}>
                Ask for review
              </Button>
              <Button variant="ghost" disabled={changedCount === 0} onClick={() => editDrafts({})}>
                Discard drafts
              </Button>
              <Button variant="ghost" disabled={!undo} onClick={undo}>
                Undo
              </Button>
              <Button variant="ghost" disabled={!redo} onClick={redo}>
                Redo
              </Button>
              {file?.published ? (
                <Button variant="outline" colorPalette="red" disabled={!note.trim() || putBack.isPending} onClick={() => putBack.mutate()}>
                  {file.deployed ? 'Put this file back as deployed' : 'Remove this file'}
                </Button>
              ) : null}
              {publish.isPending || askReview.isPending ? <Text fontSize="sm">Rendering the pages it changes…</Text> : null}
              {approvalsRequired ? <Text fontSize="sm">A second product owner approves each change before it goes live.</Text> : null}
              <Text fontSize="sm" color="fg.muted">
                {changedCount === 0 ? 'No drafts.' : errors.length ? 'Fix the problems to publish.' : !note.trim() ? 'Say what changes to publish.' : needsChoice && !outOfDateChosen ? 'Translate the texts out of date, or choose to publish them so.' : ''}
              </Text>
              <Text fontSize="sm" color={draftState === 'failed' ? 'fg.error' : 'fg.muted'} role="status" aria-label="Drafts saved">
                {draftState === 'failed' ? 'Your drafts could not be saved: keep this tab open and try again.' : draftState === 'saving' ? 'Saving your drafts…' : Object.keys(drafts).length ? 'Your drafts are saved: they are here after a reload or on another device.' : ''}
              </Text>
            </Flex>
            {others.map((other) => (
              <Text key={other.owner} fontSize="sm" color="fg.muted">
                Also drafting: {other.owner}, {other.files.join(', ')} (saved {new Date(other.savedAtUtc).toLocaleString()}).
              </Text>
            ))}
          </Stack>
        </Stack>

        <Box w={{ base: 'full', xl: '30rem' }} flexShrink={0}>
          <Preview key={brandId} files={all} drafts={changed} brands={brands} brand={brandId} visitors={VISITORS} onPick={onPick} asItWas={asItWas && { ...asItWas, onLeave: () => setAsItWas(undefined) }} />
        </Box>
      </Flex>
    </Stack>
  );
}

/** A list of problems under its title, said to screen readers as it appears; nothing when there are none. */
function Problems({ title, lines, tone = 'error' }: { title: string; lines: readonly string[]; tone?: 'error' | 'info' }) {
  if (lines.length === 0) return null;
  return (
    <Box role={tone === 'error' ? 'alert' : 'status'} borderWidth="1px" borderColor={tone === 'error' ? 'border.error' : 'border.info'} borderRadius="md" p="2">
      <Text fontWeight="semibold" fontSize="sm">
        {title}
      </Text>
      {lines.map((line) => (
        <Text key={line} fontSize="sm" fontFamily="mono">
          {line}
        </Text>
      ))}
    </Box>
  );
}
