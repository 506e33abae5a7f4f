/**
 * Waits that end when they say. Node's long timers fire late on a machine that idles between them: a 1,000 ms
 * `setTimeout` ended 15–35 ms late on the bench's VM, where a Python thread's one-second sleep ended 4 ms late and a
 * 50 ms timer 1–5 ms late. A simulated lender answers at the time its file gives, or the bench's waterfall measures the
 * simulator's lateness as the portal's. So a wait takes most of its time in one timer and the rest, measured against
 * the clock, in short ones.
 */

/** How early the long timer is set: enough for its lateness, never more than the wait. */
const margin = (left: number) => Math.max(50, left * 0.05);

export interface Wait {
  cancel(): void;
}

/** Runs `work` once `ms` have passed (never at once, always from a timer), unless cancelled first. */
export function after(ms: number, work: () => void): Wait {
  const due = performance.now() + ms;
  let timer: NodeJS.Timeout;
  const schedule = () => {
    const left = due - performance.now();
    timer = setTimeout(step, left > 2 * margin(left) ? left - margin(left) : Math.max(0, left));
  };
  const step = () => (due - performance.now() < 1 ? work() : schedule());
  schedule();
  return { cancel: () => clearTimeout(timer) };
}

export const sleep = (ms: number) => new Promise<void>((resolve) => after(ms, resolve));
