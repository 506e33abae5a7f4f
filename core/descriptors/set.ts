/**
 * The descriptor set: the one place that says what the product runs on. The deployed files of screens/, with a studio
 * publication's (or a draft's) files laid over them, each migrated to the current format with its shared parts written
 * out; checked against the meta-schemas, each other, the contract and the lenders' and languages' own rules. The build
 * (vite.config.ts, `npm run check`), the server (the live set, its readers, the studio's check and publish) and the
 * studio (its preview) read a set here. The web app runs on a set read and checked so, and only takes a published set's
 * files in place of its bundle's (./overlay.ts). Pure: the file system, the contract and the compiled validators are
 * handed in (core/descriptors/screens.ts hands in Node's).
 */
import { expandFragments, FragmentError, fragmentsUsed, type Fragments } from './fragments.ts';
import { kindOfPath, nameOfPath, type DescriptorKind } from './kinds.ts';
import { migrate, MigrationError } from './migrations.ts';
import { describeErrors, pointerSegment, quoted, type SchemaError } from './errors.ts';
import { crossCheck, type CheckContext, type LoadedDescriptor } from './check.ts';
import { lenderProblems } from '../lenders/lender-checks.ts';
import type { SetFiles } from './overlay.ts';
import type { LenderDescriptor } from '../../codegen/generated/descriptors.ts';

/** A file of a set as written. */
export interface DescriptorFile {
  /** 'screens/pages/home.json' */
  file: string;
  /** 'pages/home.json' */
  relative: string;
  kind: DescriptorKind | undefined;
  text: string;
}


/** The files of a set with an overlay's in place of (or beside) them. */
export function overlaid(files: readonly DescriptorFile[], overlay: SetFiles): DescriptorFile[] {
  const byPath = new Map(files.map((file) => [file.relative, file]));
  for (const [relative, doc] of Object.entries(splitSharedParts(files, overlay))) {
    byPath.set(relative, { file: `screens/${relative}`, relative, kind: kindOfPath(relative), text: JSON.stringify(doc) });
  }
  return [...byPath.values()];
}

/** Where the shared parts were one file, before they were grouped by kind in fragments/ (decision 0290). */
const ONE_FILE = 'fragments.json';
/** Where a part goes that the one file had and no file of fragments/ has. */
const ADDED_PARTS = 'fragments/added.json';

/**
 * An overlay written when the shared parts were one file (a publication, a review or a draft kept from then), with
 * that file's parts in the files of fragments/ that hold them now: each file as the one file had its parts, a part it
 * no longer had left out, a part no file holds in fragments/added.json.
 */
function splitSharedParts(files: readonly DescriptorFile[], overlay: SetFiles): SetFiles {
  const one = overlay[ONE_FILE] as { format?: number; fragments?: Fragments } | undefined;
  if (!one) return overlay;
  const { [ONE_FILE]: _, ...rest } = overlay;
  const parts = { ...(one.fragments ?? {}) };
  const split: Record<string, unknown> = { ...rest };
  for (const file of files) {
    if (file.kind !== 'fragments') continue;
    const doc = JSON.parse(file.text) as { fragments: Fragments };
    const kept = Object.keys(doc.fragments).filter((name) => name in parts);
    split[file.relative] = { ...doc, fragments: Object.fromEntries(kept.map((name) => [name, parts[name]])) };
    for (const name of kept) delete parts[name];
  }
  if (Object.keys(parts).length) split[ADDED_PARTS] = { format: one.format ?? 1, description: 'Shared parts added in the studio.', fragments: parts };
  return split;
}

/** A descriptor as the engine reads it: in the current format, its shared parts written out. Throws what it cannot read. */
export function engineDoc<T = Record<string, unknown>>(kind: DescriptorKind, doc: unknown, fragments: Fragments): T {
  const current = migrate<T>(kind, doc).doc;
  return kind === 'fragments' ? current : expandFragments(current, fragments);
}

/** The shared parts a set's files define (the files of fragments/, together). */
export function setFragments(files: readonly DescriptorFile[]): Fragments {
  const parts = files.filter((f) => f.kind === 'fragments').map((f) => migrate<{ fragments: Fragments }>('fragments', JSON.parse(f.text)).doc.fragments);
  return Object.assign({}, ...parts) as Fragments;
}

/** Every file of a checked set as the engine reads it, by path under screens/ (the shared parts' file is in the others). */
export function engineDocs(files: readonly DescriptorFile[]): Map<string, unknown> {
  const fragments = setFragments(files);
  const out = new Map<string, unknown>();
  for (const file of files) if (file.kind && file.kind !== 'fragments') out.set(file.relative, engineDoc(file.kind, JSON.parse(file.text), fragments));
  return out;
}

/**
 * The files of `after` that read a shared part `before` and `after` hold differently, directly or through another
 * part: a change to a shared part is a change to each of them (and is approved as one).
 */
export function usersOfChangedParts(before: readonly DescriptorFile[], after: readonly DescriptorFile[]): string[] {
  const old = setFragments(before);
  const now = setFragments(after);
  const changed = new Set([...Object.keys(old), ...Object.keys(now)].filter((name) => JSON.stringify(old[name]) !== JSON.stringify(now[name])));
  if (changed.size === 0) return [];
  return after
    .filter((file) => file.kind && file.kind !== 'fragments' && [...fragmentsUsed(JSON.parse(file.text), now)].some((name) => changed.has(name)))
    .map((file) => file.relative)
    .sort();
}

type Validator = ((data: unknown) => boolean) & { errors?: SchemaError[] | null };
export type ValidatorSet = Record<string, Validator>;

