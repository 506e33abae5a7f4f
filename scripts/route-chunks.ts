import { dirname, posix, relative } from 'node:path';
import type { Plugin, Rolldown } from 'vite';
import { ROUTE_CHUNKS_FILE, type RouteChunks } from '../core/route-chunks.ts';

/**
 * Writes core/route-chunks.ts' map for the built app: which chunks each screen kind, layout, page, form schema and
 * language loads, with the chunks those import, less what the entry already holds.
 */

/** The engine's registries of loads by name (`name: () => import('./file')`), from the package root. */
const REGISTRIES: Record<string, 'kind' | 'layout' | 'form'> = {
  'src/engine/screens/index.ts': 'kind',
  'src/engine/layouts/index.ts': 'layout',
  'codegen/generated/forms/index.ts': 'form',
};
/** Descriptor files that are chunks of their own, by their name. */
const FILES = { page: /^screens\/pages\/(.+)\.json$/, language: /^screens\/languages\/(.+)\.json$/ } as const;
/** What a screen of these kinds loads besides its own chunk: the widget registry and the field widgets (src/widgets). */
const KIND_USES: Record<string, string[]> = {
  form: ['src/widgets/index.ts', 'src/widgets/fields.tsx'],
  wizard: ['src/widgets/index.ts', 'src/widgets/fields.tsx'],
};
const LOAD = /(\w+):\s*\(\)\s*=>\s*import\(\s*["']([^"']+)["']\s*\)/g;

export function routeChunks(root: string): Plugin {
  const fromRoot = (id: string) => relative(root, id.split('?')[0]!).split('\\').join('/');
  const named = new Map<'kind' | 'layout' | 'form', Map<string, string>>();
  return {
    name: 'pos-route-chunks',
    apply: 'build',
    async transform(code, id) {
      const category = REGISTRIES[fromRoot(id)];
      if (!category) return null;
      const loads = new Map<string, string>();
      for (const [, name, specifier] of code.matchAll(LOAD)) {
        const resolved = await this.resolve(specifier!, id);
        if (resolved) loads.set(name!, fromRoot(resolved.id));
      }
      if (loads.size === 0) this.error(`${fromRoot(id)}: no \`name: () => import('./file')\` loads found for the route chunks`);
      named.set(category, loads);
      return null;
    },
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((file): file is Rolldown.OutputChunk => file.type === 'chunk');
      const entry = chunks.find((chunk) => chunk.isEntry);
      if (!entry) return;
      // A registry moved or renamed would leave its screens without their early code, silently.
      for (const [file, category] of Object.entries(REGISTRIES)) if (!named.has(category)) this.error(`${file}: the route chunks' registry of ${category}s was not built`);
      const byModule = new Map<string, Rolldown.OutputChunk>();
      for (const chunk of chunks) for (const id of chunk.moduleIds) byModule.set(fromRoot(id), chunk);
      const closure = (chunk: Rolldown.OutputChunk, into = new Set<string>()): Set<string> => {
        if (into.has(chunk.fileName)) return into;
        into.add(chunk.fileName);
        for (const file of chunk.imports) if (bundle[file]?.type === 'chunk') closure(bundle[file] as Rolldown.OutputChunk, into);
        return into;
      };
      const initial = closure(entry);
      const filesOf = (...modules: string[]) => {
        const files = new Set<string>();
        for (const module of modules) {
          const chunk = byModule.get(module);
          if (chunk) for (const file of closure(chunk)) if (!initial.has(file)) files.add(posix.relative(dirname(entry.fileName), file));
        }
        return [...files];
      };
      const map: RouteChunks = { kind: {}, layout: {}, page: {}, form: {}, language: {} };
      for (const [category, loads] of named) {
        for (const [name, module] of loads) map[category][name] = filesOf(module, ...(category === 'kind' ? (KIND_USES[name] ?? []) : []));
      }
      for (const module of byModule.keys()) {
        for (const [category, file] of Object.entries(FILES) as [keyof typeof FILES, RegExp][]) {
          const name = file.exec(module)?.[1];
          if (name) map[category][name] = filesOf(module);
        }
      }
      this.emitFile({ type: 'asset', fileName: ROUTE_CHUNKS_FILE, source: JSON.stringify(map) });
    },
  };
}
