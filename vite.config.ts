import { fileURLToPath } from 'node:url';
import { relative } from 'node:path';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { defineConfig, minify, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { routeChunks } from './scripts/route-chunks.ts';

const root = fileURLToPath(new URL('.', import.meta.url));
const shim = (file: string) => fileURLToPath(new URL(`./src/shims/${file}`, import.meta.url));
const FRAGMENTS = 'screens/fragments';

/** A module id as a path from the package root, with forward slashes ('screens/lenders/ally.json'). */
const fromRoot = (id: string) => relative(root, id.split('?')[0]!).split('\\').join('/');

/**
 * Every descriptor of screens/ is migrated and validated against its meta-schema (validators precompiled by
 * `npm run codegen`) and cross-checked when the build starts; a changed descriptor is checked again when Vite loads
 * it. An error names the file and the JSON pointer and stops the build (docs/decisions/0041-descriptor-formats.md).
 */
function descriptors(): Plugin[] {
  const whole: Plugin = {
    name: 'pos-descriptors',
    async buildStart() {
      const { checkDescriptors } = await import('./core/descriptors/screens.ts');
      const report = await checkDescriptors();
      for (const file of report.migrated) this.warn(`${file.file}: format ${file.from} read as ${file.to}; run npm run codegen to rewrite it`);
      if (report.errors.length) this.error(`invalid UI descriptors:\n  ${report.errors.join('\n  ')}`);
    },
  };
  // In `vite dev`, a descriptor is checked again whenever it changes (before Vite's JSON plugin turns it into code).
  const changed: Plugin = {
    name: 'pos-descriptors-changed',
    apply: 'serve',
    enforce: 'pre',
    async transform(code, id) {
      const rel = fromRoot(id);
      if (!rel.startsWith('screens/') || !rel.endsWith('.json') || rel.startsWith('screens/_meta/')) return null;
      const { checkDescriptors, listDescriptorFiles } = await import('./core/descriptors/screens.ts');
      const files = listDescriptorFiles().map((f) => (f.file === rel ? { ...f, text: code } : f));
      const report = await checkDescriptors(files);
      const own = report.errors.filter((e) => e.startsWith(rel));
      if (own.length) this.error(`invalid UI descriptor:\n  ${own.join('\n  ')}`);
      return null;
    },
  };
  return [whole, changed];
}

/**
 * Descriptor files as the browser gets them: fragment uses expanded (docs/decisions/0224), so the engine only ever
 * sees whole descriptors, without the parts only the server reads (a lender's sandbox, API mapping and eligibility:
 * core/descriptors/browser-parts.ts). It runs after the descriptor check, which reads the whole file.
 */
function descriptorFilesForTheBrowser(): Plugin {
  return {
    name: 'pos-descriptor-files',
    enforce: 'pre',
    async transform(code, id) {
      const rel = fromRoot(id);
      if (!rel.startsWith('screens/')) return null;
      const { kindOfPath } = await import('./core/descriptors/kinds.ts');
      const kind = kindOfPath(rel.slice('screens/'.length));
      if (!kind || kind === 'fragments') return null;
      const { readDescriptor } = await import('./core/descriptors/read.ts');
      // A changed shared part reaches every file on its next load.
      for (const name of readdirSync(fileURLToPath(new URL(`./${FRAGMENTS}`, import.meta.url)))) this.addWatchFile(fileURLToPath(new URL(`./${FRAGMENTS}/${name}`, import.meta.url)));
      const { forTheBrowser } = await import('./core/descriptors/browser-parts.ts');
      return { code: JSON.stringify(forTheBrowser(kind, readDescriptor<Record<string, unknown>>(kind, rel, code))), map: null };
    },
  };
}

/**
 * The first paint's script minified (decision 0299): every page carries it inline, and a phone's repeat view fetches
 * the page whole. Vite copies public/ into dist/ before it writes the bundle, so it is there to rewrite here, before
 * the compressed copies are made.
 */
function firstPaintMinified(): Plugin {
  return {
    name: 'pos-first-paint-minified',
    apply: 'build',
    async writeBundle() {
      const file = fileURLToPath(new URL('./dist/first-paint.js', import.meta.url));
      const { code, errors } = await minify('first-paint.js', readFileSync(file, 'utf8'), { compress: true, mangle: true });
      if (errors.length) this.error(`public/first-paint.js: ${errors.map((error) => error.message).join('; ')}`);
      writeFileSync(file, code);
    },
  };
}

/** Brotli and gzip copies of the built text files, for the server to send as they are (scripts/precompress.ts). */
function precompressed(): Plugin {
  return {
    name: 'pos-precompress',
    apply: 'build',
    async closeBundle() {
      const { precompress } = await import('./scripts/precompress.ts');
      const { files, bytes, brotliBytes } = await precompress(fileURLToPath(new URL('./dist', import.meta.url)));
      this.info(`compressed ${files} files: ${(bytes / 1024).toFixed(0)} KB → ${(brotliBytes / 1024).toFixed(0)} KB brotli`);
    },
  };
}

/** @rjsf/core parts the engine never renders (its own widgets replace the rest). */
const RJSF_UNUSED = new Set([
  './LayoutGridField.js', './LayoutHeaderField.js', './LayoutMultiSchemaField.js', './AltDateTimeWidget.js', './AltDateWidget.js',
  './CheckboxesWidget.js', './ColorWidget.js', './DateTimeWidget.js', './DateWidget.js', './FileWidget.js', './RadioWidget.js',
  './RangeWidget.js', './RatingWidget.js', './TimeWidget.js', './URLWidget.js',
]);

/** @rjsf/core fields few forms render, loaded when one does. */
const RJSF_LAZY: Record<string, string> = { './ArrayField.js': 'rjsf-array-field.ts', './MultiSchemaField.js': 'rjsf-multi-schema-field.ts' };

/**
 * Size shims for @rjsf, whose modules import each other by relative path (decision 0046): the allOf merger of
 * @rjsf/utils becomes a shallow one, its deep equality a small one, unused @rjsf/core fields and widgets a stub, and
 * the array and anyOf/oneOf fields lazy.
 */
function rjsfShims(): Plugin {
  return {
    name: 'pos-rjsf-shims',
    enforce: 'pre',
    resolveId(source, importer) {
      if (!importer) return null;
      if (source === './shallowAllOfMerge.js' && importer.includes('@rjsf/utils')) return shim('shallow-all-of-merge.ts');
      if (/^\.\.?\/deepEquals\.js$/.test(source) && importer.includes('@rjsf/utils')) return shim('deep-equals.ts');
      const parts = /@rjsf[\\/]core[\\/]lib[\\/]components[\\/](fields|widgets)[\\/]index\.js$/.exec(importer);
      if (!parts) return null;
      if (RJSF_UNUSED.has(source)) return shim('rjsf-unused.tsx');
      if (parts[1] === 'fields' && RJSF_LAZY[source]) return shim(RJSF_LAZY[source]);
      return null;
    },
  };
}

export default defineConfig({
  plugins: [react(), rjsfShims(), ...descriptors(), descriptorFilesForTheBrowser(), routeChunks(root), firstPaintMinified(), precompressed()],
  resolve: {
    alias: [
      { find: /^markdown-to-jsx(\/react)?$/, replacement: shim('markdown-to-jsx.tsx') },
      { find: /^fast-uri$/, replacement: shim('fast-uri.ts') },
    ],
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    chunkSizeWarningLimit: 800,
    // Every module the entry imports statically loads on every route, so it goes into the entry chunk rather than
    // into as many small chunks as there are sets of lazy chunks sharing it (decision 0146).
    rolldownOptions: { output: { codeSplitting: { groups: [{ name: 'index', tags: ['$initial'] }] } } },
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:3000' },
  },
});
