/**
 * The descriptor set under screens/ as Node sees it: listing, parsing, migration, validation against the meta-schemas
 * (validators precompiled by `npm run codegen`) and the cross-reference check. Used by the build (vite.config.ts,
 * codegen), the server (the studio checks a draft with the live set as the build checks the deployed one) and the
 * tests; errors name the file and the JSON pointer. Node only: the engine never imports it.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { ROOT } from '../contract/documents.ts';
import { bundleOpenApi } from '../contract/bundle.ts';
import { answerFields, readOperations } from '../contract/operations.ts';
import { kindOfPath, nameOfPath, type DescriptorKind } from './kinds.ts';
import { CURRENT_FORMAT, formatOf, migrate, MigrationError } from './migrations.ts';
import { expandFragments, FragmentError, fragmentsUsed, type Fragments } from './fragments.ts';
import { describeErrors, quoted, type SchemaError } from './errors.ts';
import { enumerationLabels, formSchemaFiles } from '../contract/schema-files.ts';
import { crossCheck, type CheckContext, type LoadedDescriptor } from './check.ts';
import { hostPatternProblem } from '../hosts.ts';

export const SCREENS = join(ROOT, 'screens');
export const META = join(SCREENS, '_meta');

export interface DescriptorFile {
  /** 'screens/pages/home.json' */
  file: string;
  /** 'pages/home.json' */
  relative: string;
  kind: DescriptorKind | undefined;
  text: string;
}

function list(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      // _meta holds the meta-schemas, _templates what the studio starts a new brand or lender from: neither is a descriptor.
      if (statSync(path).isDirectory()) return name.startsWith('_') ? [] : list(path);
      return name.endsWith('.json') ? [path] : [];
    });
}

export function listDescriptorFiles(root = SCREENS): DescriptorFile[] {
  return list(root).map((path) => {
    const rel = relative(root, path).split(sep).join('/');
    return { file: `screens/${rel}`, relative: rel, kind: kindOfPath(rel), text: readFileSync(path, 'utf8') };
  });
}

type Validator = ((data: unknown) => boolean) & { errors?: SchemaError[] | null };
export type ValidatorSet = Record<string, Validator>;

/** The precompiled meta-schema validators (codegen/generated/descriptor-validators.ts). */
export async function loadValidators(): Promise<ValidatorSet> {
  return (await import('../../codegen/generated/descriptor-validators.ts')) as unknown as ValidatorSet;
}

export function contractContext(): CheckContext {
  const contract = bundleOpenApi();
  const operations = new Map(readOperations(contract).map((op) => [op.operationId, op]));
  return {
    operations: new Set(operations.keys()),
    schemas: new Set([...Object.keys(((contract.components as Record<string, unknown>)?.schemas ?? {}) as Record<string, unknown>), ...formSchemaFiles().keys()]),
    answerFields: (operation, path) => {
      const op = operations.get(operation);
      return op && answerFields(contract, op, path);
    },
    labels: new Set([...[...enumerationLabels().keys()].map((name) => `label:${name}`), ...Object.keys(enumerationLabels().get('ConfigItemType') ?? {}).map((type) => `config:${type}`)]),
  };
}

/** Validates one parsed, migrated descriptor against its meta-schema; screens by their kind for precise errors. */
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

export interface DescriptorReport {
  descriptors: LoadedDescriptor[];
  errors: string[];
  /** Files in an older format, migrated in memory. */
  migrated: Array<{ file: string; from: number; to: number }>;
}

/** Parses, migrates and validates every descriptor file, then cross-checks names against each other and the contract. */
export async function checkDescriptors(files = listDescriptorFiles(), context = contractContext(), validators?: ValidatorSet): Promise<DescriptorReport> {
  const set = validators ?? (await loadValidators());
  const errors: string[] = [];
  const descriptors: LoadedDescriptor[] = [];
  const migrated: DescriptorReport['migrated'] = [];
  // The fragments come first: every other descriptor is checked with its uses expanded.
  const ordered = [...files.filter((f) => f.kind === 'fragments'), ...files.filter((f) => f.kind !== 'fragments')];
  let fragments: Fragments = {};
  const used = new Set<string>();
  for (const entry of ordered) {
    if (!entry.kind) {
      errors.push(`${entry.file}: not a known descriptor place (routes.json, menus.json, layouts.json, conditions.json, pages/, dialogs/, brands/, lenders/)`);
      continue;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(entry.text);
    } catch (error) {
      errors.push(`${entry.file}: not valid JSON (${(error as Error).message})`);
      continue;
    }
    let doc: Record<string, unknown>;
    try {
      const result = migrate(entry.kind, parsed);
      doc = result.doc;
      if (result.from !== result.to) migrated.push({ file: entry.file, from: result.from, to: result.to });
    } catch (error) {
      if (!(error instanceof MigrationError)) throw error;
      errors.push(`${entry.file}#/format: ${error.message}`);
      continue;
    }
    if (entry.kind !== 'fragments') {
      try {
        fragmentsUsed(doc, fragments, used);
        doc = expandFragments(doc, fragments);
      } catch (error) {
        if (!(error instanceof FragmentError)) throw error;
        errors.push(`${entry.file}#${error.pointer}: ${error.message}`);
        continue;
      }
    }
    const own = validateDescriptor(set, entry.file, entry.kind, doc);
    errors.push(...own);
    if (own.length === 0 && entry.kind === 'fragments') fragments = (doc as { fragments: Fragments }).fragments;
    if (own.length === 0) descriptors.push({ file: entry.file, kind: entry.kind, name: nameOfPath(entry.relative), doc });
  }
  const unused = Object.keys(fragments).filter((name) => !used.has(name));
  if (unused.length) errors.push(`screens/fragments.json: ${unused.map(quoted).join(', ')} used by no descriptor`);
  if (errors.length === 0) errors.push(...crossCheck(descriptors, context), ...hostProblems(descriptors));
  return { descriptors, errors, migrated };
}

/** Brand host patterns that would cover many owners' sites (core/hosts.ts; here, as it reads the public suffix list). */
function hostProblems(descriptors: readonly LoadedDescriptor[]): string[] {
  return descriptors
    .filter((d) => d.kind === 'brand')
    .flatMap((d) => ((d.doc.hosts ?? []) as string[]).flatMap((host, i) => {
      const problem = hostPatternProblem(host);
      return problem ? [`${d.file}#/hosts/${i}: ${problem}`] : [];
    }));
}

/** The contract component names of every form screen (their validators are precompiled). */
export function formSchemaNames(files = listDescriptorFiles()): string[] {
  const names = new Set<string>();
  for (const entry of files) {
    if (entry.kind !== 'screen') continue;
    try {
      const doc = JSON.parse(entry.text) as { kind?: string; schema?: string };
      if (doc.kind === 'form' && typeof doc.schema === 'string') names.add(doc.schema);
    } catch {
      // reported by checkDescriptors
    }
  }
  return [...names].sort();
}

/** Rewrites descriptor files of an older format in the current one (`npm run codegen`); answers the files written. */
export function rewriteOldDescriptors(root = SCREENS): string[] {
  const written: string[] = [];
  for (const entry of listDescriptorFiles(root)) {
    if (!entry.kind) continue;
    let doc: unknown;
    try {
      doc = JSON.parse(entry.text);
    } catch {
      continue;
    }
    if (formatOf(doc) >= CURRENT_FORMAT) continue;
    const migrated = migrate(entry.kind, doc).doc;
    writeFileSync(join(root, entry.relative), `${JSON.stringify(migrated, null, 2)}\n`);
    written.push(entry.file);
  }
  return written;
}
