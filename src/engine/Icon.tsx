import type { ReactNode } from 'react';
import { useEngine } from './services.ts';
import { loadIcons, read } from './preload.ts';

/** An icon by name; renders nothing until the icon set has loaded. */
export function Icon({ name, size = 18 }: { name: string | undefined; size?: number }): ReactNode {
  const services = useEngine();
  if (!name) return null;
  const set = read(loadIcons(services));
  const Component = set[name];
  return Component ? <Component size={size} aria-hidden /> : null;
}
