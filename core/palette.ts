/**
 * A brand's palette as the screens draw it, and its contrast (WCAG 2.1 1.4.3, issue 19): each colour fills buttons and
 * chips with its own text colour on it (a shade of the fill under the pointer), and a darker shade of it writes text
 * on white. The theme (src/app/theme.ts) draws with these swatches and the build refuses a brand whose pairs fall
 * below 4.5:1 — a palette is data a product owner may change, so its contrast is checked where it is loaded, not by
 * eye.
 */
import type { BrandDescriptor } from '../codegen/generated/descriptors.ts';

export type Palette = BrandDescriptor['palette'];

/** How each palette colour is drawn: the text on its fill, how much black darkens the fill, how much its text shade. */
export const SWATCHES: Record<keyof Palette, { name: string; onSolid: string; solidBlack: number; textBlack: number }> = {
  primary: { name: 'brand', onSolid: '#ffffff', solidBlack: 0, textBlack: 25 },
  // A bright green needs more black to be read as text (3.6:1 at 25 %).
  success: { name: 'success', onSolid: '#0b2e12', solidBlack: 0, textBlack: 40 },
  error: { name: 'error', onSolid: '#ffffff', solidBlack: 18, textBlack: 25 },
  purple: { name: 'purple', onSolid: '#ffffff', solidBlack: 0, textBlack: 25 },
};

/** How much of the colour tints the subtle background its text shade is read on (chips, alerts). */
export const SUBTLE_PERCENT = 12;

/**
 * How much a fill under the pointer moves away from its text colour (darker under white text, lighter under dark):
 * Chakra's own hover, the fill at 90 % over white, took white text on the default primary from 4.55:1 to 3.9:1.
 */
export const HOVER_PERCENT = 10;

/** WCAG 2.1 AA for normal text. */
export const AA_CONTRAST = 4.5;

const channels = (hex: string): [number, number, number] => {
  const h = hex.replace('#', '');
  const full = h.length === 3 ? [...h].map((c) => c + c).join('') : h;
  return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16)) as [number, number, number];
};
const toHex = (rgb: readonly number[]) => `#${rgb.map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;

/** CSS color-mix(in srgb, a p%, b): channel by channel, as the browser mixes. */
export function mixSrgb(a: string, percentOfA: number, b: string): string {
  const [x, y] = [channels(a), channels(b)];
  return toHex(x.map((c, i) => (c * percentOfA + y[i]! * (100 - percentOfA)) / 100));
}

function luminance(hex: string): number {
  const [r, g, b] = channels(hex).map((c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The WCAG contrast ratio of two colours, from 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** The shade a fill takes under the pointer: away from the text on it. */
export const hoverTowards = (onSolid: string) => (luminance(onSolid) > 0.5 ? '#000000' : '#ffffff');

/** The fill of a palette colour (and under the pointer) and its shade for text on white, as drawn. */
export function swatch(palette: Palette, key: keyof Palette): { solid: string; hover: string; onSolid: string; text: string; subtle: string } {
  const { onSolid, solidBlack, textBlack } = SWATCHES[key];
  const color = palette[key];
  const solid = solidBlack ? mixSrgb(color, 100 - solidBlack, '#000000') : color;
  return {
    solid,
    hover: mixSrgb(solid, 100 - HOVER_PERCENT, hoverTowards(onSolid)),
    onSolid,
    text: mixSrgb(color, 100 - textBlack, '#000000'),
    subtle: mixSrgb(color, SUBTLE_PERCENT, '#ffffff'),
  };
}

/** Each pair of the palette below AA, in words: '#/palette/primary: white text on #8fb4ff is 2.1:1 (4.5:1 needed)'. */
export function contrastProblems(palette: Palette): string[] {
  const problems: string[] = [];
  for (const key of Object.keys(SWATCHES) as Array<keyof Palette>) {
    const { solid, hover, onSolid, text, subtle } = swatch(palette, key);
    const pairs: Array<[string, string, string]> = [
      [`${onSolid} text on ${solid}`, onSolid, solid],
      [`${onSolid} text on ${hover} (under the pointer)`, onSolid, hover],
      [`${text} text on white`, text, '#ffffff'],
      [`${text} text on ${subtle}`, text, subtle],
    ];
    for (const [what, fg, bg] of pairs) {
      const ratio = contrastRatio(fg, bg);
      if (ratio < AA_CONTRAST) problems.push(`#/palette/${key}: ${what} is ${ratio.toFixed(2)}:1 (${AA_CONTRAST}:1 needed, WCAG 2.1 1.4.3)`);
    }
  }
  return problems;
}
