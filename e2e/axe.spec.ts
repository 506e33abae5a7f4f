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
 * The wizard's Next button as the full run met it: disabled at half opacity, enabled (a one-second fade to full) the
 * moment axe-core arrives in the page, that is while the reading runs.
 */
async function fadeInOnReading(page: Page): Promise<void> {
  await page.setContent(`<!doctype html><html lang="en"><title>Fade</title><body><main><h1>Enrollment</h1>
    <style>button { color: #fff; background: #0051f0; border: 0; padding: 8px; transition: opacity 1s linear; }
    button:disabled { opacity: 0.5; }</style>
    <button id="next" disabled>Next</button></main>
    <script>const wait = setInterval(() => { if (window.axe) { clearInterval(wait); next.disabled = false; } }, 1);</script>`);
}

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
});
