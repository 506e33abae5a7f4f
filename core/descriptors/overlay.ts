/**
 * Descriptors named by a key (a brand's id, a lender's code): the deployed ones, with a studio publication's in place
 * of or beside them (decisions 0228, 0231). The web app and the server lay a publication over the same way.
 */
export function withPublished<T>(deployed: readonly T[], published: readonly T[], key: (doc: T) => string): T[] {
  const byKey = new Map(deployed.map((doc) => [key(doc), doc]));
  for (const doc of published) byKey.set(key(doc), doc);
  return [...byKey.values()];
}

/** A publication's files of a place ('brands', 'lenders', 'languages'): each file's name there and its document. */
export function filesOf(files: Readonly<Record<string, unknown>>, place: string): { name: string; doc: unknown }[] {
  const prefix = `${place}/`;
  return Object.entries(files).flatMap(([path, doc]) => (path.startsWith(prefix) ? [{ name: path.slice(prefix.length), doc }] : []));
}
