/**
 * The deployed descriptor files as Node reads them, and what a set is checked against here: the contract and the
 * meta-schemas' validators (precompiled by `npm run codegen`). What a set is, and its checks, are core/descriptors/set.ts.
 * Node only: the engine never imports it.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { ROOT } from '../contract/documents.ts';
import { bundleOpenApi } from '../contract/bundle.ts';
import { answerFields, readOperations } from '../contract/operations.ts';
import { kindOfPath } from './kinds.ts';
import { CURRENT_FORMAT, formatOf, migrate } from './migrations.ts';
import { enumerationLabels, formSchemaFiles } from '../contract/schema-files.ts';
import type { CheckContext } from './check.ts';
import { hostPatternProblem } from '../hosts.ts';
import { checkSet, type DescriptorFile, type DescriptorReport, type ValidatorSet } from './set.ts';

export const SCREENS = join(ROOT, 'screens');
export const META = join(SCREENS, '_meta');

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

/** The precompiled meta-schema validators (codegen/generated/descriptor-validators.ts). */
export async function loadValidators(): Promise<ValidatorSet> {
  return (await import('../../codegen/generated/descriptor-validators.ts')) as unknown as ValidatorSet;
}

/** What descriptors are checked against in `contract` (the served one, in a server that has it bundled already). */
export function contractContext(contract = bundleOpenApi()): CheckContext {
  const operations = new Map(readOperations(contract).map((op) => [op.operationId, op]));
  return {
    operations: new Set(operations.keys()),
    schemas: new Set([...Object.keys(((contract.components as Record<string, unknown>)?.schemas ?? {}) as Record<string, unknown>), ...formSchemaFiles().keys()]),
    answerFields: (operation, path) => {
      const op = operations.get(operation);
      return op && answerFields(contract, op, path);
    },
    labels: new Set([...[...enumerationLabels().keys()].map((name) => `label:${name}`), ...Object.keys(enumerationLabels().get('ConfigItemType') ?? {}).map((type) => `config:${type}`)]),
    hostPatternProblem,
  };
}

/** Parses, migrates and validates every descriptor file, then cross-checks them (core/descriptors/set.ts) with Node's contract and validators. */
export async function checkDescriptors(files = listDescriptorFiles(), context = contractContext(), validators?: ValidatorSet): Promise<DescriptorReport> {
  return checkSet(files, { validators: validators ?? (await loadValidators()), context });
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
