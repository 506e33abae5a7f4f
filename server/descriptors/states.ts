import type { StateRules } from '../../codegen/generated/descriptors.ts';
import { DescriptorFileError, screensFile } from '../../core/descriptors/read.ts';
import { metaErrors, metaValidator } from '../../core/descriptors/meta.ts';
import { latestLiveSet } from './live.ts';

/**
 * The state rules (docs/decisions/0213): screens/states.json as deployed, or as the live studio publication serves it
 * (decision 0241; a published set passed the build's checks), read once per live set.
 */
let deployed: StateRules | undefined;
let live: { hash: string; rules: StateRules } | undefined;

function readDeployed(): StateRules {
  const doc = screensFile<StateRules>('states.json');
  const validate = metaValidator('states.schema.json');
  if (!validate(doc)) throw new DescriptorFileError(`screens/states.json: does not match screens/_meta/states.schema.json: ${metaErrors(validate)}`);
  return doc;
}

export function stateRules(): StateRules {
  const set = latestLiveSet();
  if (live?.hash !== set.hash) live = { hash: set.hash, rules: (set.served['states.json'] as StateRules | undefined) ?? (deployed ??= readDeployed()) };
  return live.rules;
}
