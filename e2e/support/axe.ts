/**
 * axe-core's reading of a page as it rests, for every spec that checks accessibility. A colour read while a control
 * fades is not the page's: the enrollment wizard's Next button, enabled once its parts have loaded, fades from half
 * to full opacity, and read midway its white on blue measures 2.83:1 (a full run's crawl failed so).
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

type Violation = Awaited<ReturnType<AxeBuilder['analyze']>>['violations'][number];

/** The faults a person meets: axe-core's serious and critical ones. */
export const isSerious = (v: Violation) => v.impact === 'serious' || v.impact === 'critical';

/** Waits for the page's fades and slides to end (endless ones, a spinner, are not awaited; 2 s at most). */
async function animationsEnded(page: Page): Promise<void> {
  await page.evaluate(() =>
    Promise.race([
      Promise.all(document.getAnimations().filter((a) => a.effect?.getTiming().iterations !== Infinity).map((a) => a.finished.catch(() => undefined))),
      new Promise((resolve) => setTimeout(resolve, 2_000)),
    ]),
  );
}

/**
 * axe-core's violations once the page's animations have ended (within `include`, if given). A fade can also begin
 * during the reading, when data arrives: a contrast fault then counts only if a second reading, after that fade,
 * finds it on the same element, so a lasting one still fails.
 */
export async function axeViolations(page: Page, include?: string): Promise<Violation[]> {
  const read = async () => {
    await animationsEnded(page);
    const builder = new AxeBuilder({ page });
    return (await (include ? builder.include(include) : builder).analyze()).violations;
  };
  const first = await read();
  if (!first.some((v) => v.id === 'color-contrast')) return first;
  const key = (id: string, target: unknown[]) => `${id} ${target.join(' ')}`;
  const again = new Set((await read()).flatMap((v) => v.nodes.map((n) => key(v.id, n.target))));
  return first
    .map((v) => (v.id === 'color-contrast' ? { ...v, nodes: v.nodes.filter((n) => again.has(key(v.id, n.target))) } : v))
    .filter((v) => v.nodes.length > 0);
}
