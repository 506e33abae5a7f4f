import type { ReactNode } from 'react';
import type { Layout } from '../../codegen/generated/descriptors.ts';
import { useEngine } from './services.ts';
import { perEngineKeyed, read } from './preload.ts';
import { Lazy } from './ui.tsx';

/** A layout component's code, from the engine's registry (layouts/index.ts), loaded once. */
export const loadLayout = perEngineKeyed((services, component) => services.layoutComponents[component as Layout['component']]());

/** A route's layout (screens/layouts.json by name) around its page. */
export function LayoutFrame({ name, children }: { name: string; children: ReactNode }) {
  const services = useEngine();
  const layout = services.descriptors.layouts.layouts[name];
  if (!layout) throw new Error(`no layout ${name}`);
  const Component = read(loadLayout(services, layout.component)).default;
  return (
    <Lazy>
      <Component layout={layout}>{children}</Component>
    </Lazy>
  );
}
