/**
 * The Chakra system: the base preset, the default tokens, only the recipes the engine uses (smaller bundle), the
 * breakpoints of spec §2 and the brand palette of spec §9 as colour palettes (brand, success, error, purple).
 * Each colour is drawn as core/palette.ts says, which the build checks for WCAG AA contrast (decision 0219).
 */
import { createSystem, defaultBaseConfig, defineConfig, type RecipeDefinition, type SystemContext } from '@chakra-ui/react';
import {
  alertSlotRecipe, animationStyles, badgeRecipe, buttonRecipe, cssVarsPrefix, cssVarsRoot, dataListSlotRecipe,
  dialogSlotRecipe, fieldSlotRecipe, fieldsetSlotRecipe, globalCss, headingRecipe, inputAddonRecipe, inputRecipe, keyframes, layerStyles, linkRecipe,
  listSlotRecipe, nativeSelectSlotRecipe, pinInputSlotRecipe, semanticTokens, separatorRecipe, spinnerRecipe, tableSlotRecipe, tabsSlotRecipe,
  textareaRecipe, textStyles, toastSlotRecipe, tokens,
} from '@chakra-ui/react/theme';
import { CHIP_CSS } from '../widgets/chip-styles.ts';
import { HOVER_PERCENT, hoverTowards, SUBTLE_PERCENT, SWATCHES, type Palette } from '../../core/palette.ts';

/**
 * spec §2 lists 1600, 1500, 1400, 1263/1264, 1200/1199, 992, 959/960, 768 and 599/600. The named steps the
 * layouts use are sm 600 (side menu vs. menu button), md 768, lg 992, xl 1200 and 2xl 1400; the others are
 * available as raw media queries (MEDIA below) for the few places that need them.
 */
export const BREAKPOINTS = { sm: '600px', md: '768px', lg: '992px', xl: '1200px', '2xl': '1400px' };
export const MEDIA = { w960: '@media (min-width: 960px)', w1264: '@media (min-width: 1264px)', w1500: '@media (min-width: 1500px)', w1600: '@media (min-width: 1600px)' };

const mix = (color: string, percent: number, other: string) => `color-mix(in srgb, ${color} ${percent}%, ${other})`;

/** A palette colour as core/palette.ts draws it (and checks its contrast): fill, text on the fill, text shade. */
function palette(colors: Palette, key: keyof Palette) {
  const color = colors[key];
  const { onSolid, solidBlack, textBlack } = SWATCHES[key];
  const solid = solidBlack ? mix(color, 100 - solidBlack, 'black') : color;
  return {
    solid: { value: solid },
    hover: { value: mix(solid, 100 - HOVER_PERCENT, hoverTowards(onSolid)) },
    contrast: { value: onSolid },
    fg: { value: mix(color, 100 - textBlack, 'black') },
    muted: { value: mix(color, 25, 'white') },
    subtle: { value: mix(color, SUBTLE_PERCENT, 'white') },
    emphasized: { value: mix(color, 35, 'white') },
    focusRing: { value: color },
  };
}

/** A solid button under the pointer takes the palette's hover shade, which keeps its text's contrast (core/palette.ts). */
function solidHover(recipe: typeof buttonRecipe): RecipeDefinition {
  const variants = recipe.variants!;
  const hover = { bg: 'colorPalette.hover' };
  return { ...recipe, variants: { ...variants, variant: { ...variants.variant, solid: { ...variants.variant!.solid, _hover: hover, _expanded: hover } } } };
}

/**
 * Chakra's colour palettes the portal draws with: its own semantic tokens (bg, fg, border) and the screens use these;
 * the brand's palettes come from the brand file. Building the system costs in proportion to its tokens (Chakra took
 * about 400 ms of the shell's cold load under 4× CPU, decision 0246), so the other palettes are left out.
 */
export const CHAKRA_PALETTES = ['gray', 'red', 'orange', 'green', 'blue'];

/** A hue of Chakra's: its shades (raw tokens) or its roles (semantic ones). The alpha greys are shades of no hue. */
const isHue = (name: string, value: unknown) => !/Alpha$/.test(name) && !!value && typeof value === 'object' && ('500' in value || 'solid' in value);
const drawnColors = <V,>(colors: Record<string, V>): Record<string, V> => Object.fromEntries(Object.entries(colors).filter(([name, value]) => !isHue(name, value) || CHAKRA_PALETTES.includes(name)));

/** A semantic token's light value only: the portal has no dark mode, and each `_dark` value is a rule more to build. */
function lightOnly(node: unknown): unknown {
  if (!node || typeof node !== 'object') return node;
  if ('value' in node) {
    const { value } = node as { value: unknown };
    return value && typeof value === 'object' && '_light' in value ? { ...node, value: (value as { _light: unknown })._light } : node;
  }
  return Object.fromEntries(Object.entries(node).map(([key, child]) => [key, lightOnly(child)]));
}

const lightSemanticTokens = lightOnly(semanticTokens) as typeof semanticTokens;
const semanticColors = drawnColors(lightSemanticTokens.colors!);

export function createTheme(colors: Palette): SystemContext {
  return createSystem(
    defaultBaseConfig,
    defineConfig({
      preflight: true,
      cssVarsPrefix,
      cssVarsRoot,
      globalCss: { ...globalCss, ...CHIP_CSS, body: { ...(globalCss.body as object), fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif' } },
      theme: {
        breakpoints: BREAKPOINTS,
        keyframes,
        tokens: { ...tokens, colors: drawnColors(tokens.colors!) },
        semanticTokens: {
          ...lightSemanticTokens,
          colors: {
            ...semanticColors,
            ...Object.fromEntries((Object.keys(SWATCHES) as Array<keyof Palette>).map((key) => [SWATCHES[key].name, palette(colors, key)])),
          },
        },
        recipes: {
          badge: badgeRecipe,
          button: solidHover(buttonRecipe),
          heading: headingRecipe,
          input: inputRecipe,
          inputAddon: inputAddonRecipe,
          link: linkRecipe,
          separator: separatorRecipe,
          spinner: spinnerRecipe,
          textarea: textareaRecipe,
        },
        slotRecipes: {
          alert: alertSlotRecipe,
          dataList: dataListSlotRecipe,
          dialog: dialogSlotRecipe,
          field: fieldSlotRecipe,
          fieldset: fieldsetSlotRecipe,
          list: listSlotRecipe,
          nativeSelect: nativeSelectSlotRecipe,
          pinInput: pinInputSlotRecipe,
          table: tableSlotRecipe,
          tabs: tabsSlotRecipe,
          toast: toastSlotRecipe,
        },
        textStyles,
        layerStyles,
        animationStyles,
      },
    }),
  );
}
