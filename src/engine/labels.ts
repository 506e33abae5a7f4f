/**
 * Words for enumeration values (people see words, not codes): each enumeration schema of schemas/enums/ carries
 * `x-labels`, and `npm run codegen` writes one small module per enumeration. A descriptor names one with the format
 * `label:<Enumeration>` (a column's or a field's `format`, or `{path|label:<Enumeration>}` in a text); the tables a
 * screen names load with its descriptor, so a screen that shows none loads none.
 */
export type LabelTable = Readonly<Record<string, string>>;

const PREFIX = 'label:';
const tables = new Map<string, LabelTable>();

/** The enumeration a format names ('label:EnrollmentStatus' → 'EnrollmentStatus'), or undefined. */
export function labelsNamedBy(format: string | undefined): string | undefined {
  return format?.startsWith(PREFIX) ? format.slice(PREFIX.length) : undefined;
}

/** Every enumeration a descriptor names in a `label:` format, in a field or in a text's placeholder. */
export function labelNamesIn(node: unknown, out = new Set<string>()): Set<string> {
  if (typeof node === 'string') {
    for (const match of node.matchAll(/(?:^|\|)label:([A-Za-z][A-Za-z0-9]*)/g)) out.add(match[1]!);
  } else if (Array.isArray(node)) node.forEach((n) => labelNamesIn(n, out));
  else if (node && typeof node === 'object') Object.values(node).forEach((n) => labelNamesIn(n, out));
  return out;
}

export function registerLabels(name: string, table: LabelTable): void {
  tables.set(name, table);
}

/** The words for a value; the value itself when its table has none (a value newer than the build). */
export function labelOf(name: string, value: unknown): string {
  if (value === null || value === undefined || value === '') return '';
  return tables.get(name)?.[String(value)] ?? String(value);
}
