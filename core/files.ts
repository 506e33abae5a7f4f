import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The files under a folder, at any depth, whose names match (TypeScript sources unless told). */
export function filesUnder(dir: string, names = /\.tsx?$/): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(path, names);
    return names.test(entry.name) ? [path] : [];
  });
}
