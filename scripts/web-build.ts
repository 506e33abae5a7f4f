/**
 * The web app built from the working tree (dist/): built again when it is missing or older than its sources, so that
 * `npm start` serves, and `npm run bench` measures, the code as it is.
 */
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../core/contract/documents.ts';

/** Everything the build reads: the web app imports the UI-free core, codegen writes what it imports. */
const SOURCES = ['src', 'core', 'schemas', 'screens', 'openapi', 'codegen', 'public', 'index.html', 'vite.config.ts', 'tsconfig.json', 'package-lock.json'];
const STAMP = join(ROOT, 'dist', '.sources-hash');

function hashTree(hash: ReturnType<typeof createHash>, path: string): void {
  if (!existsSync(path)) return;
  if (statSync(path).isDirectory()) {
    for (const name of readdirSync(path).sort()) hashTree(hash, join(path, name));
    return;
  }
  hash.update(path.slice(ROOT.length)).update(readFileSync(path));
}

function sourcesHash(): string {
  const hash = createHash('sha256');
  for (const source of SOURCES) hashTree(hash, join(ROOT, source));
  return hash.digest('hex');
}

/** Builds the web app unless dist/ was built from the sources as they are; exits with the build's status when it fails. */
export function ensureWebBuild(): void {
  const built = existsSync(STAMP) ? readFileSync(STAMP, 'utf8') : '';
  if (built === sourcesHash() && existsSync(join(ROOT, 'dist', 'index.html'))) return;
  console.log('Building the web app (sources changed or no build yet)…');
  const result = spawnSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
  // The build's codegen rewrites generated files: the stamp is of the sources after it.
  writeFileSync(STAMP, sourcesHash());
}
