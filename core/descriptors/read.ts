import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../contract/documents.ts';
import { kindOfPath, type DescriptorKind } from './kinds.ts';
import { MigrationError } from './migrations.ts';
import { FragmentError, type Fragments } from './fragments.ts';
import { engineDoc } from './set.ts';
import { metaErrors, metaValidator } from './meta.ts';

/** A descriptor file the server cannot use; the message names the file and the place. */
export class DescriptorFileError extends Error {}

let cached: { text: string; fragments: Fragments } | undefined;

/** The shared parts of screens/fragments/, like the other descriptor files part of the deployment; read again when one changed. */
function screenFragments(): Fragments {
  const dir = join(ROOT, 'screens', 'fragments');
  const files = readdirSync(dir).filter((name) => name.endsWith('.json')).sort().map((name) => ({ file: join(dir, name), text: readFileSync(join(dir, name), 'utf8') }));
  const text = files.map((f) => f.text).join('\n');
  if (cached?.text !== text) {
    const validate = metaValidator('fragments.schema.json');
    const docs = files.map(({ file, text: own }) => {
      const doc = readDescriptor<{ fragments: Fragments }>('fragments', file, own);
      if (!validate(doc)) throw new DescriptorFileError(`${file}: does not match screens/_meta/fragments.schema.json: ${metaErrors(validate)}`);
      return doc.fragments;
    });
    cached = { text, fragments: Object.assign({}, ...docs) as Fragments };
  }
  return cached.fragments;
}

function parse(file: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new DescriptorFileError(`${file}: not valid JSON (${(error as Error).message})`);
  }
}

/**
 * A deployed descriptor file as the engine reads it (core/descriptors/set.ts engineDoc), with the deployed shared parts.
 * Checking it against its meta-schema is the caller's.
 */
export function readDescriptor<T>(kind: DescriptorKind, file: string, text = readFileSync(file, 'utf8')): T {
  try {
    return engineDoc<T>(kind, parse(file, text), kind === 'fragments' ? {} : screenFragments());
  } catch (error) {
    if (error instanceof FragmentError) throw new DescriptorFileError(`${file}#${error.pointer}: ${error.message}`);
    if (error instanceof MigrationError) throw new DescriptorFileError(`${file}#/format: ${error.message}`);
    throw error;
  }
}

/** A file of screens/ by its path there ('pages/home.json'), read as readDescriptor does. */
export function screensFile<T>(relative: string): T {
  const kind = kindOfPath(relative);
  if (!kind) throw new DescriptorFileError(`screens/${relative}: not a descriptor`);
  return readDescriptor<T>(kind, join(ROOT, 'screens', relative));
}
