/**
 * Writes `<file>.br` and `<file>.gz` beside every text file of a built web app, at the highest levels, once at build
 * time, so the server sends compressed files without compressing per request (server/http/web-app.ts, decision 0200).
 * index.html is left alone: the server fills it in and compresses it itself. Source maps are left alone too: only
 * developer tools fetch them.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';

const TEXT = /\.(js|mjs|css|svg|json|txt|webmanifest)$/;
/** Below this a compressed copy saves less than a network packet. */
const MIN_BYTES = 1024;

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

async function textFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile() && TEXT.test(e.name)).map((e) => join(e.parentPath, e.name));
}

/** Compresses the text files under `dir`; returns how many, and their bytes before and after brotli. */
export async function precompress(dir: string): Promise<{ files: number; bytes: number; brotliBytes: number }> {
  let files = 0;
  let bytes = 0;
  let brotliBytes = 0;
  await Promise.all(
    (await textFiles(dir)).map(async (file) => {
      const body = await readFile(file);
      if (body.length < MIN_BYTES) return;
      const [br, gz] = await Promise.all([
        brotli(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length } }),
        gzipAsync(body, { level: 9 }),
      ]);
      await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
      files += 1;
      bytes += body.length;
      brotliBytes += br.length;
    }),
  );
  return { files, bytes, brotliBytes };
}
