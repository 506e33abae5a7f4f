/**
 * No block is written twice in screens/ (issue 18): a JSON value that spans six lines or more (pretty-printed, keys
 * sorted) and appears in two places is a fragment (screens/fragments/, docs/decisions/0224) used by name.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { listDescriptorFiles } from '../../core/descriptors/screens.ts';

const MIN_LINES = 6;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** JSON with sorted keys, two spaces: the same block written with its keys in another order is the same block. */
function canonical(value: Json, indent = ''): string {
  const inner = `${indent}  `;
  if (Array.isArray(value)) return value.length ? `[\n${value.map((v) => inner + canonical(v, inner)).join(',\n')}\n${indent}]` : '[]';
  if (value && typeof value === 'object') {
    const keys = Object.keys(value).sort();
    return keys.length ? `{\n${keys.map((k) => `${inner}${JSON.stringify(k)}: ${canonical(value[k]!, inner)}`).join(',\n')}\n${indent}}` : '{}';
  }
  return JSON.stringify(value);
}

interface Block {
  hash: string;
  lines: number;
  places: string[];
}

/** The repeated blocks of six lines or more, each only where it is not part of a larger repeated block. */
function repeatedBlocks(): Block[] {
  const found = new Map<string, { lines: number; places: string[] }>();
  const walk = (value: Json, place: string) => {
    if (!value || typeof value !== 'object') return;
    const text = canonical(value);
    const lines = text.split('\n').length;
    if (lines >= MIN_LINES) {
      const hash = createHash('sha256').update(text).digest('hex').slice(0, 16);
      found.set(hash, { lines, places: [...(found.get(hash)?.places ?? []), place] });
    }
    for (const [key, child] of Object.entries(value)) walk(child, `${place}/${key}`);
  };
  for (const file of listDescriptorFiles()) walk(JSON.parse(file.text) as Json, `${file.file}#`);
  const repeated = [...found.entries()].filter(([, b]) => b.places.length > 1);
  const places = new Set(repeated.flatMap(([, b]) => b.places));
  const within = (place: string) => [...places].some((outer) => outer !== place && place.startsWith(`${outer}/`));
  return repeated.filter(([, b]) => !b.places.every(within)).map(([hash, b]) => ({ hash, ...b }));
}

describe('screens/ without repetition', () => {
  it('repeats no block of six lines or more: a part written twice is a fragment, used by name', () => {
    expect(repeatedBlocks().map((b) => `${b.lines} lines at ${b.places.join(', ')}: make it a fragment`)).toEqual([]);
  });
});