/** What a set is checked against: the meta-schemas' compiled validators, the contract, the forms the web app was built with. */
export interface SetChecks {
  validators: ValidatorSet;
  context: CheckContext;
  /** The form schemas the web app has validators for; a set that names another needs a deployment. Unchecked if absent. */
  builtForms?: ReadonlySet<string>;
}

export interface DescriptorReport {
  descriptors: LoadedDescriptor[];
  errors: string[];
  /** Files in an older format, migrated in memory. */
  migrated: Array<{ file: string; from: number; to: number }>;
}

/** Validates one migrated, expanded descriptor against its meta-schema; screens by their kind for precise errors. */
export function validateDescriptor(validators: ValidatorSet, file: string, kind: DescriptorKind, doc: Record<string, unknown>): string[] {
  let validator = validators[kind];
  if (kind === 'screen') {
    const screenKind = typeof doc.kind === 'string' ? doc.kind : '';
    validator = validators[`screen_${screenKind}`];
    if (!validator) return [`${file}#/kind: must be one of ${Object.keys(validators).filter((k) => k.startsWith('screen_')).map((k) => JSON.stringify(k.slice(7))).join(', ')}`];
  }
  if (!validator) return [`${file}: no validator for ${kind} descriptors (run npm run codegen)`];
  return validator(doc) ? [] : describeErrors(file, validator.errors ?? []);
}

/**
 * Reads and checks a whole set: each file parsed, migrated, expanded and validated; then, if every file passed, the
 * names against each other and the contract, each lender's and brand's own rules, and the forms the web app can show.
 */
export function checkSet(files: readonly DescriptorFile[], checks: SetChecks): DescriptorReport {
  const errors: string[] = [];
  const descriptors: LoadedDescriptor[] = [];
  const migrated: DescriptorReport['migrated'] = [];
  // The shared parts come first: every other descriptor is checked with its uses written out.
  const ordered = [...files.filter((f) => f.kind === 'fragments'), ...files.filter((f) => f.kind !== 'fragments')];
  const fragments: Fragments = {};
  /** Which file holds each shared part. */
  const holder = new Map<string, string>();
  const used = new Set<string>();
  for (const entry of ordered) {
    if (!entry.kind) {
      errors.push(`${entry.file}: not a known descriptor place (routes.json, menus.json, layouts.json, conditions.json, pages/, dialogs/, brands/, lenders/)`);
      continue;
    }
    let doc: Record<string, unknown>;
    try {
      const result = migrate(entry.kind, JSON.parse(entry.text));
      if (result.from !== result.to) migrated.push({ file: entry.file, from: result.from, to: result.to });
      if (entry.kind !== 'fragments') fragmentsUsed(result.doc, fragments, used);
      doc = engineDoc(entry.kind, result.doc, fragments);
    } catch (error) {
      const problem = readProblem(entry.file, error);
      if (problem === undefined) throw error;
      errors.push(problem);
      continue;
    }
    const own = validateDescriptor(checks.validators, entry.file, entry.kind, doc);
    errors.push(...own);
    if (own.length) continue;
    if (entry.kind === 'fragments') errors.push(...holdParts(entry.file, (doc as { fragments: Fragments }).fragments, fragments, holder));
    descriptors.push({ file: entry.file, kind: entry.kind, name: nameOfPath(entry.relative), doc });
  }
  const unused = new Map<string, string[]>();
  for (const name of Object.keys(fragments)) if (!used.has(name)) unused.set(holder.get(name)!, [...(unused.get(holder.get(name)!) ?? []), name]);
  for (const [file, names] of unused) errors.push(`${file}: ${names.map(quoted).join(', ')} used by no descriptor`);
  if (errors.length === 0) errors.push(...crossCheck(descriptors, checks.context), ...ownRules(descriptors, checks));
  return { descriptors, errors, migrated };
}

/** Takes a file's shared parts into the set's; a name another file holds already is refused there. */
function holdParts(file: string, parts: Fragments, into: Fragments, holder: Map<string, string>): string[] {
  return Object.entries(parts).flatMap(([name, part]) => {
    const other = holder.get(name);
    if (other) return [`${file}#/fragments/${pointerSegment(name)}: the shared part ${quoted(name)} is already in ${other}`];
    holder.set(name, file);
    into[name] = part;
    return [];
  });
}

/** Why a file cannot be read, in words with its place; undefined for an error that is not the file's. */
function readProblem(file: string, error: unknown): string | undefined {
  if (error instanceof SyntaxError) return `${file}: not valid JSON (${error.message})`;
  if (error instanceof MigrationError) return `${file}#/format: ${error.message}`;
  if (error instanceof FragmentError) return `${file}#${error.pointer}: ${error.message}`;
  return undefined;
}

/** What each kind of file must also be, as its reader on the server holds it: lenders, brands' hosts, new forms. */
function ownRules(descriptors: readonly LoadedDescriptor[], checks: SetChecks): string[] {
  return descriptors.flatMap((d) => {
    if (d.kind === 'lender') {
      const problems = lenderProblems(d.file, d.doc as unknown as LenderDescriptor);
      return problems.length ? [`${d.file}: ${problems.join('; ')}`] : [];
    }
    if (d.kind === 'brand') {
      return ((d.doc.hosts ?? []) as string[]).flatMap((host, i) => {
        const problem = checks.context.hostPatternProblem(host);
        return problem ? [`${d.file}#/hosts/${i}: ${problem}`] : [];
      });
    }
    const schema = d.kind === 'screen' && d.doc.kind === 'form' ? d.doc.schema : undefined;
    if (checks.builtForms && typeof schema === 'string' && !checks.builtForms.has(schema)) {
      return [`${d.file}#/schema: the web app has no form over ${quoted(schema)} yet; a form over a new schema takes a deployment`];
    }
    return [];
  });
}
