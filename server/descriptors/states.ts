import { join } from 'node:path';
import type { StateRules } from '../../codegen/generated/descriptors.ts';
import { ROOT } from '../../core/contract/documents.ts';
import { readDescriptor } from '../../core/descriptors/read.ts';
import { metaErrors, metaValidator } from '../../core/descriptors/meta.ts';

/** screens/states.json (docs/decisions/0213), read once: the file is part of the deployment, like the lender files. */
export class StateRulesError extends Error {}

const loaded = new Map<string, StateRules>();

export function stateRules(file = join(ROOT, 'screens', 'states.json')): StateRules {
  let rules = loaded.get(file);
  if (!rules) {
    const doc = readDescriptor<StateRules>('states', file);
    const validate = metaValidator('states.schema.json');
    if (!validate(doc)) throw new StateRulesError(`${file}: does not match screens/_meta/states.schema.json: ${metaErrors(validate)}`);
    rules = doc;
    loaded.set(file, rules);
  }
  return rules;
}
