/**
 * The specs' accessibility reading (support/axe.ts) on pages made here: a lasting contrast fault still fails, a
 * control that fades in while axe-core reads does not.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { axeViolations } from './support/axe.ts';

const contrastTargets = (violations: Array<{ id: string; nodes: Array<{ target: unknown[] }> }>) =>
  violations.filter((v) => v.id === 'color-contrast').flatMap((v) => v.nodes.map((n) => n.target.join(' ')));

/**
 * The wizard's Next button as the full run met it: disabled at half opacity, enabled (a one-second fade to full) as
 * axe-core starts its first reading. The page counts the readings (each is one `axe.runPartial`, however often the
 * reader injects axe-core anew), so that a test can tell a fault read again from one never seen.
 */
async function fadeInOnReading(page: Page): Promise<void> {
  await page.setContent(`<!doctype html><html lang="en"><title>Fade</title><body><main><h1>Enrollment</h1>
    <style>button { color: #fff; background: #0051f0; border: 0; padding: 8px; transition: opacity 1s linear; }
    button:disabled { opacity: 0.5; }</style>
    <button id="next" disabled>Next</button></main>
    <script>
      window.readings = 0;
      setInterval(() => {
        const axe = window.axe;
        if (!axe || axe.runPartial.counted) return;
        const read = axe.runPartial;
        axe.runPartial = (...args) => { window.readings += 1; next.disabled = false; return read.apply(axe, args); };
        axe.runPartial.counted = true;
      }, 1);
    </script>`);
}

const readings = (page: Page) => page.evaluate(() => (window as unknown as { readings: number }).readings);

test('a lasting contrast fault is found', async ({ page }) => {
  await page.setContent(`<!doctype html><html lang="en"><title>Faint</title><body><main><h1>Faint</h1>
    <p id="faint" style="color: #aaa; background: #fff">Grey on white</p></main>`);
  expect(contrastTargets(await axeViolations(page))).toEqual(['#faint']);
});

test('a control that fades in during the reading is read once it has', async ({ context }) => {
  // The case is real: read once, the fading button fails. (A page each: axe-core stays in a window once it came.)
  const once = await context.newPage();
  await fadeInOnReading(once);
  expect(contrastTargets((await new AxeBuilder({ page: once }).analyze()).violations)).toEqual(['#next']);
  const page = await context.newPage();
  await fadeInOnReading(page);
  expect(contrastTargets(await axeViolations(page))).toEqual([]);
  // Read twice: the first reading met the fade, the second came after it.
  expect(await readings(page)).toBe(2);
});
