/**
 * Words for coded values (people see words, not codes), named by a format:
 * - `label:<Enumeration>`: an enumeration of schemas/enums/ (its `x-labels`; `npm run codegen` writes one small module
 *   per enumeration);
 * - `config:<Type>`: the config items of a type (spec §3), value → name ('LLC' → 'Limited Liability Company').
 * A column's or a field's `format`, or `{path|label:Stage}` in a text, names one; the tables a screen names load with
 * its descriptor (router.tsx), so a screen never shows a code before its words arrive, and a screen that shows none
 * loads none.
 */
import { tr } from './current-language.ts';

export type LabelTable = Readonly<Record<string, string>>;

const FORMAT = /^(?:label|config):[A-Za-z][A-Za-z0-9-]*$/;
const tables = new Map<string, LabelTable>();

/** Is this format a table of words ('label:EnrollmentStatus', 'config:BusinessTypes')? */
export const isLabelFormat = (format: string | undefined): boolean => !!format && FORMAT.test(format);

/** Every table of words a descriptor names, in a field's format or in a text's placeholder. */
export function labelNamesIn(node: unknown, out = new Set<string>()): Set<string> {
  if (typeof node === 'string') {
    for (const match of node.matchAll(/(?:^|\|)((?:label|config):[A-Za-z][A-Za-z0-9-]*)/g)) out.add(match[1]!);
  } else if (Array.isArray(node)) node.forEach((n) => labelNamesIn(n, out));
  else if (node && typeof node === 'object') Object.values(node).forEach((n) => labelNamesIn(n, out));
  return out;
}

export function registerLabels(format: string, table: LabelTable): void {
  tables.set(format, table);
}

/** The words for a value, in the current language; the value itself when its table has none (a value newer than the build). */
export function labelOf(format: string, value: unknown): string {
  if (value === null || value === undefined || value === '') return '';
  const words = tables.get(format)?.[String(value)];
  return words === undefined ? String(value) : tr(words);
}
