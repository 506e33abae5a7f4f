import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../server/contract/documents.ts';

/**
 * The layers (issue 18, ../shared/ARCHITECTURE.md): one UI-free core that the web app (src/), the server and codegen
 * all import; the web app never imports the server, the server never imports the web app, and the core imports
 * neither, nor React. Read from the import statements of every source file.
 */
const LAYERS = ['core', 'src', 'server'] as const;
type Layer = (typeof LAYERS)[number];

/** What each layer may not import: another layer's folder, or a package. */
const FORBIDDEN: Record<Layer, { folders: Layer[]; packages: RegExp | null }> = {
  core: { folders: ['src', 'server'], packages: /^(react|react-dom|@chakra-ui|@rjsf|fastify|drizzle-orm|pg)(\/|$)/ },
  src: { folders: ['server'], packages: null },
  server: { folders: ['src'], packages: null },
};

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.(ts|tsx)$/.test(entry.name) ? [path] : [];
  });
}

const SPECIFIER = /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function violations(layer: Layer): string[] {
  const rule = FORBIDDEN[layer];
  const found: string[] = [];
  for (const file of sources(join(ROOT, layer))) {
    for (const match of readFileSync(file, 'utf8').matchAll(SPECIFIER)) {
      const specifier = match[1] ?? match[2]!;
      const where = relative(ROOT, file).split(sep).join('/');
      if (specifier.startsWith('.')) {
        const target = relative(ROOT, resolve(dirname(file), specifier)).split(sep)[0] as Layer;
        if (rule.folders.includes(target)) found.push(`${where} imports ${specifier}`);
      } else if (rule.packages?.test(specifier)) found.push(`${where} imports ${specifier}`);
    }
  }
  return found;
}

describe('the layers', () => {
  for (const layer of LAYERS) {
    it(`${layer}/ imports nothing of ${[...FORBIDDEN[layer].folders].join(' or ')}${FORBIDDEN[layer].packages ? ', nor a UI or server package' : ''}`, () => {
      expect(violations(layer)).toEqual([]);
    });
  }

  it('finds an import across the layers when there is one', () => {
    const sample = "import { x } from '../../server/contract/documents.ts';";
    expect([...sample.matchAll(SPECIFIER)].map((m) => m[1])).toEqual(['../../server/contract/documents.ts']);
  });
});
