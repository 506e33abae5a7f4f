import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DescriptorFileError, readDescriptor } from '../descriptors/read.ts';
import { metaErrors, metaValidator } from '../descriptors/meta.ts';
import { lenderProblems } from './lender-checks.ts';
import type { LenderDescriptor } from '../../codegen/generated/descriptors.ts';

/**
 * screens/lenders/<code>.json as the server and the lender service read it (meta-schema screens/_meta/lender.schema.json,
 * whose generated types these are; docs/decisions/0101). The engine reads the routes; the server reads the journey, the
 * disclosures and the sandbox rules; the lender service (decision 0259) the sandbox rules. A file is the whole lender:
 * adding one adds a lender.
 */
export type { LenderDescriptor };
/** The sandbox settings of a lender file. */
export type SandboxSettings = LenderDescriptor['sandbox'];

/** A lender file the server cannot use (a descriptor file error of its own kind). */
export class LenderFileError extends DescriptorFileError {}

export function parseLenderFile(file: string, text: string): LenderDescriptor {
  const doc = readDescriptor('lender', file, text);
  const validate = metaValidator('lender.schema.json');
  if (!validate(doc)) throw new LenderFileError(`${file}: does not match screens/_meta/lender.schema.json: ${metaErrors(validate)}`);
  const lender = doc as LenderDescriptor;
  const problems = lenderProblems(file, lender);
  if (problems.length) throw new LenderFileError(`${file}: ${problems.join('; ')}`);
  return lender;
}

/** Every lender file of a folder, sorted by code. */
export function loadLenderFiles(dir: string): LenderDescriptor[] {
  if (!existsSync(dir)) throw new LenderFileError(`the lender folder ${dir} does not exist (LENDERS_DIR)`);
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => parseLenderFile(join(dir, name), readFileSync(join(dir, name), 'utf8')));
}
