import type { StateRules } from '../../codegen/generated/descriptors.ts';
import { DescriptorFileError, screensFile } from '../../core/descriptors/read.ts';
import { metaErrors, metaValidator } from '../../core/descriptors/meta.ts';
import { perLiveSet } from './live.ts';

let deployed: StateRules | undefined;

function readDeployed(): StateRules {
  const doc = screensFile<StateRules>('states.json');
  const validate = metaValidator('states.schema.json');
  if (!validate(doc)) throw new DescriptorFileError(`screens/states.json: does not match screens/_meta/states.schema.json: ${metaErrors(validate)}`);
  return doc;
}

/**
 * The state rules (docs/decisions/0213): screens/states.json as deployed, or as the live studio publication serves it
 * (decision 0241; a published set passed the build's checks).
 */
export const stateRules = perLiveSet((set): StateRules => (set.served['states.json'] as StateRules | undefined) ?? (deployed ??= readDeployed()));
