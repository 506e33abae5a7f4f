/**
 * The descriptor set the product runs on (issue 18, decision 0228): the files of screens/ deployed with the build,
 * with the newest studio publication laid over them. The browser gets the build's files in its bundle and, when a
 * publication is live, the files that differ (expanded, by content hash) from Descriptors_GetSet; every API answer
 * names the live hash, so an open tab learns of a publication with its next call and takes it on its next navigation.
 *
 * Each server process reads the newest publication at most every LIVE_TTL_MS (one indexed row), so with several
 * processes a publication is live everywhere within that time, with no message between them.
 */
import { createHash } from 'node:crypto';
import { desc, eq } from 'drizzle-orm';
import type { Db } from '../db/index.ts';
import { descriptorPublications } from '../db/schema.ts';
import { listDescriptorFiles } from '../../core/descriptors/screens.ts';
import { engineDocs, overlaid, type DescriptorFile } from '../../core/descriptors/set.ts';
import { canonicalJson } from '../../core/canonical-json.ts';

export const LIVE_TTL_MS = 2_000;

/** Where the browser loads a set (Descriptors_GetSet). */
export const descriptorSetPath = (hash: string) => `/api/Descriptors/GetSet/${hash}`;

export interface LiveSet {
  /** The publication (0: none, the build's files). */
  id: number;
  /** The overlay's content hash ('' for the build's files). */
  hash: string;
  /** The authored files the publication lays over the build's, by path under screens/. */
  overlay: Readonly<Record<string, unknown>>;
  /** The files the browser and the server's readers take in place of the deployed ones: expanded, current format. */
  served: Readonly<Record<string, unknown>>;
}

const BUILT: LiveSet = { id: 0, hash: '', overlay: {}, served: {} };

let built: DescriptorFile[] | undefined;
/** The files deployed with the build, read once. */
export const builtFiles = (): DescriptorFile[] => (built ??= listDescriptorFiles());

export const overlayHash = (overlay: Readonly<Record<string, unknown>>): string =>
  Object.keys(overlay).length === 0 ? '' : createHash('sha256').update(canonicalJson(overlay)).digest('hex').slice(0, 16);

let builtDocs: Map<string, unknown> | undefined;
let builtCanonical: Map<string, string> | undefined;

/** The deployed files as the engine reads them. */
export const builtExpanded = (): ReadonlyMap<string, unknown> => (builtDocs ??= engineDocs(builtFiles()));

/** The files of an overlaid set that the deployed ones (as the browser's bundle holds them) do not match: expanded. */
export function servedFiles(overlay: Readonly<Record<string, unknown>>): Record<string, unknown> {
  builtCanonical ??= new Map([...builtExpanded()].map(([path, doc]) => [path, canonicalJson(doc)]));
  const served: Record<string, unknown> = {};
  for (const [path, doc] of engineDocs(overlaid(builtFiles(), overlay))) {
    if (builtCanonical.get(path) !== canonicalJson(doc)) served[path] = doc;
  }
  return served;
}

export function liveSetOf(id: number, overlay: Readonly<Record<string, unknown>>): LiveSet {
  return id === 0 && Object.keys(overlay).length === 0 ? BUILT : { id, hash: overlayHash(overlay), overlay, served: servedFiles(overlay) };
}

/** The last live set read, per database (tests run several), and when. */
const current = new WeakMap<Db, { at: number; set: LiveSet }>();
/** Sets by hash: a tab opened before a publication may still ask for the set it started with. */
const byHash = new Map<string, LiveSet>();

/** The set this process read last, whichever database it came from (one in a deployment): for sync readers. */
let latest: LiveSet = BUILT;

/**
 * What a server reader makes of the live set (its brands, languages, lenders, state rules), made again only when
 * another set is live — the one way the server's readers follow a publication (decisions 0228, 0231, 0238, 0241).
 */
export function perLiveSet<T>(make: (set: LiveSet) => T): () => T {
  let made: { hash: string; value: T } | undefined;
  return () => {
    if (made?.hash !== latest.hash) made = { hash: latest.hash, value: make(latest) };
    return made.value;
  };
}

function remember(db: Db, set: LiveSet): LiveSet {
  current.set(db, { at: Date.now(), set });
  latest = set;
  if (set.hash) byHash.set(set.hash, set);
  return set;
}

/** The newest publication over the build's files, read now (inside a transaction, its own snapshot). */
export async function readLiveSet(db: Db, known?: LiveSet): Promise<LiveSet> {
  const [newest] = await db.select({ id: descriptorPublications.id }).from(descriptorPublications).orderBy(desc(descriptorPublications.id)).limit(1);
  if (!newest) return BUILT;
  if (known?.id === newest.id) return known;
  const [row] = await db.select({ overlay: descriptorPublications.overlay }).from(descriptorPublications).where(eq(descriptorPublications.id, newest.id));
  return liveSetOf(newest.id, row!.overlay);
}

/** The live set, as this process last read it (at most LIVE_TTL_MS ago). */
export async function liveSet(db: Db): Promise<LiveSet> {
  const known = current.get(db);
  if (known && Date.now() - known.at < LIVE_TTL_MS) return known.set;
  return remember(db, await readLiveSet(db, known?.set));
}

/** Makes a set live in this process at once (the others read it within LIVE_TTL_MS). */
export const nowLive = (db: Db, set: LiveSet): LiveSet => remember(db, set);

/** A set that is or was live, by its hash; undefined when no publication has it. */
export async function setByHash(db: Db, hash: string): Promise<LiveSet | undefined> {
  const known = byHash.get(hash);
  if (known) return known;
  const [row] = await db
    .select({ id: descriptorPublications.id, overlay: descriptorPublications.overlay })
    .from(descriptorPublications)
    .where(eq(descriptorPublications.hash, hash))
    .orderBy(desc(descriptorPublications.id))
    .limit(1);
  if (!row) return undefined;
  const set = liveSetOf(row.id, row.overlay);
  byHash.set(hash, set);
  return set;
}
