/**
 * The Chakra system: the base preset, the default tokens, only the recipes the engine uses (smaller bundle), the
 * breakpoints of spec §2 and the brand palette of spec §9 as colour palettes (brand, success, error, purple).
 * Text shades are darkened from the palette where the plain colour would fail WCAG AA contrast on white.
 */
import { createSystem, defaultBaseConfig, defineConfig, type SystemContext } from '@chakra-ui/react';
import {
  alertSlotRecipe, animationStyles, badgeRecipe, buttonRecipe, cssVarsPrefix, cssVarsRoot, dataListSlotRecipe,
  dialogSlotRecipe, fieldSlotRecipe, fieldsetSlotRecipe, globalCss, headingRecipe, inputAddonRecipe, inputRecipe, keyframes, layerStyles, linkRecipe,
  listSlotRecipe, nativeSelectSlotRecipe, pinInputSlotRecipe, semanticTokens, separatorRecipe, spinnerRecipe, tableSlotRecipe, tabsSlotRecipe,
  textareaRecipe, textStyles, toastSlotRecipe, tokens,
} from '@chakra-ui/react/theme';
import { CHIP_CSS } from '../widgets/chip-styles.ts';

export interface Palette {
  primary: string;
  success: string;
  error: string;
  purple: string;
}

/**
 * spec §2 lists 1600, 1500, 1400, 1263/1264, 1200/1199, 992, 959/960, 768 and 599/600. The named steps the
 * layouts use are sm 600 (side menu vs. menu button), md 768, lg 992, xl 1200 and 2xl 1400; the others are
 * available as raw media queries (MEDIA below) for the few places that need them.
 */
export const BREAKPOINTS = { sm: '600px', md: '768px', lg: '992px', xl: '1200px', '2xl': '1400px' };
export const MEDIA = { w960: '@media (min-width: 960px)', w1264: '@media (min-width: 1264px)', w1500: '@media (min-width: 1500px)', w1600: '@media (min-width: 1600px)' };

const mix = (color: string, percent: number, other: string) => `color-mix(in srgb, ${color} ${percent}%, ${other})`;

function palette(color: string, contrast: string, solid = color) {
  return {
    solid: { value: solid },
    contrast: { value: contrast },
    fg: { value: mix(color, 75, 'black') },
    muted: { value: mix(color, 25, 'white') },
    subtle: { value: mix(color, 12, 'white') },
    emphasized: { value: mix(color, 35, 'white') },
    focusRing: { value: color },
  };
}

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
        tokens,
        semanticTokens: {
          ...semanticTokens,
          colors: {
            ...semanticTokens.colors,
            brand: palette(colors.primary, 'white'),
            success: palette(colors.success, '#0b2e12'),
            error: palette(colors.error, 'white', mix(colors.error, 82, 'black')),
            purple: palette(colors.purple, 'white'),
          },
        },
        recipes: {
          badge: badgeRecipe,
          button: buttonRecipe,
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
