import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../core/contract/documents.ts';
import { filesUnder } from '../../core/files.ts';

/**
 * The layers (issue 18, ../shared/ARCHITECTURE.md): one UI-free core that the web app (src/), the server, the lender
 * service (decision 0259) and codegen all import, and nothing else of each other — imports run one way, to the core
 * (and to what codegen generated). Read from the import statements of every source file.
 */
const LAYERS = ['core', 'src', 'server', 'lender-service'] as const;
type Layer = (typeof LAYERS)[number] | 'codegen';

/**
 * What each layer may not import: another layer's folder, or a package. What codegen writes (codegen/generated/) is
 * data every layer reads; the build's own code is not.
 */
const FORBIDDEN: Record<Layer, { folders: Array<Layer>; packages: RegExp | null }> = {
  core: { folders: ['src', 'server', 'lender-service', 'codegen'], packages: /^(react|react-dom|@chakra-ui|@rjsf|fastify|drizzle-orm|pg)(\/|$)/ },
  src: { folders: ['server', 'lender-service', 'codegen'], packages: null },
  server: { folders: ['src', 'lender-service', 'codegen'], packages: null },
  'lender-service': { folders: ['src', 'server', 'codegen'], packages: /^(react|react-dom|@chakra-ui|@rjsf|drizzle-orm|pg)(\/|$)/ },
  codegen: { folders: ['src', 'server', 'lender-service'], packages: /^(react|react-dom|@chakra-ui|@rjsf)(\/|$)/ },
};

/** The layer a file of the repository belongs to; undefined for codegen/generated/ and everything outside the layers. */
function layerOf(path: string): Layer | undefined {
  const parts = relative(ROOT, path).split(sep);
  if (parts[0] === 'codegen' && parts[1] === 'generated') return undefined;
  return (['core', 'src', 'server', 'lender-service', 'codegen'] as const).find((layer) => layer === parts[0]);
}

const SPECIFIER = /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function violations(layer: Layer): string[] {
  const rule = FORBIDDEN[layer];
  const found: string[] = [];
  for (const file of filesUnder(join(ROOT, layer)).filter((f) => !f.startsWith(join(ROOT, 'codegen', 'generated')))) {
    for (const match of readFileSync(file, 'utf8').matchAll(SPECIFIER)) {
      const specifier = match[1] ?? match[2]!;
      const where = relative(ROOT, file).split(sep).join('/');
      if (specifier.startsWith('.')) {
        const target = layerOf(resolve(dirname(file), specifier));
        if (target && rule.folders.includes(target)) found.push(`${where} imports ${specifier}`);
      } else if (rule.packages?.test(specifier)) found.push(`${where} imports ${specifier}`);
    }
  }
  return found;
}

/** Every import between the source files of the layers, dynamic ones included (a lazy import still ties two files). */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const layer of LAYERS) {
    for (const file of filesUnder(join(ROOT, layer))) {
      const targets = [...readFileSync(file, 'utf8').matchAll(SPECIFIER)]
        .map((m) => m[1] ?? m[2]!)
        .filter((specifier) => specifier.startsWith('.'))
        .map((specifier) => resolve(dirname(file), specifier));
      graph.set(file, targets);
    }
  }
  return graph;
}

/** The import circles of a graph: each as its files in order, found by a depth-first walk. */
function circles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') found.push(path.slice(path.indexOf(next)));
      else if (!state.has(next) && graph.has(next)) visit(next);
    }
    path.pop();
    state.set(file, 'done');
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return found;
}

/**
 * The room a file stands in, as farm-studio draws the house: a folder of server/ or src/ (those of server/domain/ and
 * src/engine/ each on their own), or the file itself when it stands alone.
 */
function roomOf(file: string): string | undefined {
  const parts = relative(ROOT, file).split(sep);
  if (parts[0] !== 'server' && parts[0] !== 'src') return undefined;
  const depth = (parts[0] === 'server' && parts[1] === 'domain') || (parts[0] === 'src' && parts[1] === 'engine') ? 3 : 2;
  return parts.slice(0, Math.min(depth, parts.length)).join('/');
}

/** The imports between rooms: a room importing another, once. */
function roomGraph(files: Map<string, string[]>): Map<string, string[]> {
  const rooms = new Map<string, Set<string>>();
  for (const [file, targets] of files) {
    const from = roomOf(file);
    if (!from) continue;
    const to = rooms.get(from) ?? new Set<string>();
    rooms.set(from, to);
    for (const target of targets) {
      const room = roomOf(target);
      if (room && room !== from) to.add(room);
    }
  }
  return new Map([...rooms].map(([room, to]) => [room, [...to]]));
}

describe('the layers', () => {
  for (const layer of Object.keys(FORBIDDEN) as Layer[]) {
    it(`${layer}/ imports nothing of ${[...FORBIDDEN[layer].folders].join(' or ')}${FORBIDDEN[layer].packages ? ', nor a UI or server package' : ''}`, () => {
      expect(violations(layer)).toEqual([]);
    });
  }

  it('the engine (src/engine/) imports nothing of the app (src/app/) nor its widgets: the app gives them to it', () => {
    const outside = [join(ROOT, 'src', 'app'), join(ROOT, 'src', 'widgets')];
    const found = filesUnder(join(ROOT, 'src', 'engine')).flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(SPECIFIER)]
        .map((m) => m[1] ?? m[2]!)
        .filter((specifier) => specifier.startsWith('.') && outside.some((dir) => resolve(dirname(file), specifier).startsWith(dir + sep)))
        .map((specifier) => `${relative(ROOT, file)} imports ${specifier}`),
    );
    expect(found).toEqual([]);
  });

  it("the web app reaches no Node.js built-in through anything it imports (the core's among them): it runs in a browser", () => {
    const reached = new Set<string>();
    const queue = filesUnder(join(ROOT, 'src'));
    const found: string[] = [];
    while (queue.length) {
      const file = queue.pop()!;
      if (reached.has(file)) continue;
      reached.add(file);
      // A type-only import brings no code into the bundle.
      for (const match of readFileSync(file, 'utf8').matchAll(SPECIFIER)) {
        if (/^\W*(import|export)\s+type\s/.test(match[0])) continue;
        const specifier = match[1] ?? match[2]!;
        if (specifier.startsWith('.')) queue.push(resolve(dirname(file), specifier));
        else if (specifier.startsWith('node:') || builtinModules.includes(specifier.split('/')[0]!)) found.push(`${relative(ROOT, file).split(sep).join('/')} imports ${specifier}`);
      }
    }
    expect(found).toEqual([]);
  });

  it('have no import circles: each file can be read, tested and split without the ones that import it', () => {
    expect(circles(importGraph()).map((circle) => circle.map((f) => relative(ROOT, f).split(sep).join('/')).join(' → '))).toEqual([]);
  });

  it("server/ and src/ import one way between their rooms (server/domain/'s and src/engine/'s among them): no arrow runs back up", () => {
    expect(circles(roomGraph(importGraph())).map((circle) => circle.join(' → '))).toEqual([]);
  });

  it('finds a circle when there is one', () => {
    const graph = new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']]]);
    expect(circles(graph)).toEqual([['a', 'b', 'c']]);
  });

  it('finds an import across the layers when there is one', () => {
    const sample = "import { x } from '../../server/app.ts';";
    expect([...sample.matchAll(SPECIFIER)].map((m) => m[1])).toEqual(['../../server/app.ts']);
  });
});
