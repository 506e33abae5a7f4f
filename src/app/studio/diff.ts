/** A line diff of two texts (the studio's 'against what is live'): longest common subsequence, for files of a few hundred lines. */
export interface DiffLine {
  kind: 'same' | 'added' | 'removed';
  text: string;
}

export function diffLines(before: string, after: string): DiffLine[] {
  const a = before.split('\n');
  const b = after.split('\n');
  // lengths[i][j]: the common subsequence of a[i..] and b[j..].
  const lengths = Array.from({ length: a.length + 1 }, () => new Uint32Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) lengths[i]![j] = a[i] === b[j] ? lengths[i + 1]![j + 1]! + 1 : Math.max(lengths[i + 1]![j]!, lengths[i]![j + 1]!);
  }
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      out.push({ kind: 'same', text: a[i]! });
      i++;
      j++;
    } else if (lengths[i + 1]![j]! >= lengths[i]![j + 1]!) out.push({ kind: 'removed', text: a[i++]! });
    else out.push({ kind: 'added', text: b[j++]! });
  }
  while (i < a.length) out.push({ kind: 'removed', text: a[i++]! });
  while (j < b.length) out.push({ kind: 'added', text: b[j++]! });
  return out;
}

/** Only the changed lines with `context` lines around each; a run of unchanged lines between reads as one gap. */
export function changesOnly(lines: DiffLine[], context = 2): Array<DiffLine | { kind: 'gap'; count: number }> {
  const keep = lines.map(() => false);
  lines.forEach((line, index) => {
    if (line.kind === 'same') return;
    for (let k = Math.max(0, index - context); k <= Math.min(lines.length - 1, index + context); k++) keep[k] = true;
  });
  const out: Array<DiffLine | { kind: 'gap'; count: number }> = [];
  let skipped = 0;
  lines.forEach((line, index) => {
    if (keep[index]) {
      if (skipped) out.push({ kind: 'gap', count: skipped });
      skipped = 0;
      out.push(line);
    } else skipped++;
  });
  if (skipped && out.length) out.push({ kind: 'gap', count: skipped });
  return out;
}

/**
 * A document with its objects' keys in the order another version has them (new keys after): the database keeps a
 * change's files as JSON of its own key order, and the lines compared must differ only where the values do.
 */
export function inOrderOf(reference: unknown, value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item, i) => inOrderOf(Array.isArray(reference) ? reference[i] : undefined, item));
  if (!value || typeof value !== 'object') return value;
  const ref = reference && typeof reference === 'object' && !Array.isArray(reference) ? (reference as Record<string, unknown>) : {};
  const entries = Object.entries(value as Record<string, unknown>);
  const order = new Map(Object.keys(ref).map((key, i) => [key, i]));
  const rank = (key: string) => order.get(key) ?? Number.MAX_SAFE_INTEGER;
  return Object.fromEntries(entries.sort(([a], [b]) => rank(a) - rank(b)).map(([key, item]) => [key, inOrderOf(ref[key], item)]));
}

/** The words one page shows and the other does not, each in its page's order: what a review's comparison marks. */
export function wordsDiffering(before: readonly string[], after: readonly string[]): { onlyBefore: string[]; onlyAfter: string[] } {
  const inBefore = new Set(before);
  const inAfter = new Set(after);
  return { onlyBefore: before.filter((words) => !inAfter.has(words)), onlyAfter: after.filter((words) => !inBefore.has(words)) };
}
