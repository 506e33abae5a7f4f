/**
 * Finding a place by what a person sees (issue 41): the texts of every descriptor — in English as written, and in each
 * language through its translations — and the names (ids, routes, files) a product owner may know instead. A text the
 * preview shows is found by its whole words, a page's `{row.id}` standing for whatever the page put there; a text
 * typed into the search by any part of it. Without React, so the studio's search and the preview's pick share it.
 */
import { pointerSegment } from '../../../core/descriptors/errors.ts';
import { holdsSharedParts, type Doc, type Place } from './model.ts';

export interface Found {
  place: Place;
  /** The text as the file holds it. */
  text: string;
  /** The language whose translation matched ('Español'); none for the file's own text. */
  language?: string;
  /** For a text of a shared part: the places that use it, where it can be written out to change it there only. */
  uses?: Place[];
}

const LANGUAGES = 'languages/';
/** What a search lists at most: a product owner refines the words rather than reading hundreds. */
export const FOUND_LIMIT = 40;

const normal = (text: string) => text.replace(/\s+/g, ' ').trim().toLowerCase();

/** The words of a place's steps as the form shows them: ['sections', '2', 'text'] → 'Sections 3 › Text'. */
export function placeWords(steps: readonly string[]): string {
  const words = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/^./, (c) => c.toUpperCase());
  return steps.map((step, i) => (/^\d+$/.test(step) ? `${i > 0 ? words(steps[i - 1]!).replace(/s$/, '') : 'Item'} ${Number(step) + 1}` : words(step))).join(' › ') || 'The whole file';
}

/** A JSON pointer's steps, unescaped ('/texts/Yes~1No' → ['texts', 'Yes/No']). */
export const pointerPath = (pointer: string): string[] =>
  pointer
    .split('/')
    .slice(pointer.startsWith('/') ? 1 : 0)
    .filter((step, i) => i > 0 || step !== '#')
    .map((step) => step.replace(/~1/g, '/').replace(/~0/g, '~'));

interface Text {
  pointer: string;
  text: string;
}

/** Every string of a document a person could see or name: values, not the paths of a `var` or a `$use`'s own name. */
function textsOf(doc: unknown, pointer = ''): Text[] {
  if (typeof doc === 'string') return [{ pointer, text: doc }];
  if (Array.isArray(doc)) return doc.flatMap((item, i) => textsOf(item, `${pointer}/${i}`));
  if (!doc || typeof doc !== 'object') return [];
  return Object.entries(doc as Doc).flatMap(([key, value]) => (key === 'var' || key === '$use' || key === '$schema' || key === '$param' ? [] : textsOf(value, `${pointer}/${pointerSegment(key)}`)));
}

/** Whether a file's text is the whole of what was seen: its `{…}` parts stand for any words. */
function wholeMatch(text: string, seen: string): boolean {
  if (!text.includes('{')) return normal(text) === seen;
  const parts = normal(text).split(/\{[^{}]+\}/);
  // A text that is all answer ('{row.name}') holds none of the words seen.
  if (parts.join('').replace(/[^\p{L}\p{N}]/gu, '').length < 3) return false;
  const pattern = parts
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.+?');
  return new RegExp(`^${pattern}$`).test(seen);
}

/** The places a shared part is used: `{ "$use": name }` in any file, the other shared parts included. */
export function usesOf(docs: ReadonlyMap<string, Doc>, name: string): Place[] {
  const uses: Place[] = [];
  const walk = (path: string, node: unknown, pointer: string) => {
    if (Array.isArray(node)) node.forEach((item, i) => walk(path, item, `${pointer}/${i}`));
    else if (node && typeof node === 'object') {
      if ((node as Doc).$use === name) uses.push({ path, pointer, words: `${path}: ${placeWords(pointerPath(pointer))}` });
      for (const [key, value] of Object.entries(node as Doc)) walk(path, value, `${pointer}/${pointerSegment(key)}`);
    }
  };
  for (const [path, doc] of docs) walk(path, doc, '');
  return uses;
}

/** The shared part a place of a file of fragments/ belongs to ('/fragments/cancelSaveButtons/value/0' → 'cancelSaveButtons'). */
const fragmentOf = (place: Place) => (holdsSharedParts(place.path) ? pointerPath(place.pointer)[1] : undefined);

function found(docs: ReadonlyMap<string, Doc>, path: string, text: Text, language?: string): Found {
  const place = { path, pointer: text.pointer, words: `${path}: ${placeWords(pointerPath(text.pointer))}` };
  const fragment = fragmentOf(place);
  return { place, text: text.text, ...(language ? { language } : {}), ...(fragment ? { uses: usesOf(docs, fragment) } : {}) };
}

/**
 * The places that hold a text, best first. `seen` (a text the preview shows) is matched whole; else `query` is matched
 * as a part of a text, a name or a file's path. A language's translation that matches leads to its entry and to the
 * places of the text it translates. `near` names the files of the page in view, whose places come first.
 */
export function findTexts(docs: ReadonlyMap<string, Doc>, search: { seen: string } | { query: string }, near: ReadonlySet<string> = new Set()): Found[] {
  const wanted = normal('seen' in search ? search.seen : search.query);
  if (wanted.length < 2) return [];
  const matches = (text: string) => ('seen' in search ? wholeMatch(text, wanted) : normal(text).includes(wanted));
  const results: Found[] = [];
  // The translations first: a translation that matches leads to the texts it translates, wherever they are.
  const sources = new Set<string>();
  for (const [path, doc] of docs) {
    if (!path.startsWith(LANGUAGES) || doc.source === true) continue;
    const language = typeof doc.name === 'string' ? doc.name : path;
    for (const [source, translated] of Object.entries((doc.texts ?? {}) as Record<string, unknown>)) {
      if (typeof translated !== 'string' || !matches(translated)) continue;
      results.push(found(docs, path, { pointer: `/texts/${pointerSegment(source)}`, text: translated }, language));
      sources.add(source);
    }
  }
  for (const [path, doc] of docs) {
    if (path.startsWith(LANGUAGES)) continue;
    if (!('seen' in search) && normal(path).includes(wanted)) results.push({ place: { path, pointer: '', words: `${path}: the whole file` }, text: path });
    for (const text of textsOf(doc)) if (matches(text.text) || sources.has(text.text)) results.push(found(docs, path, text));
  }
  // Seen words that no text holds whole may be several texts side by side (a paragraph, a button with its count): the
  // longest texts within them.
  if ('seen' in search && results.length === 0) {
    const within = [...docs]
      .filter(([path]) => !path.startsWith(LANGUAGES))
      .flatMap(([path, doc]) => textsOf(doc).filter((text) => text.text.trim().length >= 4 && !text.text.includes('{') && wanted.includes(normal(text.text))).map((text) => found(docs, path, text)));
    results.push(...within.sort((a, b) => b.text.length - a.text.length));
  }
  // Words seen in a language are that language's: its entry comes first. Searched words come from the page first.
  const rank = (r: Found) => (r.language ? ('seen' in search ? -1 : 3) : near.has(r.place.path) ? 0 : r.uses?.some((use) => near.has(use.path)) ? 1 : 2);
  return results.sort((a, b) => rank(a) - rank(b)).slice(0, FOUND_LIMIT);
}
