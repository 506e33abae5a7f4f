import type { DescriptorKind } from './kinds.ts';

/**
 * Descriptor format versions (docs/decisions/0041-descriptor-formats.md). Every descriptor carries
 * `"format": <integer>`; a file in an older format is migrated step by step, one function per step,
 * before it is validated, so an old file keeps working; `npm run codegen` rewrites such files in the
 * current format (rewriteOldDescriptors in core/descriptors/screens.ts).
 */
export const CURRENT_FORMAT = 1;

type Doc = Record<string, unknown>;
/** steps[kind][n] turns format n into format n + 1. */
export type MigrationSteps = Record<DescriptorKind, Array<(doc: Doc) => Doc>>;

/** Format 0 is a file written before versioning: the same shape without `format`. */
const stamp = (doc: Doc): Doc => ({ ...doc, format: 1 });

export const MIGRATIONS: MigrationSteps = {
  routes: [stamp],
  menus: [stamp],
  layouts: [stamp],
  conditions: [stamp],
  screen: [stamp],
  brand: [stamp],
  lender: [stamp],
  states: [stamp],
  language: [stamp],
  fragments: [stamp],
};

export class MigrationError extends Error {}

/** The format a document declares; a document without one is format 0. */
export function formatOf(doc: unknown): number {
  const format = doc && typeof doc === 'object' ? (doc as Doc).format : undefined;
  return typeof format === 'number' ? format : 0;
}

/** Migrates `doc` to `target` (default: the current format). Throws for a format newer than the engine knows. */
export function migrate<T = Doc>(kind: DescriptorKind, doc: unknown, steps: MigrationSteps = MIGRATIONS, target = CURRENT_FORMAT): { doc: T; from: number; to: number } {
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) throw new MigrationError('a descriptor must be a JSON object');
  const from = formatOf(doc);
  if (!Number.isInteger(from) || from < 0) throw new MigrationError(`format must be a whole number (got ${String(from)})`);
  if (from > target) throw new MigrationError(`format ${from} is newer than this engine (${target}); update the application`);
  let current = doc as Doc;
  for (let version = from; version < target; version++) {
    const step = steps[kind][version];
    if (!step) throw new MigrationError(`no migration of ${kind} descriptors from format ${version} to ${version + 1}`);
    current = step(current);
    if (formatOf(current) !== version + 1) throw new MigrationError(`the ${kind} migration from format ${version} did not produce format ${version + 1}`);
  }
  return { doc: current as T, from, to: target };
}
