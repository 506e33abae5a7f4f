import type { ScreenDescriptor } from '../../codegen/generated/descriptors.ts';

/** What a screen component of the registry (screens/index.ts) is given: its descriptor. */
export interface ScreenProps<S = ScreenDescriptor> {
  screen: S;
}
