import { describe, expect, it } from 'vitest';
import { contrastProblems, contrastRatio, mixSrgb, swatch } from '../../core/palette.ts';
import { crossCheck, type LoadedDescriptor } from '../../core/descriptors/check.ts';
import { listDescriptorFiles } from '../../core/descriptors/screens.ts';
import { readDescriptor } from '../../core/descriptors/read.ts';

/** Brand palettes meet WCAG 2.1 AA contrast as the screens draw them (issue 19, decision 0219). */
describe('brand palettes', () => {
  it('computes the WCAG contrast ratio and the browser’s sRGB colour mix', () => {
    expect(contrastRatio('#ffffff', '#000000')).toBeCloseTo(21, 5);
    expect(contrastRatio('#777777', '#ffffff')).toBeCloseTo(4.48, 2);
    expect(contrastRatio('#286df6', '#ffffff')).toBeGreaterThan(4.5);
    expect(mixSrgb('#ffffff', 50, '#000000')).toBe('#808080');
    expect(mixSrgb('#286df6', 75, '#000000')).toBe('#1e52b9');
  });

  it('moves a fill under the pointer away from its text: darker under white text, lighter under dark', () => {
    const palette = { primary: '#286df6', success: '#1ace48', error: '#ea3a18', purple: '#643ec2' };
    const primary = swatch(palette, 'primary');
    expect(primary.hover).toBe(mixSrgb('#286df6', 90, '#000000'));
    expect(contrastRatio('#ffffff', primary.hover)).toBeGreaterThan(contrastRatio('#ffffff', primary.solid));
    const success = swatch(palette, 'success');
    expect(success.hover).toBe(mixSrgb('#1ace48', 90, '#ffffff'));
    expect(contrastRatio(success.onSolid, success.hover)).toBeGreaterThan(contrastRatio(success.onSolid, success.solid));
  });

  it('passes for every brand of screens/brands/', () => {
    for (const file of listDescriptorFiles().filter((f) => f.kind === 'brand')) {
      const brand = readDescriptor<{ palette: Parameters<typeof contrastProblems>[0] }>('brand', file.file, file.text);
      expect(contrastProblems(brand.palette), file.file).toEqual([]);
    }
  });

  it('names each pair a light palette fails, and the build refuses that brand', () => {
    const light = { primary: '#8fb4ff', success: '#1ace48', error: '#ea3a18', purple: '#643ec2' };
    expect(swatch(light, 'primary').solid).toBe('#8fb4ff');
    const problems = contrastProblems(light);
    expect(problems[0]).toMatch(/^#\/palette\/primary: #ffffff text on #8fb4ff is 2\.\d\d:1 \(4\.5:1 needed/);
    expect(problems.every((p) => p.startsWith('#/palette/primary:'))).toBe(true);
    const brand: LoadedDescriptor = { file: 'screens/brands/pale.json', kind: 'brand', name: 'pale', doc: { id: 'pale', default: true, palette: light } };
    const errors = crossCheck([brand], { operations: new Set(), schemas: new Set(), labels: new Set(), answerFields: () => undefined, hostPatternProblem: () => undefined });
    expect(errors).toContain(`screens/brands/pale.json${problems[0]}`);
  });
});
