import { useEffect, useRef, useState, type SetStateAction } from 'react';
import { useQuery } from '@tanstack/react-query';
import { callOperation } from '../api/client.ts';
import type { StudioDrafts } from '../../../codegen/generated/schemas.ts';

/** Texts of files by path, as the owner typed them. */
export type Drafts = Record<string, string>;

/** How long after the last keystroke the drafts are saved. */
const SAVE_AFTER_MS = 800;

/** Keystrokes closer together than this are one step of undo. */
const ONE_STEP_MS = 1000;

export interface SavedDrafts {
  drafts: Drafts;
  /** What the owner did: a step that Undo takes back. */
  edit(update: SetStateAction<Drafts>): void;
  /** What the studio did (published, rolled back): the drafts start afresh, with nothing to undo. */
  reset(drafts: Drafts): void;
  undo?: () => void;
  redo?: () => void;
  /** False until the owner's saved drafts are read: the studio offers no editing before, so nothing typed is lost. */
  loaded: boolean;
  /** 'saved' once the server has what is on screen; 'saving' while it does not yet; 'failed' when the last save failed. */
  state: 'saved' | 'saving' | 'failed';
  others: StudioDrafts['others'];
}

/**
 * The owner's drafts, kept on the server as they type (decision 0274): read once when the studio opens, saved a moment
 * after each change, and a page left while a save is still to happen asks first.
 */
export function useSavedDrafts(): SavedDrafts {
  const read = useQuery({ queryKey: ['Studio_GetDrafts'], queryFn: async () => (await callOperation('Studio_GetDrafts')) as StudioDrafts, staleTime: Infinity });
  const [drafts, setDrafts] = useState<Drafts>({});
  const [loaded, setLoaded] = useState(false);
  const [state, setState] = useState<SavedDrafts['state']>('saved');
  const savedText = useRef('{}');
  const latestText = useRef('{}');

  useEffect(() => {
    if (loaded || !read.data) return;
    const mine = Object.fromEntries(Object.entries(read.data.mine).flatMap(([path, text]) => (text === undefined ? [] : [[path, text]])));
    savedText.current = JSON.stringify(mine);
    setDrafts(mine);
    setLoaded(true);
  }, [read.data, loaded]);

  useEffect(() => {
    if (!loaded) return;
    const text = JSON.stringify(drafts);
    latestText.current = text;
    if (text === savedText.current) return setState('saved');
    setState('saving');
    const timer = setTimeout(() => {
      callOperation('Studio_SaveDraft', { body: { files: drafts } })
        .then(() => {
          savedText.current = text;
          if (latestText.current === text) setState('saved');
        })
        .catch(() => setState('failed'));
    }, SAVE_AFTER_MS);
    return () => clearTimeout(timer);
  }, [drafts, loaded]);

  useEffect(() => {
    if (state === 'saved') return;
    const ask = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [state]);

  // Undo and redo: the drafts before each step, and the steps taken back.
  const [past, setPast] = useState<Drafts[]>([]);
  const [future, setFuture] = useState<Drafts[]>([]);
  const lastEdit = useRef(0);
  const edit = (update: SetStateAction<Drafts>) => {
    const next = typeof update === 'function' ? update(drafts) : update;
    if (JSON.stringify(next) === JSON.stringify(drafts)) return;
    if (Date.now() - lastEdit.current > ONE_STEP_MS) setPast((steps) => [...steps, drafts]);
    lastEdit.current = Date.now();
    setFuture([]);
    setDrafts(next);
  };
  const reset = (next: Drafts) => {
    setPast([]);
    setFuture([]);
    setDrafts(next);
  };
  const undo = () => {
    setFuture((steps) => [drafts, ...steps]);
    setDrafts(past.at(-1)!);
    setPast((steps) => steps.slice(0, -1));
    lastEdit.current = 0;
  };
  const redo = () => {
    setPast((steps) => [...steps, drafts]);
    setDrafts(future[0]!);
    setFuture((steps) => steps.slice(1));
    lastEdit.current = 0;
  };

  return { drafts, edit, reset, ...(past.length ? { undo } : {}), ...(future.length ? { redo } : {}), loaded, state, others: read.data?.others ?? [] };
}
