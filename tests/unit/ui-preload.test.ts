import { describe, expect, it } from 'vitest';
import { loadIcons, loadOnce, read, tracked } from '../../src/engine/preload.ts';
import type { EngineServices } from '../../src/engine/services.ts';

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('reading the engine\'s loads inside a render (src/engine/preload.ts, decision 0146)', () => {
  it('throws the pending promise itself, so Suspense waits on it, then returns its value once it settled', async () => {
    let resolve!: (value: string) => void;
    const promise = tracked(new Promise<string>((r) => (resolve = r)));
    let thrown: unknown;
    try {
      read(promise);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBe(promise);
    resolve('screen');
    await settle();
    expect(read(promise)).toBe('screen');
  });

  it('throws the reason of a rejected load to the error boundary', async () => {
    const failure = new Error('chunk failed');
    const promise = tracked(Promise.reject(failure));
    promise.catch(() => undefined);
    await settle();
    expect(() => read(promise)).toThrow(failure);
  });

  it('tracks a promise it is given untracked', async () => {
    const promise = Promise.resolve(7);
    expect(() => read(promise)).toThrow();
    await settle();
    expect(read(promise)).toBe(7);
  });

  it('loads once per key, and forgets a failed load so that the next read tries again', async () => {
    const cache = new Map<string, Promise<number>>();
    let calls = 0;
    const failing = () => {
      calls += 1;
      return Promise.reject(new Error('offline'));
    };
    const first = loadOnce(cache, 'k', failing);
    expect(loadOnce(cache, 'k', failing)).toBe(first);
    await first.catch(() => undefined);
    await settle();
    expect(cache.has('k')).toBe(false);
    const second = loadOnce(cache, 'k', () => Promise.resolve(2));
    expect(await second).toBe(2);
    expect(calls).toBe(1);
  });

  it('loads the icon set once per engine, and again after a failed load', async () => {
    let calls = 0;
    const engine = { icons: () => (++calls === 1 ? Promise.reject(new Error('offline')) : Promise.resolve({})) } as unknown as EngineServices;
    const first = loadIcons(engine);
    expect(loadIcons(engine)).toBe(first);
    await first.catch(() => undefined);
    await settle();
    const second = loadIcons(engine);
    expect(second).not.toBe(first);
    expect(await second).toEqual({});
    expect(loadIcons(engine)).toBe(second);
    expect(loadIcons({ icons: () => Promise.resolve({}) } as unknown as EngineServices)).not.toBe(second);
    expect(calls).toBe(2);
  });
});
