import { lazy, useMemo } from 'react';
import type { ComponentScreen as Component } from '../../../codegen/generated/descriptors.ts';
import type { ScreenProps } from '../screen-props.ts';
import { useEngine } from '../services.ts';
import { Lazy } from '../ui.tsx';

/** component: a screen the app draws itself (EngineServices.components), loaded with its page. */
export default function ComponentScreen({ screen }: ScreenProps<Component>) {
  const { components } = useEngine();
  const Drawn = useMemo(() => lazy(components[screen.component]), [components, screen.component]);
  return (
    <Lazy>
      <Drawn />
    </Lazy>
  );
}
