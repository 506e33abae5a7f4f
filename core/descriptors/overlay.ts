/**
 * A published set's files in place of the deployed ones, by their path or by their key — what the web app and the
 * server's readers do with a set that core/descriptors/set.ts read and checked. Apart from set.ts so that the pages'
 * bundle carries only this.
 */
import type { DescriptorKind } from './kinds.ts';
import { migrate } from './migrations.ts';

/** Documents by path under screens/: a publication's overlay, a draft, or the files a published set serves. */
export type SetFiles = Readonly<Record<string, unknown>>;

/**
 * Descriptors named by a key (a brand's id, a lender's code): the deployed ones, with a publication's in place of or
 * beside them.
 */
export function withPublished<T>(deployed: readonly T[], published: readonly T[], key: (doc: T) => string): T[] {
  const byKey = new Map(deployed.map((doc) => [key(doc), doc]));
  for (const doc of published) byKey.set(key(doc), doc);
  return [...byKey.values()];
}

/** A set's files of a place ('brands', 'lenders', 'languages'): each file's name there and its document. */
export function filesOf(files: SetFiles, place: string): { name: string; doc: unknown }[] {
  const prefix = `${place}/`;
  return Object.entries(files).flatMap(([path, doc]) => (path.startsWith(prefix) ? [{ name: path.slice(prefix.length), doc }] : []));
}

/** A file of a published set, or the deployed one it replaces: in the current format. */
export const publishedOr = <T,>(files: SetFiles, path: string, deployed: unknown, kind: DescriptorKind): T => migrate<T>(kind, files[path] ?? deployed).doc;
