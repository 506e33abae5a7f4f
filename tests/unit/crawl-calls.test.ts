import { describe, expect, it } from 'vitest';
import { callProblems } from '../../e2e/support/crawl.ts';

const call = (key: string) => ({ key, at: 0 });
const LIVE = call('GET /api/Descriptors/GetLive');
const CONFIG = call('GET /api/Config/GetAllConfigItems');

describe("the crawl's repeated calls", () => {
  it('lets a visit ask which descriptor set is live once per page it shows, and no more', () => {
    expect(callProblems([LIVE, LIVE], undefined, 1_000, 2)).toEqual([]);
    expect(callProblems([LIVE, LIVE], undefined, 1_000, 1)).toEqual(['calls 2× (at most 1): GET /api/Descriptors/GetLive']);
  });

  it('holds any other read to once per visit, however many pages it shows', () => {
    expect(callProblems([CONFIG, CONFIG], undefined, 1_000, 2)).toEqual(['calls 2× (at most 1): GET /api/Config/GetAllConfigItems']);
  });

  it('lets a poll call again once per interval while the page is watched', () => {
    expect(callProblems([CONFIG, CONFIG, CONFIG], 5_000, 10_000, 1)).toEqual([]);
    expect(callProblems(Array(5).fill(CONFIG), 5_000, 10_000, 1)).toEqual(['calls 5× (at most 3): GET /api/Config/GetAllConfigItems']);
  });

  it('lets a live screen read again what an event changed, and no more than that', () => {
    const at = (ms: number) => ({ key: CONFIG.key, at: ms });
    expect(callProblems([at(0), at(5_300)], undefined, 10_000, 1, [5_000])).toEqual([]);
    expect(callProblems([at(0), at(9_000)], undefined, 10_000, 1, [5_000])).toEqual(['calls 2× (at most 1): GET /api/Config/GetAllConfigItems']);
  });
});
