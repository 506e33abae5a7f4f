/**
 * The theme leaves out the Chakra palettes the portal does not draw with (decision 0246): every colour the code, the
 * screens and the theme's recipes name — a `colorPalette`, a token such as 'orange.400' — must still be a token of the
 * system.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../core/contract/documents.ts';
import { CHAKRA_PALETTES, createTheme } from '../../src/app/theme.ts';
import { SWATCHES } from '../../core/palette.ts';
import { filesUnder } from '../../core/files.ts';
import { tokens } from '@chakra-ui/react/theme';

describe('the theme’s palettes', () => {
  const system = createTheme({ primary: '#286df6', success: '#1ace48', error: '#ea3a18', purple: '#643ec2' });
  const drawn = new Set([...CHAKRA_PALETTES, ...Object.values(SWATCHES).map((s) => s.name)]);

  it('hold every palette the code and the screens name', () => {
    // Chakra's palettes, drawn or not, and the brand's.
    const palettes = new Set([...Object.entries(tokens.colors!).filter(([, shades]) => '500' in shades).map(([name]) => name), ...drawn]);
    const named = new Set<string>();
    for (const file of ['src', 'screens'].flatMap((dir) => filesUnder(join(ROOT, dir), /\.(tsx?|json)$/))) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/colorPalette[=:]\s*["']([a-z]+)["']|["']([a-z]+)\.(?:\d{2,3}|solid|contrast|fg|muted|subtle|emphasized|focusRing|hover)["']/g)) {
        const name = m[1] ?? m[2]!;
        if (palettes.has(name)) named.add(name);
      }
    }
    expect([...named].sort()).toEqual(expect.arrayContaining(['brand', 'gray', 'orange', 'red']));
    expect([...named].filter((name) => !drawn.has(name))).toEqual([]);
  });

  it('hold every colour the theme’s recipes and global styles name (the dialog’s backdrop is blackAlpha.500)', () => {
    const missing = new Set<string>();
    const walk = (node: unknown) => {
      if (typeof node === 'string') {
        const colour = /^([a-z][A-Za-z]*)\.(\d{2,3}|solid|contrast|fg|muted|subtle|emphasized|focusRing)(\/\d+)?$/.exec(node);
        // 'sizes.10' names a token of its own kind; 'gray.200' a colour.
        const named = colour && colour[1] !== 'colorPalette' && !system.tokens.getByName(node);
        if (named && !system.tokens.getByName(`colors.${colour[1]}.${colour[2]}`)) missing.add(node);
      } else if (node && typeof node === 'object') Object.values(node).forEach(walk);
    };
    const { theme, globalCss } = (system as unknown as { _config: { theme: { recipes: unknown; slotRecipes: unknown }; globalCss: unknown } })._config;
    walk([theme.recipes, theme.slotRecipes, globalCss]);
    expect([...missing]).toEqual([]);
  });

  it('build the tokens of a palette drawn, and none of one left out', () => {
    expect(system.tokens.getByName('colors.orange.400')).toBeDefined();
    expect(system.tokens.getByName('colors.brand.hover')).toBeDefined();
    expect(system.tokens.getByName('colors.teal.500')).toBeUndefined();
  });
});
