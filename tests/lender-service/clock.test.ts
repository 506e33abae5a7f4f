import { describe, expect, it } from 'vitest';
import { after, sleep } from '../../lender-service/clock.ts';

/** The lender service's waits: never before their time, always from a timer, and cancelled at any of their steps. */

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the lender service clock', () => {
  it('runs the work once its time has passed, never before (to the millisecond the clock is read in)', async () => {
    for (const ms of [0, 5, 60, 250]) {
      const started = performance.now();
      await sleep(ms);
      expect(performance.now() - started).toBeGreaterThanOrEqual(ms - 1);
    }
  });

  it('runs even a wait of no time from a timer, not within the call that asked for it', async () => {
    let ran = false;
    after(0, () => {
      ran = true;
    });
    expect(ran).toBe(false);
    await pause(10);
    expect(ran).toBe(true);
  });

  it('cancels a wait in its long step and in its short ones', async () => {
    let ran = 0;
    after(40, () => ran++).cancel();
    // 200 ms is taken as a long step ending 50 ms early, then short ones: cancelled in the short ones.
    const late = after(200, () => ran++);
    await pause(170);
    late.cancel();
    await pause(100);
    expect(ran).toBe(0);
  });
});
