/**
 * `npm start`: builds the web app when the build is missing or older than its sources, then starts
 * the whole product (web app, API, identity provider, sandbox lenders, outbox) in one process.
 */
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../core/contract/documents.ts';

const SOURCES = ['src', 'schemas', 'screens', 'openapi', 'codegen', 'index.html', 'vite.config.ts', 'package-lock.json'];
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

const wanted = sourcesHash();
const built = existsSync(STAMP) ? readFileSync(STAMP, 'utf8') : '';
if (built !== wanted || !existsSync(join(ROOT, 'dist', 'index.html'))) {
  console.log('Building the web app (sources changed or no build yet)…');
  const result = spawnSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
  writeFileSync(STAMP, sourcesHash());
}

await import('../server/main.ts');
